"""The child process driver: real processes, a recording output, the machine carried out."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from linewise.run.child import Phase
from linewise.run.process import Child, spawn
from linewise.settings.errors import AgentStartError


class Recording:
    """A ChildOutput that keeps what it is told, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bytes | str]] = []
        self.ticks = 0

    def stdout(self, chunk: bytes, now: float) -> None:
        self.calls.append(("stdout", chunk))

    def stderr(self, chunk: bytes, now: float) -> None:
        self.calls.append(("stderr", chunk))

    def closed(self, stream: str, now: float) -> None:
        self.calls.append(("closed", stream))

    def say(self, text: str) -> None:
        self.calls.append(("say", text))

    def wake_at(self) -> float | None:
        return None

    def tick(self, now: float) -> None:
        self.ticks += 1

    def joined(self, kind: str) -> bytes:
        return b"".join(data for name, data in self.calls if name == kind)  # type: ignore[misc]


def run(code: str, **options: float | None) -> tuple[Child, Recording]:
    output = Recording()
    process = spawn([sys.executable, "-c", code], env={}, cwd=None, shown="python")
    child = Child(
        process, output, timeout=options.get("timeout"), grace=options.get("grace") or 1.0
    )
    child.run()
    return child, output


def test_output_of_both_pipes_arrives_and_both_ends_are_reported() -> None:
    code = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    child, output = run(code)
    assert (child.returncode, child.machine.phase) == (3, Phase.DONE)
    assert output.joined("stdout") == b"out\n" and output.joined("stderr") == b"err\n"
    assert sorted(data for name, data in output.calls if name == "closed") == [
        "stderr",
        "stdout",
    ]
    assert output.ticks >= 1
    assert child.process.stdout is not None and child.process.stdout.closed


def test_the_timeout_is_carried_out_and_said() -> None:
    child, output = run("import time; print('ready', flush=True); time.sleep(30)", timeout=0.3)
    assert child.machine.timed_out and child.returncode == -15
    said = [text for name, text in output.calls if name == "say"]
    assert said == [
        "timed out after 0.3s: sent SIGTERM to the agent's process group; "
        "SIGKILL in 1s if it is still running"
    ]


def test_an_error_in_the_output_leaves_no_child_behind() -> None:
    class Failing(Recording):
        def stdout(self, chunk: bytes, now: float) -> None:
            raise RuntimeError("the host app fell over")

    process = spawn(
        [sys.executable, "-c", "import time; print('x', flush=True); time.sleep(30)"],
        env={},
        cwd=None,
        shown="python",
    )
    child = Child(process, Failing(), timeout=None, grace=0.5)
    with pytest.raises(RuntimeError, match="fell over"):
        child.run()
    assert process.poll() is not None  # terminated and reaped


@pytest.mark.parametrize(
    ("argv", "message", "code"),
    [
        (["no-such-agent-cli"], "command not found: no-such-agent-cli", 127),
        (["/"], "permission denied: /", 126),
    ],
)
def test_a_command_that_cannot_start_is_an_agent_start_error(
    argv: list[str], message: str, code: int
) -> None:
    with pytest.raises(AgentStartError) as caught:
        spawn(argv, env={}, cwd=None, shown=argv[0])
    assert message in str(caught.value) and caught.value.exit_code == code


def test_a_file_that_is_no_program_cannot_execute(tmp_path: Path) -> None:
    garbage = tmp_path / "agent"
    garbage.write_bytes(b"\x00\x01 not a program\n")
    garbage.chmod(0o755)
    with pytest.raises(AgentStartError, match=r"cannot execute \(Exec format error\)") as caught:
        spawn([str(garbage)], env={}, cwd=None, shown="agent")
    assert caught.value.exit_code == 126
