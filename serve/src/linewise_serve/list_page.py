"""The sessions page: every session, newest first, filtered, a page of rows at a time."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final

from linewise_serve._host import LIVE_SECONDS, is_live
from linewise_serve.filters import SessionFilter
from linewise_serve.index import Listed
from linewise_serve.markup import cost_text, escaped, frame, href, tokens_text, when_text

__all__ = ["ROWS", "sessions_page"]

#: Rows on one page of the list.
ROWS: Final = 100
_PROMPT: Final = 120


def _options(name: str, values: Sequence[str], chosen: str | None) -> str:
    items = [f'<option value="">every {name}</option>']
    for value in values:
        selected = (
            " selected" if chosen is not None and value.casefold() == chosen.casefold() else ""
        )
        items.append(f'<option value="{escaped(value)}"{selected}>{escaped(value)}</option>')
    return f'<select name="{name}" aria-label="{name}">{"".join(items)}</select>'


def _form(keep: SessionFilter, clis: Sequence[str], outcomes: Sequence[str]) -> str:
    def text(name: str, label: str, value: str | None) -> str:
        return (
            f'<label>{label} <input name="{name}" value="{escaped(value or "")}" '
            f'type="{"date" if name in ("since", "until") else "text"}"></label>'
        )

    return (
        '<form class="filters" method="get" action="/">'
        + _options("cli", clis, keep.cli)
        + text("project", "project", keep.project)
        + text("model", "model", keep.model)
        + text("since", "since", keep.since)
        + text("until", "until", keep.until)
        + _options("outcome", outcomes, keep.outcome)
        + '<button type="submit">Filter</button> <a href="/">clear</a></form>'
    )


def _row(one: Listed, now: float) -> str:
    info = one.info
    prompt = info.first_prompt or ""
    if len(prompt) > _PROMPT:
        prompt = prompt[: _PROMPT - 1] + "…"
    live = (
        f'<span class="live" title="written in the last {LIVE_SECONDS:.0f} seconds">live</span> '
        if is_live(info, now)
        else ""
    )
    return (
        f'<tr data-uid="{one.uid}"{" class=is-live" if live else ""}>'
        f"<td>{live}<time>{escaped(when_text(info))}</time></td>"
        f"<td>{escaped(info.cli)}</td>"
        f'<td class="project">{escaped(info.project or "(no project)")}</td>'
        f"<td>{escaped(info.model or 'unknown')}</td>"
        f'<td class="n">{info.messages:,}</td><td class="n">{info.tool_calls:,}</td>'
        f'<td class="n">{tokens_text(info.token_usage.total)}</td>'
        f'<td class="n">{escaped(cost_text(info.cost_usd, info.cost_source))}</td>'
        f"<td>{escaped(info.outcome)}</td>"
        f'<td><a class="open" href="/s/{one.uid}">{escaped(prompt or info.id)}</a></td></tr>'
    )


def sessions_page(
    listed: Sequence[Listed],
    keep: SessionFilter,
    page: int,
    *,
    left_out: Sequence[tuple[str, str]] = (),
    problem: str | None = None,
) -> str:
    """The list: ``listed`` (every session, newest first) kept by ``keep``, page ``page``."""
    now = time.time()
    clis = sorted({one.info.cli for one in listed})
    outcomes = sorted({one.info.outcome for one in listed})
    kept = [one for one in listed if keep.keeps(one.info)]
    pages = max(1, -(-len(kept) // ROWS))
    page = min(max(page, 1), pages)
    shown = kept[(page - 1) * ROWS : page * ROWS]
    rows = "".join(_row(one, now) for one in shown)
    query = keep.query()
    links = []
    if page > 1:
        links.append(f'<a rel="prev" href="{href("/", {**query, "page": page - 1})}">newer</a>')
    if page < pages:
        links.append(f'<a rel="next" href="{href("/", {**query, "page": page + 1})}">older</a>')
    body = (
        "<h1>Sessions</h1>"
        + (f'<p class="problem">{escaped(problem)}</p>' if problem else "")
        + _form(keep, clis, outcomes)
        + f'<p class="count" id="count">{len(kept):,} of {len(listed):,} sessions'
        + f" · page {page} of {pages} · newest first · times UTC · "
        + "<span class=live>live</span>: its file was written in the last "
        + f"{LIVE_SECONDS:.0f} seconds</p>"
        + '<table class="sessions"><thead><tr><th>last active</th><th>CLI</th><th>project</th>'
        + '<th>model</th><th class="n">messages</th><th class="n">tool calls</th>'
        + '<th class="n" title="every input token (uncached, cache reads and writes) and output;'
        + ' unknown: the CLI recorded none">tokens</th>'
        + '<th class="n" title="reported by the CLI, or estimated from list prices">cost</th>'
        + f"<th>outcome</th><th>first prompt</th></tr></thead><tbody>{rows}</tbody></table>"
        + f'<p class="pages">{" · ".join(links)}</p>'
        + _left_out(left_out)
    )
    return frame("Sessions", body, current="/")


def _left_out(left_out: Sequence[tuple[str, str]]) -> str:
    if not left_out:
        return ""
    items = "".join(
        f"<li><code>{escaped(path)}</code>: {escaped(why)}</li>" for path, why in left_out[:200]
    )
    more = f"<li>and {len(left_out) - 200:,} more</li>" if len(left_out) > 200 else ""
    return (
        f'<details class="left-out"><summary>{len(left_out):,} files of the folders given are '
        f"not listed</summary><ul>{items}{more}</ul></details>"
    )
