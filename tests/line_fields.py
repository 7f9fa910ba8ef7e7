"""Which values of a JSON line appear in no entry made from it: the "nothing lost" check."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, f"{path}[]")
    else:
        yield path, value


def fields_in_no_entry(line: str, entries: list[dict[str, Any]]) -> set[str]:
    """The paths (``stats.duration_ms``, ``part.tokens.total``) of values found in no entry.

    A string counts as present when its stripped text is in some entry (raw or
    JSON-escaped); a number when its JSON text is. Booleans, nulls and blank
    strings carry nothing to lose. Paths of list items end in ``[]``.
    """
    blob = json.dumps(entries, ensure_ascii=False)
    missing: set[str] = set()
    for path, value in _leaves(json.loads(line)):
        if value is None or isinstance(value, bool):
            continue
        text = value.strip() if isinstance(value, str) else json.dumps(value)
        if not text:
            continue
        escaped = json.dumps(text, ensure_ascii=False)[1:-1]
        if text not in blob and escaped not in blob:
            missing.add(path)
    return missing
