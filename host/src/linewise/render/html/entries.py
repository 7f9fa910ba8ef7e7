"""Every entry but tool calls: messages, thinking, init, run results, system, output, diffs."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Final

from linewise_contracts.entries import DIFF_CHANGE_TYPES

from linewise.render.html.markup import escaped, line_count, lines_label, markdown, shortened
from linewise.render.html.paging import PageState
from linewise.render.html.tools import checklist_from_text
from linewise.render.outcome import result_failed, result_label, result_usage
from linewise.render.preview import one_line

__all__ = ["PREVIEW", "EntryBlocks"]

PREVIEW: Final = 160
#: A system message longer than this, or of more lines, is folded with its first line shown.
_SYSTEM_INLINE: Final = 240


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.strip().encode("utf-8", "surrogatepass"), digest_size=16).digest()


class EntryBlocks:
    """Writes one element per entry; consecutive ``diff`` entries share one block."""

    def __init__(self, page: PageState) -> None:
        self._page = page
        self._diff_open = False
        # A digest of the last assistant text (not the text: memory stays constant).
        self._last_assistant: tuple[bytes, str] | None = None

    @property
    def in_diff(self) -> bool:
        return self._diff_open

    def forget_assistant(self) -> None:
        """The last assistant text was streamed undigested: never "the same as" a result."""
        self._last_assistant = None

    def end_diff(self) -> None:
        if self._diff_open:
            self._page.write("</pre></section>\n")
            self._diff_open = False

    def text(self, entry: Mapping[str, Any], kind: str, *, markdown_text: bool) -> None:
        page = self._page
        ident = page.next_id()
        if kind == "assistant" and not page.nest:
            self._last_assistant = (_digest(entry["text"]), ident)
        body = markdown(entry["text"]) if markdown_text else shortened(entry["text"])
        scroll = "" if markdown_text else " scroll"
        page.write(
            f'<section class="entry {kind}" id="{ident}"{page.nest}><div class="head">'
            f'<span class="kind">{kind}</span>{page.time(entry)}</div>'
            f'<div class="text{scroll}">{body}</div></section>\n'
        )

    def thinking(self, entry: Mapping[str, Any]) -> None:
        page = self._page
        text: str = entry["text"]
        lifecycle = entry.get("lifecycle")
        if not text and isinstance(lifecycle, str):
            # Contract 1.3: an empty reasoning item's boundary, one quiet line.
            page.write(
                f'<div class="entry thinking marker" id="{page.next_id()}"{page.nest}>'
                f'<div class="head"><span class="kind">thinking</span>'
                f'<span class="note">reasoning {escaped(lifecycle)}</span>{page.time(entry)}'
                "</div></div>\n"
            )
            return
        page.write(
            f'<details class="entry thinking" id="{page.next_id()}"{page.nest}><summary>'
            f'<span class="kind">thinking</span>'
            f'<span class="preview">{escaped(one_line(text, PREVIEW))}</span>'
            f'<span class="meta">{lines_label(line_count(text))}</span>{page.time(entry)}'
            f'</summary><div class="body"><div class="text scroll">{shortened(text)}</div></div>'
            "</details>\n"
        )

    def init(self, entry: Mapping[str, Any]) -> None:
        page = self._page
        if not page.nest:
            page.figures.init(entry["model"], entry["sessionId"])
        model = escaped(entry["model"]) if entry["model"] else "not reported"
        page.write(
            f'<div class="entry init" id="{page.next_id()}"{page.nest}><div class="head">'
            '<span class="kind">init</span><span>session started · model '
            f"<strong>{model}</strong> · session "
            f"<code>{escaped(entry['sessionId'])}</code></span>{page.time(entry)}</div></div>\n"
        )

    def _final_text(self, final: str) -> str:
        if not final:
            return ""
        if self._last_assistant and self._last_assistant[0] == _digest(final):
            # Claude repeats its last message as the result text: point at it instead.
            return (
                f'<div class="note"><a href="#{self._last_assistant[1]}">'
                "the last assistant message</a> is the final message</div>"
            )
        return f'<div class="text">{markdown(final)}</div>'

    def result(self, entry: Mapping[str, Any]) -> None:
        page = self._page
        ident = page.next_id()
        failed = result_failed(entry)
        label = result_label(entry)
        if not page.nest:  # a subagent's own result is not the run's
            page.figures.add_result(entry, label, failed)
        if failed:
            page.figures.error(ident)
        mark = '<span class="err-mark">failed</span>' if failed else ""
        errors = "".join(f"<li>{escaped(message)}</li>" for message in entry["errors"][:100])
        listed = f'<ul class="errors">{errors}</ul>' if errors else ""
        page.write(
            f'<section class="entry result{" is-error" if failed else ""}" id="{ident}"'
            f'{page.nest}><div class="head"><span class="kind">run result</span>{mark}'
            f"<strong>{escaped(label)}</strong>"
            f"{_usage_span(result_usage(entry))}{page.time(entry)}"
            f"</div>{self._final_text(entry['text'])}"
            f"{listed}</section>\n"
        )

    def system(self, entry: Mapping[str, Any]) -> None:
        page = self._page
        ident = page.next_id()
        text: str = entry["text"].rstrip("\n")
        checklist = checklist_from_text(text)
        if checklist:
            page.write(
                f'<section class="entry system todo-list" id="{ident}"{page.nest}>'
                f'<div class="head"><span class="kind">system</span>{page.time(entry)}</div>'
                f"{checklist}</section>\n"
            )
        elif len(text) <= _SYSTEM_INLINE and "\n" not in text:
            page.write(
                f'<div class="entry system" id="{ident}"{page.nest}><div class="head">'
                f'<span class="kind">system</span><span class="text">{escaped(text)}</span>'
                f"{page.time(entry)}</div></div>\n"
            )
        else:
            # Hook output and the like: the first line, and the whole text one click away.
            page.write(
                f'<details class="entry system long" id="{ident}"{page.nest}><summary>'
                f'<span class="kind">system</span>'
                f'<span class="preview">{escaped(one_line(text, PREVIEW))}</span>'
                f'<span class="meta">{lines_label(line_count(text))}</span>{page.time(entry)}'
                f'</summary><div class="body"><pre class="out">{shortened(text)}</pre></div>'
                "</details>\n"
            )

    def plain(self, entry: Mapping[str, Any], kind: str) -> None:
        page = self._page
        ident = page.next_id()
        text: str = entry["text"]
        classes = f"entry {kind}"
        if kind == "stderr":
            page.figures.error(ident)
            classes += " is-error"
        page.write(
            f'<section class="{classes}" id="{ident}"{page.nest}><div class="head">'
            f'<span class="kind">{kind}</span>{page.time(entry)}</div>'
            f'<pre class="scroll">{shortened(text.rstrip(chr(10)))}</pre></section>\n'
        )

    def diff(self, entry: Mapping[str, Any]) -> None:
        page = self._page
        if not self._diff_open:
            page.write(
                f'<section class="entry diff" id="{page.next_id()}"{page.nest}>'
                f'<div class="head"><span class="kind">diff</span>{page.time(entry)}</div><pre>'
            )
            self._diff_open = True
        change = entry["changeType"]
        change = change if change in DIFF_CHANGE_TYPES else "context"
        # The newline inside the span keeps copied text line by line; a block's
        # trailing newline draws no extra line.
        page.write(f'<span class="d-{change}">{shortened(entry["text"])}\n</span>')


def _usage_span(figures: str) -> str:
    """A result's own figures, or nothing when it reported none (never "input 0")."""
    return f'<span class="usage">{escaped(figures)}</span>' if figures else ""
