"""Hostile input for parsers: random text and JSON, and the plugin's own samples mangled."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from hypothesis import strategies as st

from linewise_contracts.compliance._sources import GENERIC_SAMPLES

__all__ = ["GENERIC_SAMPLES", "HUGE_NUMBERS", "hostile_lines", "line_batches"]

_ANSI: Final = ("\x1b[31m", "\x1b[0m", "\x1b]0;t\x07", "\x1b[2J", "\x9b1m", "\x07", "\r")
_LONE_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
_NO_NEWLINES = st.characters(blacklist_characters="\n\r")

#: Numbers a CLI may print that no float holds: parsers must not pass them on as entries.
HUGE_NUMBERS: Final = (10**400, -(10**400), 2**1024, 10**309)
#: Number literals in JSON text: beyond float range, and past Python's int-string limit.
_NUMBER_LITERALS: Final = ("1e400", "-1e999", "1" * 400, "-" + "9" * 5000, "1E+309", "0.5e-400")

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from(HUGE_NUMBERS)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(_NO_NEWLINES, max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(_paths(child, (*prefix, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(_paths(child, (*prefix, index)))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any, *, delete: bool = False) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        copy = dict(value)
        if delete and not rest:
            copy.pop(head, None)
        else:
            copy[head] = _replace(value[head], rest, new, delete=delete)
        return copy
    copy_list = list(value)
    if delete and not rest:
        del copy_list[head]
    else:
        copy_list[head] = _replace(value[head], rest, new, delete=delete)
    return copy_list


@st.composite
def _mangled(draw: st.DrawFn, documents: Sequence[Any]) -> str:
    """One of the plugin's JSON samples with a field removed, retyped, deepened or grown."""
    document = draw(st.sampled_from(documents))
    paths = _paths(document)
    path = draw(st.sampled_from(paths))
    action = draw(
        st.sampled_from(
            ["remove", "retype", "deep", "huge", "ansi", "nul", "truncate", "number", "number"]
        )
    )
    literal = ""
    if action == "remove" and path:
        document = _replace(document, path, None, delete=True)
    elif action == "retype":
        document = _replace(document, path, draw(json_values))
    elif action == "deep":
        deep: Any = draw(json_scalars)
        for _ in range(draw(st.integers(50, 900))):
            deep = [deep] if draw(st.booleans()) else {"x": deep}
        document = _replace(document, path, deep)
    elif action == "huge":
        document = _replace(document, path, "x" * draw(st.integers(10_000, 300_000)))
    elif action == "number":
        # Written into the text afterwards: json.dumps cannot write 5,000 digits or 1e400.
        literal = draw(st.sampled_from(_NUMBER_LITERALS))
        document = _replace(document, path, "\x00number\x00")
    elif action in ("ansi", "nul"):
        noise = draw(st.sampled_from(_ANSI)) if action == "ansi" else "\x00"
        document = _replace(document, path, f"{noise}{draw(st.text(max_size=10))}{noise}")
    text = json.dumps(document, ensure_ascii=draw(st.booleans()))
    if literal:
        text = text.replace('"\\u0000number\\u0000"', literal)
    if action == "truncate":
        text = text[: draw(st.integers(0, max(len(text) - 1, 0)))]
    return text


def hostile_lines(samples: Sequence[str]) -> st.SearchStrategy[str]:
    """Single lines: random text (lone surrogates, NUL, escapes), random JSON, mangled samples."""
    documents = []
    for line in samples:
        try:
            documents.append(json.loads(line))
        except ValueError:
            continue
    strategies: list[st.SearchStrategy[str]] = [
        st.text(_NO_NEWLINES, max_size=200),
        st.text(_NO_NEWLINES | _LONE_SURROGATES, max_size=50),
        st.lists(st.sampled_from(_ANSI) | st.text(_NO_NEWLINES, max_size=5), max_size=10).map(
            "".join
        ),
        json_values.map(json.dumps),
        st.sampled_from(_NUMBER_LITERALS).map(lambda n: f'{{"type":"result","usage":{n},"n":{n}}}'),
        st.dictionaries(st.text(max_size=10), json_values, max_size=6).map(json.dumps),
        st.sampled_from(list(samples)) if samples else st.just("x"),
    ]
    if documents:
        strategies.append(_mangled(documents))
        strategies.append(_mangled(documents))  # weigh the plugin's own shapes more
    return st.one_of(strategies)


def line_batches(samples: Sequence[str]) -> st.SearchStrategy[list[str]]:
    """Short runs of lines, so a stateful parser sees hostile lines after real ones."""
    return st.lists(hostile_lines(samples), min_size=1, max_size=6)
