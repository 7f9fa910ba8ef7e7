"""The search page: the form, and each hit linking to its element in its transcript."""

from __future__ import annotations

from collections.abc import Sequence

from linewise_serve.index import SessionIndex
from linewise_serve.markup import escaped, frame, when_text
from linewise_serve.search import Hit

__all__ = ["search_page"]


def _snippet(hit: Hit) -> str:
    # Escaped first (the marks are private-use characters, kept by escaping), then marked.
    return escaped(hit.snippet).replace("\ue000", "<mark>").replace("\ue001", "</mark>")


def search_page(
    text: str, hits: Sequence[Hit], index: SessionIndex, *, indexed: int, total: int
) -> str:
    """The page for the words ``text``: its hits, and how much of the sessions is searchable."""
    items = []
    for hit in hits:
        listed = index.get(hit.uid)
        if listed is None:
            continue
        info = listed.info
        items.append(
            f'<li class="hit"><a class="hit-link" href="/s/{hit.uid}#{hit.anchor}">'
            f'<span class="kind">{escaped(hit.kind)}</span> in {escaped(info.cli)} session '
            f"<code>{escaped(info.id[:12])}</code> · {escaped(info.project or '(no project)')} · "
            f"{escaped(when_text(info))}</a><div class=snippet>{_snippet(hit)}</div></li>"
        )
    coverage = f"{indexed:,} of {total:,} sessions indexed" + (
        " (the rest are being indexed: search again in a moment)" if indexed < total else ""
    )
    if not text.strip():
        listing = ""
    elif items:
        listing = (
            f'<p class="count">{len(items):,} matching entries</p>'
            f'<ol class="hits">{"".join(items)}</ol>'
        )
    else:
        listing = '<p class="count">no matching entries</p>'
    body = (
        "<h1>Search</h1>"
        '<form class="search" method="get" action="/search" role="search">'
        f'<input name="q" type="search" value="{escaped(text)}" autofocus '
        'aria-label="words to find in messages, tool inputs and tool results">'
        '<button type="submit">Search</button></form>'
        f'<p class="coverage">Messages, tool inputs and tool results; every word must be in '
        f"one entry, the last one as a prefix; case and accents ignored. {coverage}.</p>" + listing
    )
    return frame(f"Search: {text}" if text else "Search", body, current="/search")
