"""Checks that a value is a TranscriptEntry of the contract, with a reason when it is not."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Final, TypeAlias, TypeGuard

from linewise_contracts.declared import field_shapes, optional_shapes
from linewise_contracts.entries import (
    ASSISTANT_CHANNELS,
    COST_SOURCES,
    DIFF_CHANGE_TYPES,
    KINDS_1_3,
    THINKING_CHANNELS,
    THINKING_LIFECYCLES,
    UNKNOWN_MODEL,
    TokenUsageCounts,
    TranscriptEntry,
    model_name,
)
from linewise_contracts.outcomes import OUTCOMES
from linewise_contracts.shapes import is_safe_workspace_path, joined

__all__ = [
    "MAX_INT",
    "MAX_JSON_DEPTH",
    "MAX_JSON_NODES",
    "InvalidEntryError",
    "entry_problem",
    "is_safe_workspace_path",
    "is_valid_entry",
    "json_problem",
    "number_problem",
    "validate_entry",
]

#: Deepest nesting accepted in a tool call's ``input`` (also stops cycles).
MAX_JSON_DEPTH: Final = 512
#: Most values accepted in one tool call's ``input`` (bounds the cost of a check).
MAX_JSON_NODES: Final = 1_000_000
#: Largest magnitude of an int in an entry: what a float can hold (about 1.8e308).
#: Every number must be usable as a float by a consumer (JavaScript, orjson,
#: ``float()``), so a 400-digit int is as invalid as ``inf``.
MAX_INT: Final = int(sys.float_info.max)
#: ``result.usage``'s keys (contract 1.5): the usage vocabulary's JSON names.
TOKEN_KEYS: Final = tuple(TokenUsageCounts.__annotations__)
_MIN_INT: Final = -MAX_INT


class InvalidEntryError(ValueError):
    """Raised by :func:`validate_entry`; ``reason`` says what is wrong."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# A field check returns None when the value is fine, else what is wrong with it.
_Check = Callable[[object], "str | None"]


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__


def _is_str(value: object) -> str | None:
    # Exact types, not isinstance: entries must be plain JSON values at run time.
    return None if type(value) is str else f"must be a str, got {_type_name(value)}"


def _is_bool(value: object) -> str | None:
    return None if type(value) is bool else f"must be a bool, got {_type_name(value)}"


def number_problem(value: object) -> str | None:
    """Why ``value`` is not a number of the contract (finite, within float range), or None."""
    return _is_number(value)


def _is_number(value: object) -> str | None:
    kind = type(value)
    if kind is int:
        if _MIN_INT <= value <= MAX_INT:  # type: ignore[operator]
            return None
        return "must be within float range (an int of at most 309 digits)"
    if kind is float:
        # inf - inf and nan - nan are nan, which is never equal to 0.
        return None if value - value == 0 else "must be a finite number"  # type: ignore[operator]
    return f"must be a number, got {_type_name(value)}"


def _is_str_list(value: object) -> str | None:
    if type(value) is not list:
        return f"must be a list of str, got {_type_name(value)}"
    for index, item in enumerate(value):
        if type(item) is not str:
            return f"[{index}] must be a str, got {_type_name(item)}"
    return None


def _is_change_type(value: object) -> str | None:
    if type(value) is str and value in DIFF_CHANGE_TYPES:
        return None
    return f"must be one of {', '.join(DIFF_CHANGE_TYPES)}, got {_short_repr(value)}"


def _one_of(values: tuple[str, ...]) -> _Check:
    def check(value: object) -> str | None:
        if type(value) is str and value in values:
            return None
        return f"must be one of {', '.join(values)}, got {_short_repr(value)}"

    return check


def _is_count(value: object) -> str | None:
    """A non-negative int: contract 1.9's ``result.turns``, and each of 1.5's token counts."""
    if type(value) is not int or not 0 <= value <= MAX_INT:
        return f"must be a non-negative int, got {_short_repr(value)}"
    return None


def _is_token_counts(value: object) -> str | None:
    """Contract 1.5's ``result.usage``: the usage vocabulary's counts, each an int >= 0 or null."""
    if type(value) is not dict:
        return f"must be an object of token counts, got {_type_name(value)}"
    for key, count in value.items():
        if key not in TOKEN_KEYS:
            return f"has an unknown count {key!r:.60} (one of {', '.join(TOKEN_KEYS)})"
        if count is not None and _is_count(count) is not None:
            return f"{key} must be a non-negative int or null, got {_short_repr(count)}"
    return None


