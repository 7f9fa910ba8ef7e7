"""The JSON Schema of a TranscriptEntry, shipped for hosts in other languages."""

from __future__ import annotations

from typing import Any

__all__ = ["SCHEMA_FILE", "load_entry_schema"]

#: File name of the schema inside this package.
SCHEMA_FILE = "transcript-entry.schema.json"


def load_entry_schema() -> dict[str, Any]:
    """The TranscriptEntry JSON Schema (draft 2020-12) as a dict."""
    import json
    from importlib.resources import files

    text = files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
