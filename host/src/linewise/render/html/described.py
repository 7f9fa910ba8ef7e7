"""Contract 1.3's kinds on the page: a plan as a checklist, a change as files with their diffs,
a request with its choices and resolution, a run result with its checks and remaining work."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from linewise.render import described
from linewise.render.html.markup import escaped, shortened
from linewise.render.html.paging import PageState

__all__ = ["DescribedBlocks"]

_STEP_MARKS: Final = {"completed": "☑", "in_progress": "◐", "running": "◐"}
#: A run's terminal state -> the header's state class.
_HEADER_STATES: Final = {"succeeded": "finished", "failed": "failed", "cancelled": "unfinished"}
#: Files of a change and steps of a plan drawn; the rest are counted.
_ITEMS: Final = 500


def _more(total: int, shown: int, what: str) -> str:
    hidden = total - shown
    return f'<li class="note">{hidden:,} more {what}</li>' if hidden > 0 else ""


def _diff(text: str) -> str:
    """A unified diff coloured line by line (classified by its first character)."""
    lines = []
    for line in shortened(text.rstrip("\n")).split("\n"):
        change = "context"
        if line.startswith("+"):
            change = "add"
        elif line.startswith("-"):
            change = "remove"
        elif line.startswith("@@"):
            change = "hunk"
        lines.append(f'<span class="d-{change}">{line}\n</span>')
    return f'<div class="diff"><pre>{"".join(lines)}</pre></div>'


def _plan(entry: Mapping[str, Any]) -> str:
    payload: Mapping[str, Any] = entry["payload"]
    steps = described.plan_steps(payload)
    parts = []
    explanation = payload.get("explanation")
    if isinstance(explanation, str) and explanation:
        parts.append(f'<div class="text">{shortened(explanation)}</div>')
    if steps:
        items = "".join(
            f'<li class="todo {escaped(status)}"><span class="check">'
            f"{_STEP_MARKS.get(status, '☐')}</span>{escaped(text)}</li>"
            for status, text in steps[:_ITEMS]
        )
        parts.append(f'<ul class="checklist">{items}{_more(len(steps), _ITEMS, "steps")}</ul>')
    return "".join(parts)


def _facts(payload: Mapping[str, Any]) -> str:
    facts = described.payload_facts(payload)
    if not facts:
        return ""
    rows = "".join(
        f"<dt>{escaped(key)}</dt><dd>{escaped(value)}</dd>"
        for key, value in facts[: described.LISTED]
    )
    return f'<dl class="args">{rows}</dl>'


def _files(entry: Mapping[str, Any]) -> str:
    files: Sequence[Mapping[str, Any]] = entry["files"]
    items = []
    for file in files[:_ITEMS]:
        line = escaped(described.file_line(file))
        diff = file.get("diff")
        if isinstance(diff, str) and diff:
            items.append(
                f'<li><details class="file" open><summary>{line}</summary>{_diff(diff)}'
                "</details></li>"
            )
        else:
            items.append(f"<li>{line}</li>")
    more = _more(len(files), _ITEMS, "files")
    ref = entry.get("patchArtifactRef")
    patch = f'<div class="note">full patch: {escaped(ref)}</div>' if ref else ""
    return f'<ul class="files">{"".join(items)}{more}</ul>{patch}'


def _reference(entry: Mapping[str, Any]) -> str:
    preview = entry.get("preview")
    if not isinstance(preview, str) or not preview:
        return ""
    cut = '<div class="note">preview cut by the producer</div>' if entry["previewTruncated"] else ""
    return f'<pre class="scroll">{shortened(preview)}</pre>{cut}'


def _choices(entry: Mapping[str, Any]) -> str:
    choices: Sequence[Mapping[str, Any]] = entry["choices"]
    if not choices:
        return ""
    action = entry.get("resolvedAction")
    buttons = "".join(
        f'<li class="choice{" chosen" if choice["key"] == action else ""}">'
        f"{escaped(choice['label'])}</li>"
        for choice in choices
    )
    return f'<ul class="choices">{buttons}</ul>'


def _questions(entry: Mapping[str, Any]) -> str:
    parts = []
    for field in entry["fields"]:
        hint = (
            f' <span class="note">{escaped(field["placeholder"])}</span>'
            if field.get("placeholder")
            else ""
        )
        parts.append(f"<li>{escaped(field['label'])}{hint}</li>")
    questions = entry.get("questionSet")
    if isinstance(questions, Mapping):
        for question in questions["questions"][: described.LISTED]:
            required = ' <span class="note">required</span>' if question["required"] else ""
            options = "".join(
                f"<li>{escaped(option['label'])}</li>"
                for option in question.get("options", ())[: described.LISTED]
            )
            listed = f"<ul>{options}</ul>" if options else ""
            parts.append(f"<li>{escaped(question['prompt'])}{required}{listed}</li>")
        title = questions.get("title")
        head = f'<div class="label">{escaped(title)}</div>' if title else ""
    else:
        head = ""
    answers = "".join(
        f"<dt>{escaped(prompt)}</dt><dd>{escaped(answer)}</dd>"
        for prompt, answer in described.request_answers(entry)
    )
    listed = f'<ol class="questions">{"".join(parts)}</ol>' if parts else ""
    answered = f'<dl class="args answers">{answers}</dl>' if answers else ""
    return head + listed + answered


def _result(entry: Mapping[str, Any]) -> str:
    parts = [f'<div class="text">{shortened(entry["summary"])}</div>']
    checks = "".join(
        f'<li class="check-{escaped(check["status"])}">'
        f"<span>{described.verification_mark(check['status'])}</span> "
        f"<code>{escaped(check['commandOrCheck'])}</code>"
        + (f" {escaped(check['detail'])}" if check.get("detail") else "")
        + (
            ""
            if check["status"] == "passed"
            else f' <span class="note">{escaped(check["status"])}</span>'
        )
        + "</li>"
        for check in entry["verification"]
    )
    if checks:
        parts.append(f'<div class="label">verification</div><ul class="checks">{checks}</ul>')
    work = "".join(
        f"<li>{escaped(item['description'])}"
        + (' <span class="err-mark">blocks</span>' if item["blocksCompletion"] else "")
        + "</li>"
        for item in entry["remainingWork"]
    )
    if work:
        parts.append(f'<div class="label">remaining work</div><ul>{work}</ul>')
    blocker = entry.get("blocker")
    if isinstance(blocker, Mapping):
        parts.append(
            f'<div class="blocker">blocked: <code>{escaped(blocker["reasonCode"])}</code> · '
            f"{escaped(blocker['unblockAction'])}</div>"
        )
    artifacts = "".join(
        f"<li>{escaped(artifact['kind'])}: <code>{escaped(artifact['ref'])}</code>"
        + (f" {escaped(artifact['title'])}" if artifact.get("title") else "")
        + "</li>"
        for artifact in entry["artifacts"]
    )
    if artifacts:
        parts.append(f'<div class="label">artifacts</div><ul>{artifacts}</ul>')
    return "".join(parts)


class DescribedBlocks:
    """Writes one element per contract 1.3 entry; ``run_terminal`` also goes to the header."""

    def __init__(self, page: PageState) -> None:
        self._page = page

    def write(self, entry: Mapping[str, Any]) -> None:
        page = self._page
        kind: str = entry["kind"]
        ident = page.next_id()
        failed = described.is_failure(entry)
        if failed:
            page.figures.error(ident)
        if kind == "run_terminal" and not page.nest:
            page.figures.terminal = described.terminal_words(entry)
            page.figures.terminal_state = _HEADER_STATES[entry["runState"]]
        label = entry["title"] if kind == "provider_activity" else described.kind_label(kind)
        heading = described.heading(entry)
        if kind == "provider_activity":
            heading = heading.removeprefix(entry["title"] + " · ")
        classes = f"entry {kind.replace('_', '-')}" + (" is-error" if failed else "")
        status = entry.get("status")
        if isinstance(status, str):
            classes += f" status-{escaped(status)}"
        mark = '<span class="err-mark">failed</span>' if failed else ""
        page.write(
            f'<section class="{classes}" id="{ident}"{page.nest}><div class="head">'
            f'<span class="kind">{escaped(label)}</span>{mark}'
            f'<span class="text">{escaped(heading)}</span>{page.time(entry)}</div>'
            f"{self._body(entry)}</section>\n"
        )

    @staticmethod
    def _body(entry: Mapping[str, Any]) -> str:
        kind = entry["kind"]
        if kind == "provider_activity":
            if entry["family"] == "plan":
                plan = _plan(entry)
                if plan:
                    return plan
            return _facts(entry["payload"])
        if kind == "workspace_change":
            return _files(entry)
        if kind == "workspace_file_reference":
            return _reference(entry)
        if kind == "runtime_request":
            rest = entry["prompt"].partition("\n")[2]  # the first line is in the head
            prompt = f'<pre class="scroll">{shortened(rest)}</pre>' if rest else ""
            return prompt + _choices(entry) + _questions(entry)
        if kind == "run_result":
            return _result(entry)
        return ""