def _is_model_name(value: object) -> str | None:
    """Contract 1.10's ``result.model``: a model's name, non-empty, never "unknown"."""
    if model_name(value) is not None:
        return None
    if value == UNKNOWN_MODEL:
        return f"must name a model; a CLI that named none gives no model, got {value!r}"
    return f"must be a non-empty model name, got {_short_repr(value)}"


def _is_model_usage(value: object) -> str | None:
    """Contract 1.9's ``result.modelUsage``: a non-empty model name -> the usage vocabulary."""
    if type(value) is not dict:
        return f"must be an object of models' token counts, got {_type_name(value)}"
    for model, counts in value.items():
        if type(model) is not str or not model:
            return f"has a model name that is no non-empty string: {_short_repr(model)}"
        problem = _is_token_counts(counts)
        if problem is not None:
            return f"[{model!r:.60}] {problem}"
    return None


def _is_cost_source(value: object) -> str | None:
    if value is None or (type(value) is str and value in COST_SOURCES):
        return None
    return f"must be one of {', '.join(COST_SOURCES)} or null, got {_short_repr(value)}"


def json_problem(value: object, max_nodes: int = MAX_JSON_NODES) -> str | None:
    """Say why ``value`` is not a plain JSON value, or return None when it is.

    Plain means dicts with str keys, lists, str, int within float range
    (:data:`MAX_INT`), finite float, bool and None, nested at most
    :data:`MAX_JSON_DEPTH` deep with at most ``max_nodes`` values (by default
    :data:`MAX_JSON_NODES`; the bound also stops self-referencing containers).
    """
    stack: list[tuple[object, int]] = [(value, 0)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not _MIN_INT <= item <= MAX_INT:  # type: ignore[operator]
                return "contains an int beyond float range"
            continue
        if kind is float:
            if item - item != 0:  # type: ignore[operator]
                return "contains a non-finite number"
            continue
        if kind is dict:
            if depth >= MAX_JSON_DEPTH:
                return f"is nested deeper than {MAX_JSON_DEPTH} levels"
            for key, child in item.items():  # type: ignore[attr-defined]
                if type(key) is not str:
                    return f"has a non-str key {_short_repr(key)}"
                stack.append((child, depth + 1))
        elif kind is list:
            if depth >= MAX_JSON_DEPTH:
                return f"is nested deeper than {MAX_JSON_DEPTH} levels"
            stack.extend((child, depth + 1) for child in item)  # type: ignore[attr-defined]
        else:
            return f"contains a {kind.__name__}, which is not a JSON value"
        if nodes + len(stack) > max_nodes:
            return f"has more than {max_nodes} values"
    return None


_TEXT = (("ts", _is_str), ("text", _is_str))

_Spec: TypeAlias = tuple[tuple[tuple[str, _Check], ...], tuple[tuple[str, _Check], ...]]

# kind -> (required fields, optional fields of the kind); "kind" itself is checked first.
_KIND_SPECS: Final[dict[str, _Spec]] = {
    "assistant": (
        _TEXT,
        (("delta", _is_bool), ("channel", _one_of(ASSISTANT_CHANNELS)), ("itemId", _is_str)),
    ),
    "thinking": (
        _TEXT,
        (
            ("delta", _is_bool),
            ("lifecycle", _one_of(THINKING_LIFECYCLES)),
            ("channel", _one_of(THINKING_CHANNELS)),
            ("itemId", _is_str),
        ),
    ),
    "user": (_TEXT, ()),
    "tool_call": (
        (("ts", _is_str), ("name", _is_str), ("input", json_problem)),
        (
            ("toolUseId", _is_str),
            ("invocationId", _is_str),
            ("actionRequestId", _is_str),
            ("startsSubagent", _is_bool),  # contract 1.5
        ),
    ),
    "tool_result": (
        (("ts", _is_str), ("toolUseId", _is_str), ("content", _is_str), ("isError", _is_bool)),
        (("toolName", _is_str), ("delta", _is_bool)),
    ),
    "init": ((("ts", _is_str), ("model", _is_str), ("sessionId", _is_str)), (("cwd", _is_str),)),
    "result": (
        (
            ("ts", _is_str),
            ("text", _is_str),
            ("inputTokens", _is_number),
            ("outputTokens", _is_number),
            ("cachedTokens", _is_number),
            ("costUsd", _is_number),
            ("subtype", _is_str),
            ("isError", _is_bool),
            ("errors", _is_str_list),
        ),
        # Contract 1.5: what a run summary needs, carried by the entry.
        (
            ("usage", _is_token_counts),
            ("costSource", _is_cost_source),
            ("outcome", _one_of(OUTCOMES)),
            ("sessionId", _is_str),
            # Contract 1.9: the turns the result counts, its usage per model.
            ("turns", _is_count),
            ("modelUsage", _is_model_usage),
            # Contract 1.10: the model that answered the result's run.
            ("model", _is_model_name),
        ),
    ),
    "stderr": (_TEXT, ()),
    "system": (_TEXT, ()),
    "stdout": (_TEXT, ()),
    "diff": ((("ts", _is_str), ("changeType", _is_change_type), ("text", _is_str)), ()),
    # Contract 1.3: Paperclip's 2026 kinds, declared in linewise_contracts.declared.
    **{
        kind: (
            tuple((name, shape.problem) for name, shape in field_shapes(kind)),
            tuple((name, shape.problem) for name, shape in optional_shapes(kind)),
        )
        for kind in KINDS_1_3
    },
}

# Contract 1.1: every kind may name the tool call whose subagent produced it.
_SPECS: Final[dict[str, _Spec]] = {
    kind: (required, (*optional, ("parentToolUseId", _is_str)))
    for kind, (required, optional) in _KIND_SPECS.items()
}

_ALLOWED: Final[dict[str, frozenset[str]]] = {
    kind: frozenset(["kind", *(name for name, _ in required), *(name for name, _ in optional)])
    for kind, (required, optional) in _SPECS.items()
}

_MISSING: Final = object()


def _short_repr(value: object, limit: int = 60) -> str:
    try:
        text = repr(value)
    except Exception:  # a 5,000-digit int, or an object whose __repr__ raises
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


# Fast acceptance of the common, valid shapes: a few exact type tests per entry.
# Anything they do not accept goes through the table above, which either
# accepts it too or says precisely what is wrong.


def _scalar(value: object) -> bool:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return _MIN_INT <= value <= MAX_INT  # type: ignore[operator]
    return kind is float and value - value == 0  # type: ignore[operator]


def _flat_json(value: object) -> bool:
    """True for a scalar, or a dict or list of scalars (most tool inputs)."""
    # A plain loop with the scalar test inline: this runs for every tool call.
    if type(value) is dict:
        for key, item in value.items():
            kind = type(item)
            if type(key) is not str or not (
                kind is str
                or (kind is int and _MIN_INT <= item <= MAX_INT)
                or kind is bool
                or item is None
                or _scalar(item)
            ):
                return False
        return True
    if type(value) is list:
        return all(_scalar(item) for item in value)
    return _scalar(value)


def _plain_text_ok(entry: dict[str, object]) -> bool:
    return len(entry) == 3 and type(entry.get("ts")) is str and type(entry.get("text")) is str


def _delta_text_ok(entry: dict[str, object], kind: str) -> bool:
    size = len(entry)
    if type(entry.get("ts")) is not str or type(entry.get("text")) is not str:
        return False
    if size == 3 or (size == 4 and type(entry.get("delta")) is bool):
        return True
    return _item_text_ok(entry, kind, size)


def _item_text_ok(entry: dict[str, object], kind: str, size: int) -> bool:
    """Contract 1.3's assistant and thinking shapes: ``channel``, ``itemId`` (and a
    thinking's ``lifecycle``) beside ``text`` and ``delta`` (the runner's streams)."""
    present = 3
    delta = entry.get("delta")
    if delta is not None:
        if type(delta) is not bool:
            return False
        present += 1
    item = entry.get("itemId")
    if item is not None:
        if type(item) is not str:
            return False
        present += 1
    channel = entry.get("channel")
    if channel is not None:
        channels = ASSISTANT_CHANNELS if kind == "assistant" else THINKING_CHANNELS
        if type(channel) is not str or channel not in channels:
            return False
        present += 1
    if kind == "thinking":
        lifecycle = entry.get("lifecycle")
        if lifecycle is not None:
            if type(lifecycle) is not str or lifecycle not in THINKING_LIFECYCLES:
                return False
            present += 1
    return present == size


def _tool_call_ok(entry: dict[str, object]) -> bool:
    if type(entry.get("ts")) is not str or type(entry.get("name")) is not str:
        return False
    size = len(entry)
    if size == 5 and type(entry.get("toolUseId")) is str:
        pass  # the usual shape: kind, ts, name, input, toolUseId
    elif size != 4:
        present = 4
        for key in ("toolUseId", "invocationId", "actionRequestId"):
            value = entry.get(key)
            if value is not None:
                if type(value) is not str:
                    return False
                present += 1
        if size != present:
            return False
    return "input" in entry and _flat_json(entry["input"])


def _tool_result_ok(entry: dict[str, object]) -> bool:
    size = len(entry)
    return (
        type(entry.get("ts")) is str
        and type(entry.get("toolUseId")) is str
        and type(entry.get("content")) is str
        and type(entry.get("isError")) is bool
        and (
            size == 5
            or (size == 6 and type(entry.get("toolName")) is str)
            or _streamed_result_ok(entry, size)
        )
    )


def _streamed_result_ok(entry: dict[str, object], size: int) -> bool:
    """A tool result with contract 1.3's ``delta`` (and perhaps ``toolName``)."""
    if type(entry.get("delta")) is not bool:
        return False
    return size == 6 or (size == 7 and type(entry.get("toolName")) is str)


def _init_ok(entry: dict[str, object]) -> bool:
    return (
        len(entry) == 4
        and type(entry.get("ts")) is str
        and type(entry.get("model")) is str
        and type(entry.get("sessionId")) is str
    )


def entry_problem(entry: object) -> str | None:
    """Return why ``entry`` is not a valid TranscriptEntry, or None when it is.

    This is the check the host runs on every entry a parser returns, so the
    common valid shapes are accepted by a few exact type tests; everything
    else gets the full field-by-field check with its reason.
    """
    if type(entry) is dict and _fast_ok(entry):
        return None
    return _problem(entry)


def _fast_ok(entry: dict[str, object]) -> bool:
    """The fast check of ``entry``'s kind: direct calls (compiled, a table of functions
    would make each a dynamic call, as costly as the check itself)."""
    kind = entry.get("kind")
    if type(kind) is not str:
        return False
    if kind in ("assistant", "thinking"):
        return _delta_text_ok(entry, kind)
    if kind == "tool_call":
        return _tool_call_ok(entry)
    if kind == "tool_result":
        return _tool_result_ok(entry)
    if kind in ("user", "system", "stdout", "stderr"):
        return _plain_text_ok(entry)
    if kind == "init":
        return _init_ok(entry)
    return False


def _problem(entry: object) -> str | None:
    if type(entry) is not dict:
        return f"entry must be a dict, got {_type_name(entry)}"
    kind = entry.get("kind", _MISSING)
    spec = _SPECS.get(kind) if type(kind) is str else None
    if spec is None:
        if kind is _MISSING:
            return "entry has no 'kind'"
        return f"unknown kind {_short_repr(kind)}"
    required, optional = spec
    for name, check in required:
        value = entry.get(name, _MISSING)
        if value is _MISSING:
            return f"{kind}.{name} is missing"
        problem = check(value)
        if problem is not None:
            return joined(f"{kind}.{name}", problem)
    present = len(required) + 1
    if len(entry) != present:
        for name, check in optional:
            value = entry.get(name, _MISSING)
            if value is _MISSING:
                continue
            present += 1
            problem = check(value)
            if problem is not None:
                return joined(f"{kind}.{name}", problem)
        if len(entry) != present:
            allowed = _ALLOWED[kind]
            extra = sorted(_short_repr(key) for key in entry if key not in allowed)
            return f"{kind} has unexpected field(s) {', '.join(extra)}"
    return None


def is_valid_entry(entry: object) -> TypeGuard[TranscriptEntry]:
    """True when ``entry`` is a valid TranscriptEntry."""
    return entry_problem(entry) is None


def validate_entry(entry: object) -> TranscriptEntry:
    """Return ``entry`` typed as a TranscriptEntry, or raise :class:`InvalidEntryError`."""
    problem = entry_problem(entry)
    if problem is not None:
        raise InvalidEntryError(problem)
    return entry  # type: ignore[return-value]
