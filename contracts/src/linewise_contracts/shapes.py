"""Declared shapes of the 1.3 entry fields: one declaration gives both the check and the schema.

Each shape says why a value does not fit (``problem``), or None, and gives
the JSON Schema fragment that accepts exactly the same values (``schema``).
The shipped ``transcript-entry.schema.json`` holds the fragments these
declarations produce, and a test keeps the two identical, so ``entry_problem``
and the schema cannot drift apart on the kinds contract 1.3 added.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = [
    "JsonObject",
    "ListOf",
    "Nullable",
    "Number",
    "Obj",
    "OneOf",
    "SafePath",
    "Shape",
    "Str",
    "TrueOnly",
    "is_safe_workspace_path",
]

_LINE_TERMINATORS: Final = ("\n", "\r", "\u2028", "\u2029")


def is_safe_workspace_path(path: object) -> bool:
    """True for a non-empty relative path with no ``..`` segment and no line terminator.

    The rule of Paperclip's runner for every path it shows (spec §2.4): not
    absolute (no leading ``/``), no segment that is exactly ``..``, nothing
    that would end a line. Backslashes are not separators; ``./a`` is safe.
    """
    if type(path) is not str or not path or path[0] == "/":
        return False
    if any(mark in path for mark in _LINE_TERMINATORS):
        return False
    return ".." not in path.split("/")


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__


def _short(value: object, limit: int = 40) -> str:
    try:
        text = repr(value)
    except Exception:  # an object whose __repr__ raises, a huge int
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def joined(prefix: str, problem: str) -> str:
    """``prefix`` and a nested problem: ``files`` + ``[3].path …`` reads ``files[3].path …``."""
    return prefix + problem if problem[:1] in ("[", ".") else f"{prefix} {problem}"


class Shape:
    """A field's declared shape."""

    def problem(self, value: object) -> str | None:
        """Why ``value`` does not fit, or None."""
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:
        """The JSON Schema fragment accepting exactly the values that fit."""
        raise NotImplementedError


class Str(Shape):
    """A str, optionally at most ``max_length`` characters."""

    def __init__(self, max_length: int | None = None) -> None:
        self.max_length = max_length

    def problem(self, value: object) -> str | None:
        if type(value) is not str:
            return f"must be a str, got {_type_name(value)}"
        if self.max_length is not None and len(value) > self.max_length:
            return f"is longer than {self.max_length:,} characters"
        return None

    def schema(self) -> dict[str, Any]:
        if self.max_length is None:
            return {"type": "string"}
        return {"type": "string", "maxLength": self.max_length}


class OneOf(Shape):
    """One of a few str values."""

    def __init__(self, values: tuple[str, ...]) -> None:
        self.values = values

    def problem(self, value: object) -> str | None:
        if type(value) is str and value in self.values:
            return None
        return f"must be one of {', '.join(self.values)}, got {_short(value)}"

    def schema(self) -> dict[str, Any]:
        return {"enum": list(self.values)}


class Bool(Shape):
    def problem(self, value: object) -> str | None:
        return None if type(value) is bool else f"must be a bool, got {_type_name(value)}"

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


class TrueOnly(Shape):
    def problem(self, value: object) -> str | None:
        return None if value is True else f"must be true, got {_short(value)}"

    def schema(self) -> dict[str, Any]:
        return {"const": True}


class Const(Shape):
    def __init__(self, value: str) -> None:
        self.value = value

    def problem(self, value: object) -> str | None:
        if type(value) is str and value == self.value:
            return None
        return f"must be {self.value!r}, got {_short(value)}"

    def schema(self) -> dict[str, Any]:
        return {"const": self.value}


class Number(Shape):
    """A finite number within float range, optionally at least ``minimum``."""

    def __init__(self, minimum: int | None = None) -> None:
        self.minimum = minimum

    def problem(self, value: object) -> str | None:
        from linewise_contracts.validation import number_problem

        problem = number_problem(value)
        if problem is None and self.minimum is not None and value < self.minimum:  # type: ignore[operator]
            return f"must be at least {self.minimum}"
        return problem

    def schema(self) -> dict[str, Any]:
        if self.minimum is None:
            return {"type": "number"}
        return {"type": "number", "minimum": self.minimum}


