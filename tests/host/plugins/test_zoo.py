"""A zoo of broken plugins, installed for real: the host serves every line; list and check say why.

Each plugin is an installed distribution (dist-info with METADATA and
entry_points.txt, plus its module) in a temporary site directory put on
PYTHONPATH, and the real ``linewise`` command runs against it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from linewise_contracts import CONTRACT_VERSION
from support import FakeSite

LINEWISE = str(Path(sys.executable).with_name("linewise"))
GOOD_REQUIRES = ["linewise-contracts>=1.0,<2"]
ECHO = "[{'kind': 'assistant', 'ts': ts, 'text': 'echo:' + line}]"


@dataclass(frozen=True)
class Specimen:
    adapter_type: str
    source: str
    list_status: str
    list_reason: str
    # What `linewise check` reports; None for the guard's attacks, whose coverage by
    # check is tested with the compliance kit.
    failing_check: str | None
    check_message: str
    requires: tuple[str, ...] = tuple(GOOD_REQUIRES)
    distribution: str | None = None


def _parser(body: str, prelude: str = "") -> str:
    return f"{prelude}\ndef parse_stdout_line(line, ts):\n{body}\n"


ZOO = [
    Specimen(
        "zoo_import_error",
        "import zoo_native_library_that_is_missing\n" + _parser(f"    return {ECHO}"),
        "failed",
        "import failed: ModuleNotFoundError: No module named 'zoo_native_library_that_is_missing'",
        "import",
        "No module named 'zoo_native_library_that_is_missing'",
    ),
    Specimen(
        "zoo_raises_at_import",
        "raise RuntimeError('config file ~/.zoo missing')\n",
        "failed",
        "raised at import: RuntimeError: config file ~/.zoo missing",
        "import",
        "RuntimeError: config file ~/.zoo missing",
    ),
    Specimen(
        "zoo_exports_nothing",
        "LABEL = 'nothing to see'\n",
        "failed",
        "exports neither parse_stdout_line nor create_stdout_parser",
        "exports",
        "exports neither parse_stdout_line nor create_stdout_parser",
    ),
    Specimen(
        "zoo_wrong_signature",
        "def parse_stdout_line(line):\n    return []\n",
        "failed",
        "parse_stdout_line cannot be called as parse_stdout_line(line, ts)",
        "exports",
        "parse_stdout_line cannot be called as parse_stdout_line(line, ts)",
    ),
    Specimen(
        "zoo_incompatible",
        _parser(f"    return {ECHO}"),
        "incompatible",
        f"declares linewise-contracts<3,>=2, which excludes this host's contract {CONTRACT_VERSION}",
        "metadata.contract",
        f"excludes this host's contract {CONTRACT_VERSION}",
        requires=("linewise-contracts>=2,<3",),
    ),
    Specimen(
        "zoo_malformed_range",
        _parser(f"    return {ECHO}"),
        "incompatible",
        "cannot read the contract requirement",
        "metadata.contract",
        "cannot read the contract requirement",
        requires=("linewise-contracts>=>1",),
    ),
    Specimen(
        "zoo_throws_on_some",
        _parser(
            f"    if 'boom' in line:\n        raise ValueError('cannot parse boom')\n    return {ECHO}"
        ),
        "loaded",
        "",
        "parse.valid",
        "line 2: raised ValueError: cannot parse boom: 'boom here'",
    ),
    Specimen(
        "zoo_throws_always",
        _parser("    raise KeyError('type')"),
        "loaded",
        "",
        "parse.valid",
        "raised KeyError: 'type'",
    ),
    Specimen(
        "zoo_not_a_list",
        _parser("    return {'kind': 'assistant', 'ts': ts, 'text': line}"),
        "loaded",
        "",
        "parse.valid",
        "returned dict, not a list",
    ),
    Specimen(
        "zoo_invalid_entries",
        _parser("    return [{'kind': 'assistant', 'ts': ts, 'txt': line}]"),
        "loaded",
        "",
        "parse.valid",
        "invalid entry: assistant.text is missing",
    ),
    Specimen(
        "zoo_gigantic",
        _parser("    return [{'kind': 'assistant', 'ts': ts, 'text': 'x' * 3_000_000}]"),
        "loaded",
        "",
        "parse.valid",
        "characters of text for a",
    ),
    Specimen(
        "zoo_hangs",
        _parser(
            f"    if 'slow' in line:\n        time.sleep(1.5)\n    return {ECHO}", "import time"
        ),
        "loaded",
        "",
        "parse.valid",
        "line 3: hung: still running after 0.5 s: 'slow one'",
    ),
    Specimen(
        "zoo_mutates_globals",
        _parser(
            f"    random.seed(7)\n    return {ECHO}",
            "import os, random, sys\nsys.path.append('/zoo/extra')\nos.environ['ZOO_WAS_HERE'] = '1'",
        ),
        "loaded",
        "",
        "import.side_effects",
        "side effect(s) during import",
    ),
    Specimen(
        "zoo_touches_world",
        _parser(
            f"    return {ECHO}",
            "import socket, tempfile\n"
            "with open(tempfile.gettempdir() + '/zoo-was-here.txt', 'w') as f:\n    f.write('x')\n"
            "socket.socket().close()",
        ),
        "loaded",
        "",
        "import.side_effects",
        "side effect(s) during import",
    ),
    Specimen(
        "claude_local",
        _parser(f"    return {ECHO}"),
        "loaded",  # first on sys.path: it wins, and says who it shadows
        "also claimed by linewise-claude (shadowed)",
        "metadata.duplicates",
        "claude_local is also claimed by",
        distribution="zoo-claude-clone",
    ),
]


def _guard_attack(adapter_type: str, source: str, status: str, reason: str) -> Specimen:
    """An attack on the plugin guard: ``list --load`` shows ``reason`` (or a problem)."""
    return Specimen(adapter_type, source, status, reason, None, "")


_ECHO_PARSER = _parser(f"    return {ECHO}")

# The attacks of the adversarial review (issue #13): each once failed the whole host.
GUARD_ATTACKS = [
    _guard_attack(
        "zoo_lazy_getattr",
        _ECHO_PARSER
        + "import importlib\n"
        + "def __getattr__(name):\n"
        + "    return importlib.import_module(__name__ + '.' + name)\n",
        "loaded",
        "looking up 'create_stdout_parser' raised ModuleNotFoundError",
    ),
    _guard_attack(
        "zoo_label_raises",
        _ECHO_PARSER
        + "def __getattr__(name):\n"
        + "    if name == 'label':\n"
        + "        raise SystemExit('no label')\n"
        + "    raise AttributeError(name)\n",
        "loaded",
        "looking up 'label' raised SystemExit: no label",
    ),
    _guard_attack(
        "zoo_signature_raises",
        "class Parse:\n"
        "    @property\n"
        "    def __signature__(self):\n"
        "        raise RuntimeError('no signature')\n"
        f"    def __call__(self, line, ts):\n        return {ECHO}\n"
        "parse_stdout_line = Parse()\n",
        "failed",
        "checking the exports raised RuntimeError: no signature",
    ),
    _guard_attack(
        "zoo_factory_exits",
        "import sys\ndef create_stdout_parser():\n    sys.exit(3)\n",
        "failed",
        "create_stdout_parser() raised SystemExit: 3",
    ),
    _guard_attack(
        "zoo_generator_exit_at_import",
        "raise GeneratorExit('closing')\n",
        "failed",
        "raised at import: GeneratorExit: closing",
    ),
    _guard_attack(
        "zoo_ctrl_c_at_import",
        "raise KeyboardInterrupt\n",
        "failed",
        "raised at import: KeyboardInterrupt",
    ),
    _guard_attack(
        "zoo_reset_exits",
        "import sys\n"
        "class Parser:\n"
        "    def parse_line(self, line, ts):\n"
        "        if 'boom' in line:\n"
        "            raise ValueError('boom')\n"
        f"        return {ECHO}\n"
        "    def reset(self):\n"
        "        sys.exit('no reset')\n"
        "    def finish(self, ts):\n"
        "        raise GeneratorExit\n"
        "def create_stdout_parser():\n"
        "    return Parser()\n",
        "loaded",
        "",
    ),
    *(
        _guard_attack(f"zoo_sniff_{name}", _ECHO_PARSER + body, "loaded", "")
        for name, body in {
            "huge": "def sniff(lines):\n    return 10**400\n",
            "nan": "def sniff(lines):\n    return float('nan')\n",
            "word": "def sniff(lines):\n    return 'sure'\n",
            "exits": "import sys\ndef sniff(lines):\n    sys.exit(1)\n",
            "clears": "def sniff(lines):\n    lines.clear()\n    return 0.0\n",
        }.items()
    ),
    _guard_attack(
        "zoo_summary_closes",
        _ECHO_PARSER + "def summarize_run(lines):\n    raise GeneratorExit('no summary')\n",
        "loaded",
        "",
    ),
    _guard_attack(
        "zoo_formatter_exits",
        _ECHO_PARSER + "import sys\ndef format_stdout_line(line):\n    sys.exit(2)\n",
        "loaded",
        "",
    ),
    _guard_attack(
        "zoo_unhashable_level",
        _ECHO_PARSER
        + "from linewise_contracts.environment import EnvironmentCheck\n"
        + "def check_environment(environ=None):\n"
        + "    return [EnvironmentCheck(code='odd', level=['error'], message='list level')]\n",
        "loaded",
        "",
    ),
]
ZOO += GUARD_ATTACKS

LINES = ["first line", "boom here", "slow one", "last line"]


@pytest.fixture(scope="module")
def zoo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    site = FakeSite(tmp_path_factory.mktemp("zoo") / "site")
    site.root.mkdir()
    for specimen in ZOO:
        # A package shipping the sample lines, as plugins do for `linewise check`.
        package = f"{specimen.adapter_type}_plugin"
        site.add(
            specimen.distribution or specimen.adapter_type.replace("_", "-"),
            entry_points={specimen.adapter_type: package},
            requires=list(specimen.requires),
            modules={f"{package}.__init__": specimen.source},
            files={f"{package}/samples/run.log": "\n".join(LINES) + "\n"},
        )
    return {**os.environ, "PYTHONPATH": str(site.root)}


def _run(
    env: dict[str, str], *args: str, stdin: bytes | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINEWISE, *args],
        input=stdin.decode() if stdin else None,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def listing(zoo: dict[str, str]) -> dict[tuple[str, str | None], dict[str, Any]]:
    done = _run(zoo, "list", "--load", "--json")
    assert done.returncode == 0, done.stderr
    return {(p["adapterType"], p["distribution"]): p for p in json.loads(done.stdout)["parsers"]}


@pytest.mark.parametrize("specimen", ZOO, ids=lambda s: s.adapter_type)
def test_the_host_serves_every_line(zoo: dict[str, str], specimen: Specimen) -> None:
    done = _run(
        zoo,
        "render",
        "-",
        "-a",
        specimen.adapter_type,
        "-f",
        "jsonl",
        "--ts",
        "2026-01-01T00:00:00Z",
        stdin="\n".join(LINES).encode(),
    )
    assert done.returncode == 0, done.stderr
    entries = [json.loads(line) for line in done.stdout.splitlines()]
    texts = " ".join(str(entry.get("text", "")) for entry in entries)
    for line in LINES:
        assert line in texts, f"{line!r} lost"
    assert "4 lines" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("specimen", ZOO, ids=lambda s: s.adapter_type)
def test_list_says_what_is_wrong(
    listing: dict[tuple[str, str | None], dict[str, Any]], specimen: Specimen
) -> None:
    distribution = specimen.distribution or specimen.adapter_type.replace("_", "-")
    info = listing[(specimen.adapter_type, distribution)]
    assert info["status"] == specimen.list_status
    assert specimen.list_reason in " ".join([info["reason"] or "", *info["problems"]])


def test_the_shadowed_distribution_is_named(
    listing: dict[tuple[str, str | None], dict[str, Any]],
) -> None:
    info = listing[("claude_local", "linewise-claude")]
    assert info["status"] == "shadowed"
    assert info["shadowedBy"] == "zoo-claude-clone"


@pytest.mark.parametrize(
    "specimen", [s for s in ZOO if s.failing_check], ids=lambda s: s.adapter_type
)
def test_check_says_what_is_wrong(zoo: dict[str, str], specimen: Specimen) -> None:
    target = specimen.distribution or specimen.adapter_type.replace("_", "-")
    # Fuzzing is off: every specimen breaks on its own sample lines (fuzzing is covered
    # in tests/contracts/test_compliance.py).
    done = _run(zoo, "check", target, "--json", "--examples", "0", "--line-timeout", "0.5")
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(done.stdout)
    failing = {
        (r["check"], " ".join([r["message"], *r["details"]]))
        for r in report["results"]
        if r["status"] == "fail"
    }
    assert any(
        check == specimen.failing_check and specimen.check_message in message
        for check, message in failing
    ), failing


def test_auto_detection_survives_every_sniffer_in_the_zoo(zoo: dict[str, str]) -> None:
    # Without -a every plugin is imported and every sniffer called: the headline attack.
    done = _run(
        zoo,
        "render",
        "-",
        "-f",
        "jsonl",
        "--ts",
        "2026-01-01T00:00:00Z",
        stdin="\n".join(LINES).encode(),
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    texts = " ".join(json.loads(line).get("text", "") for line in done.stdout.splitlines())
    assert all(line in texts for line in LINES)
    for problem in (
        "zoo_sniff_exits: sniff raised SystemExit: 1",
        "zoo_sniff_huge: sniff returned a number that is not a float",
        "zoo_sniff_nan: sniff returned nan",
        "zoo_sniff_word: sniff returned a str",
        "zoo_ctrl_c_at_import",
    ):
        assert problem in done.stderr, problem


def test_summarize_and_doctor_survive_the_zoo(zoo: dict[str, str], tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    log.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    done = _run(zoo, "summarize", str(log), "-a", "zoo_summary_closes")
    assert "Traceback" not in done.stderr, done.stderr
    assert "GeneratorExit: no summary" in done.stderr + done.stdout
    done = _run(zoo, "doctor", "--json")
    assert "Traceback" not in done.stderr, done.stderr
    adapters = {a["adapterType"]: a for a in json.loads(done.stdout)["adapters"]}
    assert adapters["zoo_unhashable_level"]["status"] == "fail"
    assert adapters["zoo_factory_exits"]["status"] == "fail"
