"""The export folder as one unit: one writer, both tables committed together, checked on read."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from host.export.test_export import claude_log
from linewise.cli import main
from linewise.export import export_logs, run_query
from linewise.export._folder import InconsistentExportError, create_temporary, writing

pq = pytest.importorskip("pyarrow.parquet", reason="the export extra (pyarrow) is not installed")

PYTHON = sys.executable


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    for index in range(6):
        (folder / f"{index}.jsonl").write_text(claude_log(f"s-{index}"), encoding="utf-8")
    return folder


def _cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _counts(folder: Path) -> tuple[int, int, int]:
    """Runs, the entries the runs claim, and the entry rows: what query sees."""
    (row,) = run_query(
        str(folder),
        "SELECT (SELECT count(*) FROM runs), (SELECT sum(entries) FROM runs), "
        "(SELECT count(*) FROM entries)",
    ).rows
    return int(row[0]), int(row[1] or 0), int(row[2])


def _run_python(code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- commit ---------------------------------------------------------------------------

KILLED_BETWEEN_RENAMES = """
import os, signal, sys
real = os.replace
def replace(source, target):
    real(source, target)
    if target.endswith("runs.parquet"):  # the new runs are in place, the old entries still there
        os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
from linewise.export import export_logs
export_logs([sys.argv[1]], sys.argv[2], workers=1)
"""


def test_an_export_killed_between_its_two_renames_reads_as_the_new_one(
    logs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    export_logs([str(logs / "0.jsonl")], str(out), workers=1)
    assert _counts(out)[0] == 1
    killed = _run_python(KILLED_BETWEEN_RENAMES, str(logs), str(out))
    assert killed.returncode == -9
    runs, claimed, entries = _counts(out)  # the commit was decided: query reads it whole
    assert runs == 6 and claimed == entries
    export_logs([str(logs / "1.jsonl")], str(out), workers=1, append=True)  # rolls it forward
    runs, claimed, entries = _counts(out)
    assert runs == 6 and claimed == entries
    assert not [name for name in os.listdir(out) if name.endswith(".tmp")]


def test_a_failure_before_the_commit_leaves_the_old_export_whole(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    export_logs([str(logs / "0.jsonl")], str(out), workers=1)
    before = (out / "runs.parquet").read_bytes(), (out / "entries.parquet").read_bytes()
    import linewise.export._export as export_module

    def full_disk(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export_module, "commit", full_disk)
    with pytest.raises(OSError, match="No space left"):
        export_logs([str(logs)], str(out), workers=1)
    assert ((out / "runs.parquet").read_bytes(), (out / "entries.parquet").read_bytes()) == before
    assert not [name for name in os.listdir(out) if name.endswith(".tmp")]


def _mixed_pair(logs: Path, tmp_path: Path, *, stamped: bool) -> Path:
    """An export whose entries.parquet is another export's (as an old kill could leave it)."""
    out, other = tmp_path / "out", tmp_path / "other"
    export_logs([str(logs)], str(out), workers=1)
    export_logs([str(logs / "0.jsonl")], str(other), workers=1)
    os.replace(other / "entries.parquet", out / "entries.parquet")
    if not stamped:  # as linewise wrote them before its tables carried a stamp
        for name in ("runs.parquet", "entries.parquet"):
            table = pq.read_table(out / name)
            pq.write_table(table.replace_schema_metadata(None), out / name)
    return out


@pytest.mark.parametrize("stamped", [True, False], ids=["stamped", "unstamped"])
def test_query_refuses_a_folder_whose_tables_are_of_two_exports(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], stamped: bool
) -> None:
    out = _mixed_pair(logs, tmp_path, stamped=stamped)
    with pytest.raises(InconsistentExportError, match="is not one export"):
        run_query(str(out), "SELECT 1")
    code, _, err = _cli("query", "SELECT count(*) FROM runs", "--from", str(out), capsys=capsys)
    assert code == 1 and "is not one export" in err and "Traceback" not in err


