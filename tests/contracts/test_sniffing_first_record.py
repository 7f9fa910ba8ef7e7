"""contracts 1.8's first_record_score: a session file whose first record names its store."""

from __future__ import annotations

import pytest
from linewise_contracts.sniffing import SURE, first_record_score


@pytest.mark.parametrize(
    ("lines", "score"),
    [
        (['{"type": "goose_session", "id": "s"}', '{"role": "user"}'], SURE),
        (["", "   ", '{"type": "goose_session"}'], SURE),  # blank lines before it are read past
        (['{"type": "message"}', '{"type": "goose_session"}'], 0.0),  # only the first counts
        (["goose session", '{"type": "goose_session"}'], 0.0),  # text first: not a store file
        (['["goose_session"]', '{"type": "goose_session"}'], 0.0),  # JSON, but no object
        (['{"type": ["goose_session"]}'], 0.0),
        ([], 0.0),
    ],
)
def test_only_a_first_record_of_the_stores_type_is_sure(lines: list[str], score: float) -> None:
    assert first_record_score(lines, "goose_session") == score
