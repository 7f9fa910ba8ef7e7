"""Contract 1.4's guarded SQLite store reader (``linewise_contracts.store_database``) through the gate.

A plugin that reads its database with it needs 1.4: a 1.3 host refuses it with a
hint to upgrade linewise, before any import; a 1.3 plugin keeps loading on the
1.4 host; and on the 1.4 host a 1.4 plugin's records come out of a real
database, while a database whose table is a view is refused with the reason.
"""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import pytest
from linewise import Registry
from linewise.plugins.guard import PluginCallError
from linewise.sessions.records import session_lines
from linewise_contracts import CONTRACT_VERSION
from support import FakeSite

DATABASE_PLUGIN = """
from linewise_contracts.sessions import SessionStore
from linewise_contracts.store_database import StoreDatabase

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def session_stores(environ, home):
    return [SessionStore("dbcli", home / ".dbcli", ("store.db",))]

def session_records(path, key=None):
    with StoreDatabase(path, ("notes",), name="dbcli") as database:
        for row in database.rows("SELECT body FROM notes ORDER BY id"):
            yield row["body"]
"""


def _install(site: FakeSite) -> None:
    site.add(
        "needs-fourteen",
        entry_points={"needs_fourteen": "needs_fourteen_mod"},
        requires=["linewise-contracts>=1.4,<2"],
        modules={"needs_fourteen_mod": DATABASE_PLUGIN},
    )
    site.add(
        "plain-thirteen",
        entry_points={"plain_thirteen": "plain_thirteen_mod"},
        requires=["linewise-contracts>=1.3,<2"],
        modules={
            "plain_thirteen_mod": "def parse_stdout_line(line, ts):\n"
            "    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
        },
    )


def _database(path: Path, schema: str) -> Path:
    with closing(sqlite3.connect(path)) as db:
        db.executescript(schema)
        db.commit()
    return path


def test_a_1_4_store_database_plugin_on_a_1_3_host_is_refused_before_import(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.3.0")
    assert registry.load("needs_fourteen").is_fallback
    assert "needs_fourteen_mod" not in sys.modules
    failure = registry.failed_loads["needs_fourteen"]
    assert failure.stage == "contract"
    assert "upgrade linewise" in failure.hint


@pytest.mark.parametrize("host", ["1.3.0", CONTRACT_VERSION])
def test_a_1_3_plugin_loads_on_the_1_3_and_the_1_4_host(fake_site: FakeSite, host: str) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    assert not registry.load("plain_thirteen").is_fallback


def test_a_1_4_plugin_reads_its_database_and_a_view_is_refused_with_the_reason(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    parser = registry.load("needs_fourteen")
    assert not parser.is_fallback
    good = _database(
        tmp_path / "good.db",
        "CREATE TABLE notes (id INTEGER, body TEXT);"
        "INSERT INTO notes VALUES (2, 'second'), (1, 'first');",
    )
    assert list(session_lines(parser, good)) == ["first", "second"]
    view = _database(
        tmp_path / "view.db",
        "CREATE TABLE raw (id INTEGER, body TEXT); CREATE VIEW notes AS SELECT * FROM raw;",
    )
    with pytest.raises(PluginCallError, match="its 'notes' is a view, not a table"):
        list(session_lines(parser, view))