class Nullable(Shape):
    """``shape`` or None."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape

    def problem(self, value: object) -> str | None:
        if value is None:
            return None
        problem = self.shape.problem(value)
        return None if problem is None else f"{problem} (or None)"

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [self.shape.schema(), {"type": "null"}]}


class SafePath(Shape):
    """A workspace path that passes :func:`is_safe_workspace_path`."""

    def problem(self, value: object) -> str | None:
        if type(value) is not str:
            return f"must be a str, got {_type_name(value)}"
        if is_safe_workspace_path(value):
            return None
        return f"is not a safe relative workspace path: {_short(value)}"

    def schema(self) -> dict[str, Any]:
        return {
            "type": "string",
            "minLength": 1,
            "description": "A relative path: no leading /, no .. segment, no line terminator.",
            "not": {
                "anyOf": [
                    {"pattern": "^/"},
                    {"pattern": "(^|/)\\.\\.(/|$)"},
                    {"pattern": "[\n\r\u2028\u2029]"},
                ]
            },
        }


class ListOf(Shape):
    """A list of at most ``max_items`` values of ``item``."""

    def __init__(self, item: Shape, max_items: int) -> None:
        self.item = item
        self.max_items = max_items

    def problem(self, value: object) -> str | None:
        if type(value) is not list:
            return f"must be a list, got {_type_name(value)}"
        if len(value) > self.max_items:
            return f"has more than {self.max_items:,} items"
        for index, item in enumerate(value):
            problem = self.item.problem(item)
            if problem is not None:
                return joined(f"[{index}]", problem)
        return None

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.item.schema(), "maxItems": self.max_items}


class DictOf(Shape):
    """A dict of at most ``max_items`` str keys of at most ``max_key`` characters."""

    def __init__(self, item: Shape, max_items: int, max_key: int) -> None:
        self.item = item
        self.max_items = max_items
        self.max_key = max_key

    def problem(self, value: object) -> str | None:
        if type(value) is not dict:
            return f"must be a dict, got {_type_name(value)}"
        if len(value) > self.max_items:
            return f"has more than {self.max_items:,} keys"
        for key, item in value.items():
            if type(key) is not str or len(key) > self.max_key:
                return f"has a key that is not a str of at most {self.max_key} characters"
            problem = self.item.problem(item)
            if problem is not None:
                return joined(f"[{_short(key)}]", problem)
        return None

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "additionalProperties": self.item.schema(),
            "propertyNames": {"maxLength": self.max_key},
            "maxProperties": self.max_items,
        }


class Obj(Shape):
    """A dict with these required and optional fields and no others."""

    def __init__(
        self,
        required: dict[str, Shape],
        optional: dict[str, Shape] | None = None,
    ) -> None:
        self.required = required
        self.optional = optional or {}

    def problem(self, value: object) -> str | None:
        if type(value) is not dict:
            return f"must be a dict, got {_type_name(value)}"
        for name, shape in self.required.items():
            if name not in value:
                return f".{name} is missing"
            problem = shape.problem(value[name])
            if problem is not None:
                return joined(f".{name}", problem)
        for name, item in value.items():
            if name in self.required:
                continue
            optional = self.optional.get(name) if type(name) is str else None
            if optional is None:
                return f"has unexpected field {_short(name)}"
            problem = optional.problem(item)
            if problem is not None:
                return joined(f".{name}", problem)
        return None

    def schema(self) -> dict[str, Any]:
        properties = {name: shape.schema() for name, shape in self.required.items()}
        properties.update((name, shape.schema()) for name, shape in self.optional.items())
        return {
            "type": "object",
            "properties": properties,
            "required": list(self.required),
            "additionalProperties": False,
        }


class JsonObject(Shape):
    """A dict of plain JSON values with at most ``max_values`` values in all."""

    def __init__(self, max_values: int) -> None:
        self.max_values = max_values

    def problem(self, value: object) -> str | None:
        from linewise_contracts.validation import json_problem

        if type(value) is not dict:
            return f"must be a dict, got {_type_name(value)}"
        return json_problem(value, max_nodes=self.max_values)

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "description": f"Any JSON object of at most {self.max_values:,} values.",
        }
