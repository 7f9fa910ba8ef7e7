"""Compare `linewise usage session` with ccusage, session by session, on the corpus's real sessions.

Run with `python3 -m uv run --locked python benchmarks/ccusage_compare.py`.

ccusage (the usage tool Claude Code users run today; npm package ``ccusage``,
which also reads Codex and Gemini CLI sessions) is installed from the npm
registry into a temporary folder at run time (nothing is kept; `--ccusage
DIR` reuses an installation holding ``node_modules/.bin/ccusage``). The
corpus's session files (../shared/corpus/real-sessions) are copied into a
temporary home laid out as the CLIs keep them (ccusage does not follow
symbolic links): Claude's under ``CLAUDE_CONFIG_DIR/projects/corpus/``,
Codex's under ``CODEX_HOME/sessions/YYYY/MM/DD/``, Gemini's under
``~/.gemini/tmp/<hash>/chats/``. Both tools read that home: linewise through its
session stores, ccusage with ``--offline`` (its bundled LiteLLM prices; no
network) in UTC.

For each session both tools find, printed: the tokens each reports by kind
(uncached input, cache writes, cache reads, output with reasoning) and whether
they are equal, then each tool's cost and their difference. The README's
"Usage and cost" section explains every difference this shows.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "real-sessions"
#: The ccusage release compared against, with its native binary for this platform.
CCUSAGE = "20.0.24"
KINDS = ("uncached input", "cache write", "cache read", "output")
#: What a ccusage figure above means in linewise's vocabulary, where the two differ.
NOTES = {
    ("gemini", "output"): "ccusage's outputTokens + the thought tokens it prices but does not list",
    ("codex", "cache write"): "Codex reports no cache writes: unknown to linewise, 0 to ccusage",
    ("gemini", "cache write"): "Gemini reports no cache writes: unknown to linewise, 0 to ccusage",
}


def _install(folder: Path) -> Path:
    """ccusage from the npm registry (its native binary is an optional dependency)."""
    platform = {"linux": "linux", "darwin": "darwin"}.get(sys.platform, "win32")
    machine = "arm64" if os.uname().machine in ("arm64", "aarch64") else "x64"
    subprocess.run(
        [
            "npm",
            "install",
            "--prefix",
            str(folder),
            "--no-audit",
            "--no-fund",
            "--silent",
            f"ccusage@{CCUSAGE}",
            f"@ccusage/ccusage-{platform}-{machine}@{CCUSAGE}",
        ],
        check=True,
    )
    return folder / "node_modules" / ".bin" / "ccusage"


def _home(root: Path) -> dict[str, str]:
    """A home holding copies of the corpus's Claude, Codex and Gemini sessions; its variables."""
    home, claude, codex = root / "home", root / "claude", root / "codex"
    projects = claude / "projects" / "corpus"
    for path in sorted((CORPUS / "claude").rglob("*.jsonl")):
        target = projects / path.relative_to(CORPUS / "claude")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        meta = path.with_suffix(".meta.json")
        if meta.exists():
            shutil.copyfile(meta, target.with_suffix(".meta.json"))
    for path in sorted((CORPUS / "codex").glob("*rollout-*.jsonl")):
        name = "rollout-" + path.name.split("rollout-", 1)[1]
        day = name[len("rollout-") : len("rollout-") + 10].split("-")
        target = codex / "sessions" / day[0] / day[1] / day[2] / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    chats = home / ".gemini" / "tmp" / "corpus" / "chats"
    chats.mkdir(parents=True)
    for path in sorted((CORPUS / "gemini").glob("*session-*.json")):
        shutil.copyfile(path, chats / ("session-" + path.name.split("session-", 1)[1]))
    return {
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(claude),
        "CODEX_HOME": str(codex),
        "LINEWISE_CACHE_DIR": str(root / "cache"),
        "TZ": "UTC",
    }


