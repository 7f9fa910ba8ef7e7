"""Throughput of `linewise export` (MB/s, runs/s): 1 and 2 processes, and a Dask local cluster.

Run with `python3 -m uv run --locked python benchmarks/export_bench.py [--copies N]`.
The input is every real log of ../shared/corpus/real-logs, copied N times (default 4)
into a temporary folder (read at run time, never kept), so start-up costs are spread
over a few hundred runs. Each engine exports the same inputs; the tables must be
byte-identical, which the script checks. Times include starting the workers,
except on the last line: a local cluster started beforehand (its start-up time is
printed apart), as a long-running cluster would be.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from linewise.export import export_logs

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "real-logs"


def _copy_corpus(target: Path, copies: int) -> tuple[int, int]:
    files = [p for p in sorted(CORPUS.rglob("*")) if p.is_file() and p.name != "PROVENANCE.md"]
    size = 0
    for copy in range(copies):
        for path in files:
            destination = target / f"copy{copy}" / path.relative_to(CORPUS)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
            size += path.stat().st_size
    return len(files) * copies, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=4, help="copies of the corpus (default 4)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        runs, size = _copy_corpus(root / "logs", args.copies)
        print(f"{runs} logs, {size / 1e6:.1f} MB ({args.copies} copies of the real logs)")
        setups = [
            ("process, 1 worker", {"engine": "process", "workers": 1}),
            ("process, 2 workers", {"engine": "process", "workers": 2}),
            ("dask local cluster, 2 workers", {"engine": "dask", "workers": 2}),
        ]
        reference: bytes | None = None
        from distributed import LocalCluster

        start = time.perf_counter()
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
        print(f"(a 2-worker local cluster started in {time.perf_counter() - start:.1f} s)")
        setups.append(
            (
                "dask, running cluster, 2 workers",
                {"engine": "dask", "scheduler": cluster.scheduler_address},
            )
        )
        for name, options in setups:
            out = root / name.replace(" ", "_").replace(",", "")
            start = time.perf_counter()
            result = export_logs([str(root / "logs")], str(out), **options)  # type: ignore[arg-type]
            seconds = time.perf_counter() - start
            assert result.exported == runs and not result.failures, result
            tables = (out / "runs.parquet").read_bytes() + (out / "entries.parquet").read_bytes()
            same = (
                "" if reference is None else ("  identical" if tables == reference else "  DIFFER")
            )
            reference = reference or tables
            print(
                f"{name:34} {seconds:6.2f} s  {size / 1e6 / seconds:6.2f} MB/s  "
                f"{runs / seconds:7.1f} runs/s  {result.entries} entries{same}"
            )
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
