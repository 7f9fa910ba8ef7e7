"""``linewise export`` of session stores: read as ``render`` and ``summarize`` read them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from linewise import Registry
from linewise.cli.inputs import session_report
from linewise.export import export_logs
from linewise.sessions import find_sessions
from linewise.transcript.run_report import summarize_log
from session_fakes import install, records, write_tinydb
from support import FakeSite, corpus_path


def _layouts() -> dict[str, Any]:
    """The real-home layouts ``test_sessions_real_homes`` builds (one home, every store)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "real_homes", Path(__file__).parents[1] / "sessions" / "test_sessions_real_homes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    layouts: dict[str, Any] = module.LAYOUTS
    return layouts


pq = pytest.importorskip("pyarrow.parquet", reason="the export extra (pyarrow) is not installed")


def _rows(folder: Path, table: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(folder / f"{table}.parquet").to_pylist()
    return rows


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    found = tmp_path / "home"
    found.mkdir()
    monkeypatch.setenv("HOME", str(found))
    monkeypatch.setenv("LINEWISE_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_DIR", "COPILOT_HOME", "QWEN_HOME"):
        monkeypatch.delenv(name, raising=False)
    return found


def test_export_of_a_home_holding_every_store_reads_each_store_as_summarize_does(
    home: Path, tmp_path: Path
) -> None:
    laid_out = []
    for cli, layout in sorted(_layouts().items()):
        try:
            source = corpus_path("real-sessions", cli)
        except pytest.skip.Exception:
            continue
        layout(source, home)
        laid_out.append(cli)
    if not laid_out:
        pytest.skip("no real sessions in the corpus")
    registry = Registry()
    stored = sorted({info.path for info in find_sessions(registry=registry, home=home)})
    result = export_logs(stored, str(tmp_path / "out"), workers=1)
    assert result.failures == [] and result.exported == len(stored)
    runs = {row["source_path"]: row for row in _rows(tmp_path / "out", "runs")}
    for path in stored:
        # What `linewise summarize PATH` reads: the session, or (lines read as they are) the log.
        report = session_report(path, "auto", registry) or summarize_log(path, registry=registry)
        assert runs[path]["adapter_type"] == report.adapter_type, path
        assert runs[path]["adapter_type"] != "process", path
    for entry in _rows(tmp_path / "out", "entries"):
        text = str(entry.get("text") or "")
        # No row is a store's raw bytes: a database's header, a pretty-printed document's line.
        assert not text.startswith("SQLite format 3"), entry
        if entry["kind"] == "stdout":  # a line shown raw, as no parser read it
            assert text.strip() not in ("{", "}", "[", "]"), entry


def test_a_database_no_plugin_reads_is_refused_with_a_reason_not_exported_as_rows(
    home: Path, tmp_path: Path
) -> None:
    database = tmp_path / "logs" / "notes.db"
    database.parent.mkdir()
    with sqlite3.connect(database) as connection:
        connection.execute("create table note (body text)")
        connection.execute("insert into note values ('hello')")
    connection.close()
    result = export_logs([str(database)], str(tmp_path / "out"), workers=1)
    assert result.exported == 0 and [failure.path for failure in result.failures] == [str(database)]
    assert "binary file no installed plugin reads" in result.failures[0].reason


def test_a_json_document_outside_any_store_is_refused_with_a_reason(
    home: Path, tmp_path: Path
) -> None:
    document = tmp_path / "logs" / "chat.json"
    document.parent.mkdir()
    document.write_text(json.dumps({"notes": ["a", "b"], "n": 2}, indent=2))
    result = export_logs([str(document)], str(tmp_path / "out"), workers=1)
    assert result.exported == 0 and result.left_out == []  # named, it is the user's mistake
    assert "is a JSON document, not lines of agent output" in result.failures[0].reason


def test_a_json_document_found_in_a_folder_is_left_out_and_the_export_succeeds(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A subagent's ``.meta.json`` sidecar beside its records, in a walked project folder."""
    folder = tmp_path / "project" / "session-1" / "subagents"
    folder.mkdir(parents=True)
    (folder / "agent-a1.meta.json").write_text(json.dumps({"agentType": "x"}, indent=2))
    (folder / "agent-a1.jsonl").write_text("compiling\ndone\n")
    out = tmp_path / "out"
    code, err = _cli(capsys, "export", str(tmp_path / "project"), "--to", str(out), "-j", "1")
    assert code == 0, err
    assert "1 left out (found in a folder, not agent output)" in err
    assert "warning: " in err and "agent-a1.meta.json is a JSON document" in err
    result = export_logs([str(tmp_path / "project")], str(tmp_path / "again"), workers=1)
    assert result.failures == [] and result.exported == 1
    assert [left.path for left in result.left_out] == [str(folder / "agent-a1.meta.json")]


def test_a_plain_text_log_is_still_exported(home: Path, tmp_path: Path) -> None:
    log = tmp_path / "logs" / "build.log"
    log.parent.mkdir()
    log.write_text("compiling\ndone\n")
    result = export_logs([str(log)], str(tmp_path / "out"), workers=1)
    assert result.failures == [] and result.exported == 1


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    from linewise.cli import main

    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    return code, capsys.readouterr().err


def test_export_sessions_exports_the_sessions_on_disk_of_one_cli(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layouts = _layouts()
    expected = layouts["claude"](corpus_path("real-sessions", "claude"), home)
    layouts["codex"](corpus_path("real-sessions", "codex"), home)
    out = tmp_path / "out"
    code, err = _cli(capsys, "export", "--sessions", "--cli", "claude", "--to", str(out), "-j", "1")
    assert code == 0, err
    runs = _rows(out, "runs")
    assert len(runs) == expected
    assert {run["adapter_type"] for run in runs} == {"claude_session"}
    assert f"exported {expected} of {expected} logs" in err


def test_export_needs_paths_or_sessions_and_session_filters_need_sessions(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _cli(capsys, "export", "--to", str(tmp_path / "out"))
    assert code == 2 and "give the PATHs to export, or --sessions" in err
    code, err = _cli(
        capsys, "export", str(tmp_path), "--cli", "claude", "--to", str(tmp_path / "o")
    )
    assert code == 2 and "give them with --sessions" in err


def test_every_session_of_a_store_file_holding_several_is_a_run_of_its_own(
    home: Path, fake_site: FakeSite
) -> None:
    """A database of sessions (the fake tinydb store) exports each session, not the newest."""
    from linewise.export import export_file, export_sessions

    install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    store = write_tinydb(
        home,
        {
            "k1": records("db-1", cli="tinydb", end="2026-01-15T00:00:00Z"),
            "k2": records("db-2", cli="tinydb", end="2026-03-01T00:00:00Z", reply="later"),
        },
    )
    exports = export_sessions(str(store), registry=registry)
    assert [one.run["session_id"] for one in exports] == ["db-1", "db-2"]
    assert len({one.run["run_id"] for one in exports}) == 2
    assert all(one.run["source_path"] == str(store) for one in exports)
    for one in exports:
        assert set(one.entries["run_id"]) == {one.run["run_id"]}
    # export_file keeps its meaning: one run, the session `render PATH` shows, as before.
    single = export_file(str(store), registry=registry)
    assert single.run["session_id"] in ("db-1", "db-2")
    assert single.run["run_id"] not in {one.run["run_id"] for one in exports}


def test_appending_a_database_of_sessions_again_skips_it_when_unchanged_and_renews_its_runs(
    home: Path, tmp_path: Path, fake_site: FakeSite
) -> None:
    """--append knew a file by its one run: a database's runs (one per session) never matched,
    so each append read it again and called every one of its runs replaced."""
    install(fake_site)
    sessions = {
        "k1": records("db-1", cli="tinydb", end="2026-01-15T00:00:00Z"),
        "k2": records("db-2", cli="tinydb", end="2026-03-01T00:00:00Z", reply="later"),
    }
    store = write_tinydb(home, sessions)
    out = str(tmp_path / "out")
    first = export_logs([str(store)], out, workers=1)
    assert (first.exported, first.runs) == (1, 2)
    again = export_logs([str(store)], out, workers=1, append=True)
    assert (again.skipped, again.exported, again.replaced) == (1, 0, 0)
    assert sorted(row["session_id"] for row in _rows(tmp_path / "out", "runs")) == ["db-1", "db-2"]
    sessions["k3"] = records("db-3", cli="tinydb", end="2026-04-01T00:00:00Z", reply="newest")
    write_tinydb(home, sessions)
    renewed = export_logs([str(store)], out, workers=1, append=True)
    assert (renewed.skipped, renewed.exported, renewed.replaced) == (0, 1, 2)
    assert sorted(row["session_id"] for row in _rows(tmp_path / "out", "runs")) == [
        "db-1",
        "db-2",
        "db-3",
    ]
