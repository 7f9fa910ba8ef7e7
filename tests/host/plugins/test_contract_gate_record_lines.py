"""Contract 1.3's bounded record reader (``record_lines``, ``read_document``) through the gate.

A plugin that reads its store with them needs 1.3: a 1.2 host refuses it with a
hint to upgrade linewise, before any import; a 1.2 plugin keeps loading on the
1.3 host; and on the 1.3 host a 1.3 plugin's records reach the parser bounded,
a too-long one cut with the host's marker.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from linewise import Registry
from linewise.sessions.records import session_lines
from linewise_contracts import CONTRACT_VERSION
from linewise_contracts.sessions import MAX_RECORD_CHARS
from support import FakeSite

BOUNDED_PLUGIN = """
from linewise_contracts.sessions import SessionStore, read_document, record_lines

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def session_stores(environ, home):
    return [SessionStore("bounded", home / ".bounded", ("*.jsonl",))]

def session_records(path, key=None):
    document = read_document(path, max_chars=64)
    yield "document" if document is not None else "lines"
    yield from record_lines(path)
"""


def _install(site: FakeSite) -> None:
    site.add(
        "needs-thirteen",
        entry_points={"needs_thirteen": "needs_thirteen_mod"},
        requires=["linewise-contracts>=1.3,<2"],
        modules={"needs_thirteen_mod": BOUNDED_PLUGIN},
    )
    site.add(
        "plain-twelve",
        entry_points={"plain_twelve": "plain_twelve_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={
            "plain_twelve_mod": "def parse_stdout_line(line, ts):\n"
            "    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
        },
    )


def test_a_1_3_record_reader_plugin_on_a_1_2_host_is_refused_before_import(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.2.0")
    assert registry.load("needs_thirteen").is_fallback
    assert "needs_thirteen_mod" not in sys.modules
    failure = registry.failed_loads["needs_thirteen"]
    assert failure.stage == "contract"
    assert "upgrade linewise" in failure.hint


@pytest.mark.parametrize("host", ["1.2.0", CONTRACT_VERSION])
def test_a_1_2_plugin_loads_on_the_1_2_and_the_1_3_host(fake_site: FakeSite, host: str) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    assert not registry.load("plain_twelve").is_fallback


def test_a_1_3_plugin_reads_its_records_bounded_on_the_1_3_host(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    parser = registry.load("needs_thirteen")
    assert not parser.is_fallback
    session = tmp_path / "s.jsonl"
    session.write_text("first\n" + "x" * (MAX_RECORD_CHARS + 500) + "\nlast\n")
    lines = list(session_lines(parser, session))
    assert [len(line) for line in lines] == [len("lines"), 5, MAX_RECORD_CHARS + 1, 4]
