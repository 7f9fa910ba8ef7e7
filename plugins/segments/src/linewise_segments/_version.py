"""The linewise-segments release version."""

__version__ = "0.2.0"
