"""Deprecated location: use :mod:`linewise.renderers.privacy` (kept while callers move)."""

from linewise.renderers.privacy import CensoringRenderer, censor_text, censor_usernames

__all__ = ["CensoringRenderer", "censor_text", "censor_usernames"]