def test_append_refuses_a_mismatched_pair_and_leaves_it(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _mixed_pair(logs, tmp_path, stamped=False)
    before = (out / "entries.parquet").read_bytes()
    code, _, err = _cli("export", str(logs), "--to", str(out), "--append", "-q", capsys=capsys)
    assert code == 1
    assert "cannot append" in err and "claim" in err and "export without --append" in err
    assert (out / "entries.parquet").read_bytes() == before
    code, _, err = _cli("export", str(logs), "--to", str(out), "-q", capsys=capsys)
    assert code == 0, err
    assert _counts(out) == (6, _counts(out)[2], _counts(out)[2])


# -- one writer -----------------------------------------------------------------------


def test_a_second_export_to_a_folder_being_written_is_refused(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    with writing(str(out)):
        code, _, err = _cli("export", str(logs), "--to", str(out), "-q", capsys=capsys)
    assert code == 1 and f"another export is writing {out}" in err
    assert not (out / "runs.parquet").exists()


CONCURRENT = """
import sys
from linewise.cli import main
sys.exit(main(["export", *sys.argv[1:-1], "--to", sys.argv[-1], "-q", "-j", "1"]))
"""


@pytest.mark.parametrize("append", [False, True], ids=["replace", "append"])
def test_concurrent_exports_leave_one_whole_export_and_the_others_say_so(
    logs: Path, tmp_path: Path, append: bool
) -> None:
    out = tmp_path / "out"
    export_logs([str(logs / "0.jsonl")], str(out), workers=1)
    inputs = [[str(logs / f"{index}.jsonl")] for index in range(1, 5)]
    flags = ["--append"] if append else []
    processes = [
        subprocess.Popen(
            [PYTHON, "-c", CONCURRENT, *paths, *flags, str(out)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for paths in inputs
    ]
    outcomes = [(p.wait(timeout=120), p.communicate()[1]) for p in processes]
    done = [err for code, err in outcomes if code == 0]
    refused = [err for code, err in outcomes if code != 0]
    assert done, outcomes
    assert all("another export is writing" in err for err in refused), refused
    assert all("Traceback" not in err for _, err in outcomes)
    runs, claimed, entries = _counts(out)
    assert claimed == entries
    assert runs == (1 + len(done) if append else 1)


# -- temporary files ------------------------------------------------------------------


def test_stale_temporary_files_of_a_dead_export_are_removed_by_the_next(
    logs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    stale = [out / ".runs.parquet.4242.tmp", out / ".entries.parquet.4242.0a1b2c3d.tmp"]
    for path in stale:
        path.write_bytes(b"half a parquet file")
    (out / "notes.tmp").write_text("mine", encoding="utf-8")
    export_logs([str(logs)], str(out), workers=1)
    assert not any(path.exists() for path in stale)
    assert (out / "notes.tmp").read_text(encoding="utf-8") == "mine"  # not a hidden temporary


def test_a_link_planted_at_the_temporary_name_is_never_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious", encoding="utf-8")
    names = iter([b"\x00\x00\x00\x01", b"\x00\x00\x00\x02"])
    monkeypatch.setattr(os, "urandom", lambda size: next(names))
    planted = tmp_path / f".runs.parquet.{os.getpid()}.00000001.tmp"
    planted.symlink_to(victim)
    path, stream = create_temporary(str(tmp_path), "runs.parquet")
    with stream:
        stream.write(b"new table")
    assert path.endswith(".00000002.tmp")
    assert victim.read_text(encoding="utf-8") == "precious"


def test_an_export_inside_its_input_folder_does_not_read_its_own_tables(
    logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = logs / "analytics"
    for _ in range(2):
        code, _, err = _cli("export", str(logs), "--to", str(out), "-q", capsys=capsys)
        assert code == 0, err
        assert "exported 6 of 6 logs" in err
    assert _counts(out)[0] == 6


# -- query ----------------------------------------------------------------------------


def test_query_from_a_folder_named_like_a_glob_reads_that_folder_only(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export_logs([str(logs / "0.jsonl")], str(tmp_path / "g*"), workers=1)
    export_logs([str(logs)], str(tmp_path / "gx"), workers=1)
    code, out, err = _cli(
        "query", "SELECT count(*) AS n FROM runs", "--from", str(tmp_path / "g*"), "--csv",
        capsys=capsys,
    )  # fmt: skip
    assert code == 0, err
    assert out == "n\n1\n"


def test_query_csv_shows_escape_sequences_instead_of_sending_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "odd.jsonl"
    log.write_text(claude_log("s-\x1b]0;owned\x07-\x1b[2J"), encoding="utf-8")
    export_logs([str(log)], str(tmp_path / "out"), workers=1)
    sql = "SELECT session_id FROM runs"
    code, out, _ = _cli("query", sql, "--from", str(tmp_path / "out"), "--csv", capsys=capsys)
    assert code == 0 and "\x1b" not in out and "\x07" not in out
    assert "owned" in out  # the text stays visible
    code, out, _ = _cli("query", sql, "--from", str(tmp_path / "out"), "--json", capsys=capsys)
    assert "\x1b" not in out and "\\u001b" in out
