"""A log no sniffer recognises asks every installed format where it keeps sessions (is the
file in a store?): of a declared format that imports its ``session_stores`` alone, no parser."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: In a fresh interpreter: read a plain-text log as ``linewise render`` does, then list the
#: parser modules of installed declared formats that got imported (by reference).
_PROBE = """
import json, sys
from importlib.metadata import entry_points
from linewise import get_registry
from linewise.sessions.inputs import session_input

registry = get_registry()
assert session_input({path!r}, "auto", registry) is None  # an ordinary log
parsers = set()
for point in entry_points(group="linewise.parsers"):
    module, _, attribute = point.value.partition(":")
    if not attribute.startswith("agent."):
        continue
    target = point.load()
    agent = getattr(sys.modules[module], "agent", None)
    for field in ("parse_stdout_line", "create_stdout_parser"):
        reference = target.references().get(field)
        name = reference.partition(":")[0] if reference else None
        if name and getattr(sys.modules.get(name), "agent", None) is not agent:
            parsers.add(name)  # a parser module apart from the one declaring the agent
print(json.dumps({{"formats": len(registry.adapter_types), "imported": sorted(
    name for name in parsers if name in sys.modules
)}}))
"""


def test_an_undetected_log_imports_no_parser_to_ask_about_session_stores(tmp_path: Path) -> None:
    log = tmp_path / "notes.log"
    log.write_text("a plain line no agent CLI wrote\n", encoding="utf-8")
    # Loading the targets afterwards imports packages only: parser modules imported by then
    # were imported by the search.
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(path=str(log))],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["formats"] > 10  # the workspace's plugins are installed and were asked
    assert found["imported"] == []
