"""Deprecated location: use :mod:`linewise.renderers` (kept while callers move)."""

from linewise.renderers.sanitising import neutralize

__all__ = ["neutralize"]
