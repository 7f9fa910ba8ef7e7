"""Diagnostics and LineError: plain classes now, with what callers relied on kept."""

from __future__ import annotations

import pytest
from linewise import Diagnostics, LineError


def test_a_line_error_is_read_only_and_compared_by_its_fields() -> None:
    error = LineError(3, "KeyError", "'type'", '{"x": 1}')
    assert (error.line_number, error.error_type, error.message, error.line_preview) == (
        3,
        "KeyError",
        "'type'",
        '{"x": 1}',
    )
    assert error == LineError(3, "KeyError", "'type'", '{"x": 1}')
    assert error != LineError(4, "KeyError", "'type'", '{"x": 1}')
    assert len({error, LineError(3, "KeyError", "'type'", '{"x": 1}')}) == 1
    with pytest.raises(AttributeError):
        error.line_number = 5  # type: ignore[misc]
    assert "line_number=3" in repr(error)


def test_diagnostics_start_at_zero_and_count_apart() -> None:
    first, second = Diagnostics("claude_local"), Diagnostics("claude_local")
    assert first == second and first.accounted and first.clean
    first.drop("bad entry")
    first.parser_error(1, "{}", KeyError("type"))
    assert first != second
    assert (second.drop_reasons, second.first_errors) == ({}, [])  # no shared defaults
    assert first.to_json()["firstErrors"] == [
        {"lineNumber": 1, "errorType": "KeyError", "message": "'type'", "linePreview": "{}"}
    ]
    assert "dropped_entries=1" in repr(first)
    with pytest.raises(TypeError):
        hash(first)  # mutable: unhashable, as the dataclass was