def _json(command: list[str], env: dict[str, str]) -> Any:
    done = subprocess.run(
        command, env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def _linewise(env: dict[str, str]) -> dict[tuple[str, str], dict[str, Any]]:
    """linewise's session rows, by (CLI, file name without suffix) and (CLI, session id)."""
    linewise = [sys.executable, "-c", "import sys; from linewise.cli import main; sys.exit(main())"]
    data = _json([*linewise, "usage", "session", "--json"], env)
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for row in data["rows"]:
        name = Path(row["path"]).name
        stem = name.removesuffix(".jsonl").removesuffix(".json")
        rows[(row["cli"], stem)] = row
        rows[(row["cli"], row["sessionId"])] = row
    return rows


def _ours(row: dict[str, Any]) -> tuple[tuple[int | None, ...], float | None, str | None]:
    usage = row["tokenUsage"]
    tokens = (usage["uncachedInput"], usage["cacheWrite"], usage["cacheRead"], usage["output"])
    return tokens, row["costUsd"], row["costSource"]


def _claude(ccusage: Path, env: dict[str, str]) -> list[tuple[str, tuple[int, ...], float]]:
    data = _json([str(ccusage), "claude", "session", "--json", "--offline"], env)
    found = []
    for session in data["sessions"]:
        tokens = (
            session["inputTokens"],
            session["cacheCreationTokens"],
            session["cacheReadTokens"],
            session["outputTokens"],
        )
        found.append((str(session["sessionId"]), tokens, float(session["totalCost"])))
    return found


def _codex(ccusage: Path, env: dict[str, str]) -> list[tuple[str, tuple[int, ...], float]]:
    data = _json([str(ccusage), "codex", "session", "--json", "--offline"], env)
    found = []
    for session in data["sessions"]:
        # ccusage's Codex inputTokens exclude the cached ones; outputTokens include reasoning.
        tokens = (
            session["inputTokens"],
            session["cacheCreationTokens"],
            session["cacheReadTokens"],
            session["outputTokens"],
        )
        found.append((str(session["sessionFile"]), tokens, float(session["costUSD"])))
    return found


def _gemini(ccusage: Path, env: dict[str, str]) -> list[tuple[str, tuple[int, ...], float]]:
    data = _json([str(ccusage), "gemini", "session", "--json", "--offline"], env)
    found = []
    for session in data["sessions"]:
        # ccusage prices Gemini's thought tokens as output but leaves them out of
        # outputTokens; they are what totalTokens has beyond the rest.
        shown = session["inputTokens"] + session["cacheReadTokens"] + session["outputTokens"]
        thoughts = session["totalTokens"] - shown
        tokens = (
            session["inputTokens"],
            session["cacheCreationTokens"],
            session["cacheReadTokens"],
            session["outputTokens"] + thoughts,
        )
        found.append((str(session["sessionId"]), tokens, float(session["totalCost"])))
    return found


def _count(value: int | None) -> str:
    return "unknown" if value is None else f"{value:,}"


def _compare(
    cli: str,
    theirs: list[tuple[str, tuple[int, ...], float]],
    ours: dict[tuple[str, str], dict[str, Any]],
) -> tuple[int, int]:
    """Print one CLI's sessions side by side; (sessions compared, sessions with equal tokens)."""
    compared = equal = 0
    for name, tokens, cost in sorted(theirs):
        row = ours.get((cli, name))
        if row is None:
            print(f"  {cli} {name}: ccusage only (linewise found no such session)")
            continue
        mine, my_cost, source = _ours(row)
        compared += 1
        same = True
        print(f"  {cli} {name}")
        for kind, one, other in zip(KINDS, mine, tokens, strict=True):
            note = NOTES.get((cli, kind))
            # An unreported kind (None) is what ccusage shows as 0, and says so.
            agrees = one == other or (one is None and other == 0 and note is not None)
            same = same and agrees
            mark = "" if one == other else f"   ({note})" if agrees else "   <- differs"
            print(f"      {kind:15} linewise {_count(one):>12}  ccusage {other:>12,}{mark}")
            if one == other and note is not None:
                print(f"      {'':15} ({note})")
        equal += same
        shown = "unknown" if my_cost is None else f"${my_cost:.4f} ({source})"
        delta = "" if my_cost is None else f"  (difference ${my_cost - cost:+.6f})"
        print(f"      {'cost':15} linewise {shown:>12}  ccusage ${cost:.4f}{delta}")
    return compared, equal


def _blocks(ccusage: Path, env: dict[str, str]) -> None:
    """Claude's 5-hour billing blocks from both tools, side by side by start time."""
    linewise = [sys.executable, "-c", "import sys; from linewise.cli import main; sys.exit(main())"]
    ours = {
        row["start"]: row
        for row in _json([*linewise, "usage", "blocks", "--cli", "claude", "--json"], env)["rows"]
    }
    theirs = {
        block["startTime"]: block
        for block in _json([str(ccusage), "blocks", "--json", "--offline"], env)["blocks"]
        if not block.get("isGap")
    }
    print("claude billing blocks (start, total tokens, cost):")
    for start in sorted(set(ours) | set(theirs)):
        mine, other = ours.get(start), theirs.get(start)
        left = (
            f"linewise {mine['totalTokens']:>11,} ${mine['costUsd']:.4f}" if mine else "linewise -"
        )
        right = (
            f"ccusage {sum(other['tokenCounts'].values()):>11,} ${other['costUSD']:.4f}"
            if other
            else "ccusage -"
        )
        print(f"  {start}  {left:32}  {right}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ccusage", type=Path, help="a folder where ccusage is installed")
    args = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"skipped: no corpus at {CORPUS}")
        return 0
    if shutil.which("npm") is None and args.ccusage is None:
        print("skipped: npm (Node) is not installed")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        ccusage = (
            args.ccusage / "node_modules" / ".bin" / "ccusage"
            if args.ccusage
            else _install(root / "npm")
        )
        version = subprocess.run(
            [str(ccusage), "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()
        env = _home(root)
        ours = _linewise(env)
        print(f"ccusage {version} (--offline, UTC) against linewise usage session --json")
        totals = []
        for cli, read in (("claude", _claude), ("codex", _codex), ("gemini", _gemini)):
            print(f"{cli}:")
            totals.append((cli, *_compare(cli, read(ccusage, env), ours)))
        _blocks(ccusage, env)
        for cli, compared, equal in totals:
            print(f"{cli}: {compared} sessions compared, tokens equal in {equal}")
        print(
            "the README's usage section says why the sessions only one tool lists, and any "
            "difference above, differ"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
