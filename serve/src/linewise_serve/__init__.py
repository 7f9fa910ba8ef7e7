"""linewise serve: the sessions on this machine in a local web app (list, search, live, usage)."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
