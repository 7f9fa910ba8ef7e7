"""The web app's own pages around agent text: the frame, numbers, times and links.

Agent text (prompts, projects, models, snippets) goes through the HTML renderer's
``escaped``: control sequences neutralised visibly, then escaped, exactly as in
a rendered transcript. Nothing here places agent text in a script.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final
from urllib.parse import urlencode

from linewise_serve import __version__
from linewise_serve._host import SessionInfo, escaped

__all__ = [
    "cost_text",
    "escaped",
    "frame",
    "href",
    "tokens_text",
    "when_text",
]

_NAV: Final = (("/", "Sessions"), ("/search", "Search"), ("/usage", "Usage"))


def href(path: str, query: Mapping[str, str | int] | None = None) -> str:
    """A link to one of the app's own pages, escaped for an attribute."""
    values = {key: str(value) for key, value in (query or {}).items() if value != ""}
    return escaped(path + ("?" + urlencode(values) if values else ""))


def frame(title: str, body: str, *, current: str) -> str:
    """A whole page of the app: its stylesheet and script are files (the policy allows no
    inline code), the navigation, then ``body`` (markup already escaped)."""
    links = "".join(
        f'<a href="{path}"{" aria-current=page" if path == current else ""}>{name}</a>'
        for path, name in _NAV
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escaped(title)} · linewise serve</title>\n"
        '<link rel="stylesheet" href="/static/serve.css">\n'
        '<script src="/static/serve.js" defer></script>\n'
        f'</head>\n<body>\n<nav class="app-nav"><strong>linewise</strong>{links}</nav>\n'
        f"<main>\n{body}\n</main>\n"
        f'<footer class="app-footer">linewise serve {__version__}: every page from this '
        "machine's session stores and the folders given, nothing loaded from elsewhere."
        "</footer>\n</body>\n</html>\n"
    )


def tokens_text(value: int | None) -> str:
    """A token count, or "unknown" (never 0 for a count nobody reported)."""
    return "unknown" if value is None else f"{value:,}"


def cost_text(cost: float | None, source: str | None) -> str:
    """A cost in dollars with where it came from: estimated costs say so."""
    if cost is None:
        return "unknown"
    shown = "<$0.0001" if 0 < cost < 0.0001 else (f"${cost:,.2f}" if cost >= 10 else f"${cost:.4f}")
    if source == "estimated":
        return f"{shown} (estimated)"
    if source == "mixed":
        return f"{shown} (partly estimated)"
    return shown


def when_text(info: SessionInfo) -> str:
    """The session's last activity, UTC, to the minute ("unknown" without a time)."""
    moment = info.newest
    return f"{moment[:10]} {moment[11:16]}" if moment else "unknown"
