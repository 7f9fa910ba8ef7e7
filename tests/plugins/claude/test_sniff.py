"""The Claude sniffer on hostile lines: any JSON value in any field, never an exception."""

from __future__ import annotations

import pytest
from linewise_claude import sniff


@pytest.mark.parametrize(
    "line",
    [
        '{"type":[],"session_id":"s"}',
        '{"type":{"a":1}}',
        '{"type":"system","subtype":[1,2],"session_id":"s"}',
        '{"type":"system","subtype":{"x":null}}',
        '{"type":"assistant","message":{"id":["msg_1"]}}',
    ],
)
def test_unhashable_or_odd_values_give_a_score_not_an_exception(line: str) -> None:
    score = sniff([line])
    assert 0.0 <= score <= 1.0


def test_a_list_type_is_not_claude() -> None:
    assert sniff(['{"type":[],"session_id":"s"}']) == 0.0
