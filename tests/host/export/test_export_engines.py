"""linewise export on Dask distributed and on every real log of the corpus."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from linewise.cli import main
from linewise.export import EXAMPLE_QUERIES, export_logs, run_query
from linewise.transcript.run_report import summarize_log
from support import CORPUS, corpus_path

pq = pytest.importorskip("pyarrow.parquet", reason="the export extra (pyarrow) is not installed")


# Dask runs in a child process: importing `distributed` installs importlib_metadata's
# finder for the rest of the process, and the host's plugin discovery then fails on a
# distribution without a Summary (KeyError), which would break later tests.
DASK_SCRIPT = """
import sys
from distributed import LocalCluster
from linewise.cli import main
from linewise.export import export_logs

with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                  dashboard_address=None) as cluster:
    pairs = sys.argv[1:]
    for source, target in zip(pairs[::2], pairs[1::2]):
        code = main(["export", source, "--to", target, "--engine", "dask",
                     "--scheduler", cluster.scheduler_address, "-q"])
        if code:
            sys.exit(code)
"""


def _dask_export(*pairs: tuple[Path, Path]) -> None:
    """Export each (source, target) with --engine dask on a two-worker local cluster."""
    if importlib.util.find_spec("distributed") is None:  # not imported here: see above
        pytest.skip("the dask extra is not installed")
    args = [str(path) for pair in pairs for path in pair]
    done = subprocess.run(  # noqa: PLW1510 - the code is checked below, with stderr
        [sys.executable, "-c", DASK_SCRIPT, *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


def _tables(folder: Path) -> tuple[bytes, bytes]:
    return (folder / "runs.parquet").read_bytes(), (folder / "entries.parquet").read_bytes()


def _write_logs(folder: Path) -> None:
    folder.mkdir()
    for number in range(6):
        lines = [
            {
                "type": "system",
                "subtype": "init",
                "session_id": f"s{number}",
                "model": "m",
                "tools": ["Bash"],
            },
            {
                "type": "assistant",
                "message": {
                    "id": "a",
                    "type": "message",
                    "role": "assistant",
                    "model": "m",
                    "content": [{"type": "text", "text": f"run {number}"}],
                },
                "session_id": f"s{number}",
            },
            {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "num_turns": 1,
                "result": "ok",
                "session_id": f"s{number}",
                "total_cost_usd": number / 10,
                "usage": {"input_tokens": number, "output_tokens": 1},
            },
        ]
        text = "".join(json.dumps(line) + "\n" for line in lines)
        (folder / f"run{number}.jsonl").write_text(text, encoding="utf-8")


@pytest.mark.slow
def test_dask_writes_the_same_tables_as_the_process_pool(tmp_path: Path) -> None:
    _write_logs(tmp_path / "logs")
    export_logs([str(tmp_path / "logs")], str(tmp_path / "pool"), workers=2)
    pairs = [(tmp_path / "logs", tmp_path / "dask")]
    real_logs = CORPUS / "real-logs"
    if real_logs.is_dir():  # the real logs too, in the same child (one cluster start-up)
        export_logs([str(real_logs)], str(tmp_path / "real-pool"), workers=2)
        pairs.append((real_logs, tmp_path / "real-dask"))
    _dask_export(*pairs)
    assert _tables(tmp_path / "dask") == _tables(tmp_path / "pool")
    assert len(pq.read_table(tmp_path / "dask" / "runs.parquet")) == 6
    if real_logs.is_dir():
        assert _tables(tmp_path / "real-dask") == _tables(tmp_path / "real-pool")


def test_scheduler_needs_the_dask_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["export", str(tmp_path), "--to", str(tmp_path / "out"), "--scheduler", "tcp://x:1"])
    assert exit_.value.code == 2
    assert "--scheduler needs --engine dask" in capsys.readouterr().err


# -- the real logs ------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_export(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    logs = corpus_path("real-logs")
    out = tmp_path_factory.mktemp("corpus-export")
    result = export_logs([str(logs)], str(out), workers=2)
    assert result.failures == [] and result.missing == []
    return logs, out


def _rendered_count(path: str, capsys: pytest.CaptureFixture[str]) -> int:
    try:
        code = main(["render", "-q", "-f", "jsonl", path])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, _ = capsys.readouterr()
    assert code == 0
    return len(out.splitlines())


def test_every_real_log_is_one_run_with_the_entries_render_gives(
    corpus_export: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    logs, out = corpus_export
    runs: list[dict[str, Any]] = pq.read_table(out / "runs.parquet").to_pylist()
    entries = pq.read_table(out / "entries.parquet", columns=["run_id", "seq"]).to_pylist()
    files = sorted(str(p.resolve()) for p in logs.rglob("*") if p.is_file())
    assert sorted(str(Path(run["source_path"]).resolve()) for run in runs) == files
    per_run: dict[str, int] = {}
    for entry in entries:
        per_run[entry["run_id"]] = per_run.get(entry["run_id"], 0) + 1
    for run in runs:
        expected = _rendered_count(run["source_path"], capsys)
        assert run["entries"] == expected == per_run.get(run["run_id"], 0), run["source_path"]


def test_real_log_costs_equal_summarize(corpus_export: tuple[Path, Path]) -> None:
    _, out = corpus_export
    runs: list[dict[str, Any]] = pq.read_table(out / "runs.parquet").to_pylist()
    known = 0
    for run in runs:
        report = summarize_log(run["source_path"])
        assert run["cost_usd"] == report.summary.cost_usd, run["source_path"]
        assert run["status"] == report.status and run["adapter_type"] == report.adapter_type
        # every input token in the usage vocabulary; null where the CLI reported none
        tokens = report.summary.token_usage
        if tokens.known:
            assert run["input_tokens"] == tokens.total_input, run["source_path"]
            assert run["uncached_input_tokens"] == tokens.uncached_input
        known += report.summary.cost_usd is not None
    assert 0 < known < len(runs)  # some CLIs report no cost: null there, not 0


def test_example_queries_run_on_the_real_logs(corpus_export: tuple[Path, Path]) -> None:
    _, out = corpus_export
    runs = pq.read_table(out / "runs.parquet").to_pylist()
    per_day = run_query(str(out), EXAMPLE_QUERIES["cost-per-model-per-day"])
    cost = per_day.columns.index("cost_usd")
    total = sum(row[cost] for row in per_day.rows if row[cost] is not None)
    assert math.isclose(total, sum(r["cost_usd"] for r in runs if r["cost_usd"] is not None))
    tools = run_query(str(out), EXAMPLE_QUERIES["top-failing-tools"])
    failed = sum(r["tool_errors"] for r in runs)
    assert tools.rows and sum(row[1] for row in tools.rows) <= failed
    limits = run_query(str(out), EXAMPLE_QUERIES["runs-that-hit-limits"])
    assert {row[0] for row in limits.rows} == {r["source_path"] for r in runs if r["hit_limit"]}


PRIVATE_CLUSTER = """
import sys
from distributed import Client
from linewise.export._engines import local_cluster

