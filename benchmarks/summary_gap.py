"""How far the entries alone are from the run summary: per adapter type, the fields the
one fold (``RunFold.to_summary()``) gives differently from the full summary.

Run with `python3 -m uv run --locked python benchmarks/summary_gap.py [--show TYPE[,TYPE]]`.
Every file of the corpus's real-logs/ and real-sessions/ (LINEWISE_CORPUS, else
../shared/corpus beside the checkout) is summarised as `linewise summarize` does
(``summarize_log``, the format detected); where a plugin's ``summarize_run``
took part, each ``RunSummary`` field of the fold over the validated entries is
compared with the summary's, both priced alike. ``usage`` is the wire format's
three counts, kept for 1.x consumers (each CLI's dialect): its differences are
expected. A field counted here is one the entries do not
yet carry (issue 32, "entries the only truth"): ``details`` is the plugin's by
design. ``--show`` prints each difference of those adapter types, file by file.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from pathlib import Path

from linewise.transcript.prices import priced
from linewise.transcript.run_report import summarize_log

REPO = Path(__file__).resolve().parent.parent
FOLDERS = ("real-logs", "real-sessions")


def corpus_root() -> Path:
    return Path(os.environ.get("LINEWISE_CORPUS") or REPO.parent / "shared" / "corpus")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", default="", help="adapter types whose differences to print")
    args = parser.parse_args(argv)
    shown = set(filter(None, args.show.split(",")))
    root = corpus_root()
    if not root.is_dir():
        print(f"no corpus at {root} (set LINEWISE_CORPUS)", file=sys.stderr)
        return 2
    files: collections.Counter[str] = collections.Counter()
    by_plugin: collections.Counter[str] = collections.Counter()
    gaps: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if not path.is_file() or path.suffix == ".md":
                continue
            report = summarize_log(path)
            files[report.adapter_type] += 1
            if report.summary_source != "plugin":
                continue
            by_plugin[report.adapter_type] += 1
            # Both priced alike (list prices where no cost was reported), as reports are.
            entries = priced(report.stats.to_summary(), None)[0]
            full = priced(report.summary, None)[0]
            for name in type(full).__slots__:
                ours, theirs = getattr(entries, name), getattr(full, name)
                if ours == theirs:
                    continue
                gaps[report.adapter_type][name] += 1
                if report.adapter_type in shown:
                    print(
                        f"{path.relative_to(root)} {name}: entries {ours!r:.120}"
                        f" | summary {theirs!r:.120}"
                    )
    print(f"{'adapter type':<18} {'files':>5} {'plugin':>6}  fields the entries miss (files)")
    for adapter in sorted(files):
        missing = ", ".join(f"{name} {count}" for name, count in gaps[adapter].most_common())
        print(f"{adapter:<18} {files[adapter]:>5} {by_plugin[adapter]:>6}  {missing or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
