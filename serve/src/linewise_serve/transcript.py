"""The transcript page: the HTML renderer's page of a session, with the app's navigation and
its live updates.

The renderer's page pins its own inline style and script by hash in a ``<meta>``
policy. The app serves that policy as a header instead, with only the app's own
files added (its navigation's style and the live script) and connections to
itself (the live updates); the renderer's escaping and markup are untouched.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Final

from linewise_serve._host import HtmlRenderer, SessionInfo, session_summary, transcribe_session
from linewise_serve.index import Listed
from linewise_serve.markup import escaped

__all__ = ["TranscriptPage", "transcript_page"]

# The renderer's own head line (before <body>, so before any agent text).
_META: Final = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">\n')
_BODY: Final = "<body>\n"


@dataclass(frozen=True, slots=True)
class TranscriptPage:
    """A transcript page and the policy it is served with."""

    html: str
    policy: str


def _policy(renderer_policy: str) -> str:
    """The renderer's policy (its style and script hashes) plus the app's own files."""
    parts = {}
    for part in renderer_policy.split(";"):
        words = part.split()
        if words:
            parts[words[0]] = words[1:]
    style = " ".join(parts.get("style-src", []))
    script = " ".join(parts.get("script-src", []))
    return (
        f"default-src 'none'; style-src {style} 'self'; script-src {script} 'self'; "
        "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )


def _title(info: SessionInfo) -> str:
    return f"{info.cli} session {info.id}"


def _nav(listed: Listed, before: Listed | None, after: Listed | None) -> str:
    def link(one: Listed | None, rel: str, label: str) -> str:
        if one is None:
            return f'<span class="none">no {label} session of this project</span>'
        return f'<a rel="{rel}" href="/s/{one.uid}">{label} session of this project</a>'

    return (
        f'<nav class="serve-nav" data-uid="{listed.uid}"><a href="/">all sessions</a>'
        f"{link(before, 'prev', 'previous')}{link(after, 'next', 'next')}"
        f'<span class="live-status" id="live-status" aria-live="polite"></span></nav>\n'
    )


def transcript_page(listed: Listed, before: Listed | None, after: Listed | None) -> TranscriptPage:
    """The session's transcript as the renderer draws it, inside the app."""
    transcript = transcribe_session(listed.info)
    out = io.StringIO()
    renderer = HtmlRenderer(out, title=_title(listed.info))
    for entry in transcript.entries:
        renderer.write(entry)
    # The header's tokens, cost and outcome as `linewise render` draws them: the plugin's.
    renderer.close(summary=session_summary(listed.info))
    page = out.getvalue()
    head, _, rest = page.partition(_BODY)
    found = _META.search(head)
    if found is None or not rest:
        raise RuntimeError("the HTML renderer's page has no policy line to serve as a header")
    head = head[: found.start()] + head[found.end() :]
    head = head.replace(
        "</head>\n",
        '<link rel="stylesheet" href="/static/transcript.css">\n</head>\n',
        1,
    )
    tail = f'<script src="/static/live.js" data-events="/s/{listed.uid}/events"></script>\n'
    end = "</body>\n</html>\n"
    if not rest.endswith(end):
        raise RuntimeError("the HTML renderer's page does not end as expected")
    body = rest[: -len(end)] + tail + end
    html = head + _BODY + _nav(listed, before, after) + body
    return TranscriptPage(html, _policy(found.group(1)))


def missing_page(uid: str) -> str:
    """What a link to no listed session shows."""
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>No such session</title>"
        '<link rel="stylesheet" href="/static/serve.css"></head><body><main>'
        f"<h1>No such session</h1><p>No listed session is called <code>{escaped(uid)}</code>: "
        'sessions are found only in the stores and folders being served. <a href="/">All '
        "sessions</a>.</p></main></body></html>"
    )
