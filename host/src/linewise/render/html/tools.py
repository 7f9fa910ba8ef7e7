"""Tool inputs drawn for reading: a checklist for to-do lists, a coloured diff for edits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from linewise.render.bounds import HTML_TEXT_LIMIT, json_display
from linewise.render.html.markup import escaped, shortened

__all__ = ["checklist_from_text", "tool_input", "tool_summary"]

_TODO_TOOLS: Final = frozenset({"TodoWrite", "todo_write", "update_plan", "todowrite"})
_EDIT_TOOLS: Final = frozenset({"Edit", "MultiEdit", "edit", "str_replace_based_edit_tool"})
_PATCH_TOOLS: Final = frozenset({"apply_patch", "applyPatch"})
#: Edits or to-do items drawn; the rest are counted.
_ITEMS: Final = 500
_STATUS_MARKS: Final = {"completed": "☑", "in_progress": "◐", "pending": "☐"}
_HINT: Final = "linewise render -f jsonl shows all of it"


def tool_input(name: str, value: object) -> str:
    """The body of a tool call's card for its input."""
    arguments: Mapping[str, Any] = value if isinstance(value, Mapping) else {}
    special = ""
    if name in _TODO_TOOLS:
        special = _todo_list(arguments.get("todos") or arguments.get("plan"))
    elif name in _EDIT_TOOLS:
        special = _edits(arguments)
    elif name in _PATCH_TOOLS:
        special = _patch(value if isinstance(value, str) else _patch_text(arguments))
    if special:
        return special + _details("all input", _arguments(value))
    return _arguments(value)


def tool_summary(name: str, value: object) -> str | None:
    """A one-line summary for the tools drawn specially (``2 of 5 done``); None for others."""
    if name in _TODO_TOOLS and isinstance(value, Mapping):
        todos = value.get("todos") or value.get("plan")
        if isinstance(todos, Sequence) and not isinstance(todos, str):
            done = sum(
                1 for t in todos if isinstance(t, Mapping) and t.get("status") == "completed"
            )
            return f"to-do list · {done} of {len(todos)} done"
    return None


def _details(label: str, body: str) -> str:
    return f'<details class="raw-input"><summary class="label">{label}</summary>{body}</details>'


def _arguments(value: object) -> str:
    if isinstance(value, Mapping) and value:
        rows = "".join(
            f"<dt>{escaped(key)}</dt><dd>{_argument(item)}</dd>" for key, item in value.items()
        )
        return f'<dl class="args">{rows}</dl>'
    if value in (None, {}, [], ""):
        return '<span class="note">no input</span>'
    shown = value if isinstance(value, str) else json_display(value, HTML_TEXT_LIMIT, hint=_HINT)
    return f'<div class="args"><pre class="scroll">{shortened(shown)}</pre></div>'


def _argument(value: object) -> str:
    """One tool input value: strings as they are (readable multi-line), the rest as JSON."""
    if isinstance(value, str):
        scroll = ' class="scroll"' if len(value) > 400 else ""
        return f"<pre{scroll}>{shortened(value)}</pre>"
    # Guarded: deep nesting is never pretty-printed into megabytes.
    text = json_display(value, HTML_TEXT_LIMIT, hint=_HINT)
    return f'<pre class="scroll">{escaped(text)}</pre>'


def _todo_list(todos: object) -> str:
    if not isinstance(todos, Sequence) or isinstance(todos, str) or not todos:
        return ""
    items = []
    for todo in todos[:_ITEMS]:
        if not isinstance(todo, Mapping):
            return ""  # not the shape of a to-do list: the plain input is clearer
        text = todo.get("content") or todo.get("step") or todo.get("text")
        status = todo.get("status")
        status = status if isinstance(status, str) else "pending"
        mark = _STATUS_MARKS.get(status, "☐")
        items.append(
            f'<li class="todo {escaped(status)}"><span class="check">{mark}</span>'
            f"{escaped(text if isinstance(text, str) else '')}</li>"
        )
    rest = len(todos) - _ITEMS
    more = f'<li class="note">{rest:,} more</li>' if rest > 0 else ""
    done = sum(1 for t in todos if isinstance(t, Mapping) and t.get("status") == "completed")
    return (
        f'<div class="label">to-do list · {done} of {len(todos)} done</div>'
        f'<ul class="checklist">{"".join(items)}{more}</ul>'
    )