cluster, security = local_cluster(2)
with cluster:
    address = cluster.scheduler_address
    # With the dask extra (cryptography): TLS between worker processes, never in-process.
    assert address.startswith("tls://127.0.0.1:"), address
    import urllib.error, urllib.request
    for server in cluster.scheduler.http_server._sockets.values():
        port = server.getsockname()[1]
        for route in ("health", "info/main/workers.html", "status"):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/{route}", timeout=5)
            except urllib.error.HTTPError as error:
                assert error.code == 404, (route, error.code)
            else:
                sys.exit(f"the scheduler answered /{route}")
    try:
        stranger = Client(address, timeout=5)  # another local process, without the credentials
    except Exception:
        pass
    else:
        stranger.close()
        sys.exit("a client without credentials connected")
    with Client(cluster, security=security) as own:
        assert own.submit(sum, [1, 2]).result() == 3
"""


@pytest.mark.slow
def test_the_local_dask_cluster_takes_no_stranger_and_has_no_dashboard() -> None:
    if importlib.util.find_spec("distributed") is None:  # not imported here: see above
        pytest.skip("the dask extra is not installed")
    done = subprocess.run(  # noqa: PLW1510 - the code is checked below, with stderr
        [sys.executable, "-c", PRIVATE_CLUSTER], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_dask_extra_installs_cryptography_for_the_private_clusters_tls() -> None:
    # Without cryptography the private local cluster has no certificates to make and falls
    # back to workers in the export's own process: `pip install linewise[dask]` must bring it.
    from importlib.metadata import requires

    from packaging.requirements import Requirement

    wanted = [Requirement(text) for text in requires("linewise") or []]
    crypto = [r for r in wanted if r.name == "cryptography"]
    assert crypto, "the dask extra does not name cryptography"
    assert all(r.marker is not None for r in crypto)
    assert any(r.marker.evaluate({"extra": "dask"}) for r in crypto if r.marker)
    assert not any(r.marker.evaluate({"extra": "export"}) for r in crypto if r.marker)
