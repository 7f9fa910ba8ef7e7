"""Deprecated location: use :mod:`linewise.renderers.progress` (kept while callers move)."""

from linewise.renderers.progress import DELAY, INTERVAL, ProgressBar

__all__ = ["DELAY", "INTERVAL", "ProgressBar"]