def checklist_from_text(text: str) -> str:
    """A text whose lines after the first are ``[x] ...`` / ``[ ] ...`` as a checklist; else ""."""
    head, _, rest = text.partition("\n")
    lines = rest.split("\n") if rest else []
    if not lines or len(lines) > _ITEMS or not all(line[:4] in ("[x] ", "[ ] ") for line in lines):
        return ""
    items = "".join(
        f'<li class="todo {"completed" if line[1] == "x" else "pending"}">'
        f'<span class="check">{"☑" if line[1] == "x" else "☐"}</span>{escaped(line[4:])}</li>'
        for line in lines
    )
    return f'<div class="label">{escaped(head)}</div><ul class="checklist">{items}</ul>'


def _diff_lines(old: str, new: str) -> list[tuple[str, str]]:
    lines = [("remove", "-" + line) for line in old.split("\n")] if old else []
    lines += [("add", "+" + line) for line in new.split("\n")] if new else []
    return lines


def _diff_block(path: str, lines: list[tuple[str, str]]) -> str:
    body = "".join(f'<span class="d-{kind}">{escaped(text)}\n</span>' for kind, text in lines)
    head = f'<span class="d-file_header">{escaped(path)}\n</span>' if path else ""
    return f'<div class="diff"><pre>{head}{body}</pre></div>'


def _edits(arguments: Mapping[str, Any]) -> str:
    path = arguments.get("file_path") or arguments.get("path") or ""
    edits = arguments.get("edits")
    pairs: list[tuple[object, object]] = []
    if isinstance(edits, Sequence) and not isinstance(edits, str):
        pairs = [
            (edit.get("old_string"), edit.get("new_string"))
            for edit in edits[:_ITEMS]
            if isinstance(edit, Mapping)
        ]
    else:
        pairs = [
            (
                arguments.get("old_string", arguments.get("old_str")),
                arguments.get("new_string", arguments.get("new_str")),
            )
        ]
    lines: list[tuple[str, str]] = []
    budget = HTML_TEXT_LIMIT
    for old, new in pairs:
        if not isinstance(old, str) or not isinstance(new, str):
            continue
        if lines:
            lines.append(("hunk", "@@"))
        lines += _diff_lines(old[:budget], new[:budget])
        budget -= len(old) + len(new)
        if budget <= 0:
            lines.append(("truncation", f"… the rest of the edit is not shown ({_HINT})"))
            break
    if not lines:
        return ""
    return _diff_block(path if isinstance(path, str) else "", lines)


def _patch_text(arguments: Mapping[str, Any]) -> str:
    for key in ("patch", "input", "diff"):
        value = arguments.get(key)
        if isinstance(value, str):
            return value
    command = arguments.get("command")
    if isinstance(command, Sequence) and not isinstance(command, str):
        for part in command:
            if isinstance(part, str) and "*** Begin Patch" in part:
                return part
    return ""


def _patch(text: str) -> str:
    if not text.strip():
        return ""
    lines: list[tuple[str, str]] = []
    for line in text[:HTML_TEXT_LIMIT].split("\n"):
        if line.startswith(("*** ", "+++ ", "--- ")):
            kind = "file_header"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "remove"
        else:
            kind = "context"
        lines.append((kind, line))
    if len(text) > HTML_TEXT_LIMIT:
        lines.append(("truncation", f"… the rest of the patch is not shown ({_HINT})"))
    return _diff_block("", lines)
