"""``linewise export --redact``: the secret corpus of ``test_redact_content`` exported through
each engine leaves no secret in any string column of runs.parquet or entries.parquet."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from linewise.cli import main

pq = pytest.importorskip("pyarrow.parquet", reason="the export extra (pyarrow) is not installed")
pa = pytest.importorskip("pyarrow")


def _secret_corpus() -> ModuleType:
    # The corpus and its helpers are the redaction tests' own: loaded, not copied.
    path = Path(__file__).parents[1] / "render" / "redaction" / "test_redact_content.py"
    spec = importlib.util.spec_from_file_location("secret_corpus", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("secret_corpus", module)
    spec.loader.exec_module(module)
    return module


corpus = _secret_corpus()
ENGINES = {"in-process": ["-j", "1"], "process-pool": ["-j", "2"]}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two logs of the secret corpus (two, so the pool really spreads them over workers);
    the second one under a folder whose name is a secret."""
    folder = tmp_path_factory.mktemp("secrets")
    text = "\n".join(corpus.secret_log()) + "\n"
    (folder / "secrets.jsonl").write_text(text, encoding="utf-8")
    inner = folder / f"token={corpus.SECRETS['github-token']}"
    inner.mkdir()
    (inner / "again.jsonl").write_text(text, encoding="utf-8")
    return folder


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for element in value for item in _strings(element)]
    return []


def _written(folder: Path) -> dict[str, str]:
    """Every string value of every column of both tables, escapes undone, per table."""
    shown = {}
    for name in ("runs.parquet", "entries.parquet"):
        table = pq.read_table(folder / name)
        values = [s for column in table.to_pydict().values() for v in column for s in _strings(v)]
        shown[name] = corpus._readable("\n".join(values))
    return shown


def _export(logs: Path, target: Path, *options: str) -> int:
    return main(["export", str(logs), "--to", str(target), "-q", *options])


@pytest.mark.parametrize("engine", ENGINES, ids=list(ENGINES))
def test_no_secret_of_the_corpus_is_in_either_table_with_redact(
    logs: Path, engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out"
    assert _export(logs, target, "--redact", *ENGINES[engine]) == 0
    runs = pq.read_table(target / "runs.parquet").to_pydict()
    assert runs["adapter_type"] == ["claude_local", "claude_local"]
    for table, shown in _written(target).items():
        leaked = {kind: core for kind, core in corpus._cores().items() if core in shown}
        assert leaked == {}, table
    entries = _written(target)["entries.parquet"]
    for kind in [*corpus.SECRETS, "url-password", "private-key", "secret-assignment"]:
        assert f"[redacted: {kind}]" in entries, kind
    # The folder name's token is masked in source_path, in the runs table.
    assert sum("[redacted: " in path for path in runs["source_path"]) == 1


def test_without_redact_the_corpus_secrets_are_in_the_tables(logs: Path, tmp_path: Path) -> None:
    # The tables really would hold the secrets: the test above catches a leak.
    target = tmp_path / "out"
    assert _export(logs, target, "-j", "2") == 0
    shown = _written(target)
    assert all(core in shown["entries.parquet"] for core in corpus._cores().values())
    assert corpus.SECRETS["github-token"] in shown["runs.parquet"]


def test_the_redactions_are_counted_on_stderr_as_the_masks_written(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out"
    assert _export(logs, target, "--redact", "-j", "2") == 0
    err = capsys.readouterr().err
    counted = re.search(r"(\d+) secrets redacted \(([^)]*)\)", err)
    assert counted is not None, err
    by_kind = dict(item.rsplit(" ", 1) for item in counted.group(2).split(", "))
    assert sum(map(int, by_kind.values())) == int(counted.group(1))
    # Each secret once: an entry's own columns (text, tool_name, ...) repeat its entry_json.
    runs = pq.read_table(target / "runs.parquet").to_pydict()
    entries = pq.read_table(target / "entries.parquet", columns=["entry_json"]).to_pydict()
    columns = [*runs.values(), entries["entry_json"]]
    masks = sum(s.count("[redacted: ") for column in columns for v in column for s in _strings(v))
    assert int(counted.group(1)) == masks


def test_an_allowed_value_is_kept_in_the_export(tmp_path: Path) -> None:
    allowed, other = corpus.SECRETS["github-token"], corpus.SECRETS["npm-token"]
    log = tmp_path / "logs" / "log.jsonl"
    log.parent.mkdir()
    log.write_text(corpus._assistant(f"ci uses {allowed} and {other}") + "\n", encoding="utf-8")
    target = tmp_path / "out"
    assert _export(log.parent, target, "--redact", "--redact-allow", allowed) == 0
    shown = _written(target)["entries.parquet"]
    assert allowed in shown
    assert other not in shown


# Dask runs in a child process, as in test_export_engines (importing `distributed` here
# would break the host's plugin discovery for later tests).
DASK_SCRIPT = """
import sys
from distributed import LocalCluster
from linewise.cli import main

with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                  dashboard_address=None) as cluster:
    sys.exit(main(["export", sys.argv[1], "--to", sys.argv[2], "--engine", "dask",
                   "--scheduler", cluster.scheduler_address, "-q", "--redact"]))
"""


@pytest.mark.slow
def test_dask_workers_redact_the_corpus_too(logs: Path, tmp_path: Path) -> None:
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("the dask extra is not installed")
    target = tmp_path / "out"
    done = subprocess.run(  # noqa: PLW1510 - the code is checked below, with stderr
        [sys.executable, "-c", DASK_SCRIPT, str(logs), str(target)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "secrets redacted" in done.stderr
    for table, shown in _written(target).items():
        leaked = {kind: core for kind, core in corpus._cores().items() if core in shown}
        assert leaked == {}, table
