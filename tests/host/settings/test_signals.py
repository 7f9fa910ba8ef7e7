"""A real Ctrl-C or SIGTERM stops a command cleanly; a plugin raising KeyboardInterrupt does not."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from linewise import Registry
from linewise.cli import main
from linewise.plugins.guard import is_import_failure, is_plugin_failure
from linewise.settings.signals import Terminated, arrived, handling, held, stop_behind, time_budget
from support import FakeSite, wait_for_linewise

GOOD = """
def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def sniff(lines):
    return 0.9 if any(line.startswith("good") for line in lines) else 0.0
"""

SNIFF_INTERRUPTS = """
def parse_stdout_line(line, ts):
    return [{"kind": "stdout", "ts": ts, "text": line}]

def sniff(lines):
    raise KeyboardInterrupt
"""

SNIFF_LOOPS = """
def parse_stdout_line(line, ts):
    return [{"kind": "stdout", "ts": ts, "text": line}]

def sniff(lines):
    while True:
        try:
            sum(range(1000))
        except Exception:
            pass
"""

IMPORT_INTERRUPTS = """
raise KeyboardInterrupt

def parse_stdout_line(line, ts):
    return []
"""


@pytest.fixture
def site(fake_site: FakeSite, monkeypatch: pytest.MonkeyPatch) -> FakeSite:
    fake_site.add("good-parser", entry_points={"good": "good_mod"}, modules={"good_mod": GOOD})
    return fake_site


def _use(site: FakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    import linewise.plugins.registry

    monkeypatch.setattr(
        linewise.plugins.registry, "_default", Registry(entry_points=site.entry_points())
    )


def _render(log: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(["render", str(log), "-f", "jsonl"])
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("name", "source"), [("interrupts", SNIFF_INTERRUPTS), ("loops", SNIFF_LOOPS)]
)
def test_a_sniffer_that_raises_keyboardinterrupt_or_loops_does_not_break_detection(  # noqa: PLR0917
    site: FakeSite,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    source: str,
) -> None:
    site.add(f"{name}-parser", entry_points={name: f"{name}_mod"}, modules={f"{name}_mod": source})
    _use(site, monkeypatch)
    log = tmp_path / "run.log"
    log.write_text("good line one\ngood line two\n", encoding="utf-8")
    code, out, err = _render(log, capsys)
    assert code == 0, err
    assert [json.loads(line)["text"] for line in out.splitlines()] == [
        "good line one",
        "good line two",
    ]
    assert "Traceback" not in err


def test_a_plugin_raising_keyboardinterrupt_at_import_is_a_failed_load_not_a_stop(
    site: FakeSite,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    site.add("bad-parser", entry_points={"bad": "bad_mod"}, modules={"bad_mod": IMPORT_INTERRUPTS})
    _use(site, monkeypatch)
    log = tmp_path / "run.log"
    log.write_text("good line\n", encoding="utf-8")
    code, out, _ = _render(log, capsys)
    assert code == 0 and json.loads(out)["text"] == "good line"


def test_only_a_noted_signal_counts_as_the_users_ctrl_c() -> None:
    assert not is_plugin_failure(KeyboardInterrupt())  # a library caller: as Python has it
    with handling():
        assert is_plugin_failure(KeyboardInterrupt())  # no SIGINT came: the plugin's doing
        assert is_import_failure(KeyboardInterrupt())
        with pytest.raises(KeyboardInterrupt):  # noqa: PT012 - the signal lands in the sleep
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        assert not is_plugin_failure(KeyboardInterrupt())
        assert not is_import_failure(KeyboardInterrupt())
        with pytest.raises(Terminated):  # noqa: PT012 - the signal lands in the sleep
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
        assert not is_plugin_failure(Terminated(signal.SIGTERM))
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_a_time_budget_stops_a_loop_that_swallows_exceptions() -> None:
    from linewise.settings.signals import OverBudget

    with handling(), pytest.raises(OverBudget, match="took longer"), time_budget(0.2, "a loop"):  # noqa: PT012
        while True:
            try:
                time.sleep(0.01)
            except Exception:  # the hostile plugin's habit
                continue


@pytest.mark.parametrize(
    ("number", "stop"), [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, Terminated)]
)
def test_a_signal_inside_held_code_is_noted_at_once_and_raised_when_it_is_done(
    number: int, stop: type[BaseException]
) -> None:
    finished = []
    with handling(), pytest.raises(stop), held():  # noqa: PT012 - the signal lands in the sleep
        os.kill(os.getpid(), number)
        time.sleep(0.05)
        assert arrived()
        finished.append(True)
    assert finished == [True]


def test_a_hold_on_another_thread_leaves_the_signal_to_the_main_thread() -> None:
    def hold() -> None:
        with held():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.3)

    worker = threading.Thread(target=hold)
    with handling(), pytest.raises(KeyboardInterrupt):  # noqa: PT012 - lands in the wait
        worker.start()
        while worker.is_alive():
            time.sleep(0.01)
    worker.join()


def test_a_real_signal_re_raised_as_another_exception_is_still_a_stop() -> None:
    plain = RuntimeError("a bug")
    with handling():
        inner = KeyboardInterrupt()
        outer = RuntimeError("Error calling __set_name__")
        outer.__cause__ = inner
        assert stop_behind(outer) is None  # no real signal came: nothing to stop for
        with pytest.raises(KeyboardInterrupt):  # noqa: PT012 - the signal lands in the sleep
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        assert stop_behind(outer) is inner and not is_plugin_failure(outer)
        assert stop_behind(plain) is None and is_plugin_failure(plain)


# -- the command's own process ----------------------------------------------------------

SLOW_IMPORT = """
import os, signal, time
os.kill(os.getpid(), signal.SIGINT)  # as if the user pressed Ctrl-C while plugins import
time.sleep(2)

def parse_stdout_line(line, ts):
    return []
"""


def test_ctrl_c_while_a_plugin_imports_stops_the_command_with_130(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    fake_site.add(
        "slow-parser", entry_points={"slow": "slow_mod"}, modules={"slow_mod": SLOW_IMPORT}
    )
    log = tmp_path / "run.log"
    log.write_text("a line\n", encoding="utf-8")
    script = fake_site.command_script()
    done = subprocess.run(
        [sys.executable, "-c", script, "render", str(log), "-a", "slow"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2]), *sys.path]),
        },
    )
    assert done.returncode == 130, done.stderr
    assert "interrupted" in done.stderr and "Traceback" not in done.stderr
    assert "generic parser" not in done.stderr


HANGS = """
import time

def parse_stdout_line(line, ts):
    if line.startswith("hang"):
        while True:
            time.sleep(0.01)
    return [{"kind": "assistant", "ts": ts, "text": line}]
"""


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_during_a_hung_parse_shows_what_is_there_and_exits_130(
    fake_site: FakeSite, tmp_path: Path, presses: int
) -> None:
    fake_site.add("hang-parser", entry_points={"hang": "hang_mod"}, modules={"hang_mod": HANGS})
    log = tmp_path / "run.log"
    log.write_text("before\nhang here\nafter\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2]), *sys.path])}
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            fake_site.command_script(),
            "render",
            str(log),
            "-a",
            "hang",
            "-f",
            "jsonl",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    wait_for_linewise(process.pid)
    time.sleep(1.5)  # stuck in the second line by now
    for _ in range(presses):
        process.send_signal(signal.SIGINT)
        time.sleep(0.3)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["before"]
    assert "interrupted" in err and "Traceback" not in err
    if presses == 1:  # the hung line and the one after it are not parsed again, but said
        assert "it and the 1 line(s) after it that were read are not shown" in err


#: The command, with a Ctrl-C or SIGTERM arriving while orjson's initialisation imports
#: uuid: until the hold, orjson then read through the NULL it got and died of SIGSEGV.
SIGNAL_INSIDE_ORJSON = """
import os, signal, sys

class SignalAtUuid:
    def find_spec(self, name, path=None, target=None):
        if name == "uuid" and "orjson.orjson" in sys.modules:  # inside orjson's own import
            os.kill(os.getpid(), int(sys.argv.pop(1)))
        return None

assert "orjson" not in sys.modules and "uuid" not in sys.modules
sys.meta_path.insert(0, SignalAtUuid())
from linewise.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize(
    ("number", "code", "said"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "stopped by SIGTERM")],
)
def test_a_signal_while_orjson_initialises_stops_render_cleanly_not_with_sigsegv(
    tmp_path: Path, number: int, code: int, said: str
) -> None:
    log = tmp_path / "run.log"
    log.write_text("a line\n", encoding="utf-8")
    target = tmp_path / "run.jsonl"
    target.write_text("the earlier transcript\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_INSIDE_ORJSON, str(number), "render", str(log),
         "-f", "jsonl", "-o", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == code, (done.returncode, done.stderr)
    assert f"linewise: {said}" in done.stderr and "Traceback" not in done.stderr
    assert target.read_text(encoding="utf-8") == "the earlier transcript\n"


#: The command, with the signal landing while one of the host's dataclasses is defined
#: (in a __set_name__, which Python 3.11 re-raises as RuntimeError): a traceback before.
#: The HTML page's Figures, whose fields have default factories (the contracts' summary
#: classes no longer define dataclass fields at import).
SIGNAL_INSIDE_SET_NAME = """
import dataclasses, os, signal, sys, time

number = int(sys.argv.pop(1))
original = dataclasses.Field.__set_name__

def set_name(self, owner, name):
    if owner.__name__ == "Figures" and name == "run":
        os.kill(os.getpid(), number)
        time.sleep(0.5)  # the handler raises in here
    original(self, owner, name)

dataclasses.Field.__set_name__ = set_name
from linewise.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize(
    ("number", "code", "said"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "stopped by SIGTERM")],
)
def test_a_signal_python_re_raises_as_runtimeerror_still_stops_render_cleanly(
    tmp_path: Path, number: int, code: int, said: str
) -> None:
    log = tmp_path / "run.log"
    log.write_text("a line\n", encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            SIGNAL_INSIDE_SET_NAME,
            str(number),
            "render",
            str(log),
            "-f",
            "html",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == code, (done.returncode, done.stderr)
    assert f"linewise: {said}" in done.stderr and "Traceback" not in done.stderr


#: A plugin that defines a dataclass as it is imported; the Ctrl-C lands in its __set_name__.
IMPORT_DEFINES_A_DATACLASS = """
import os, signal, time

class Field:
    def __set_name__(self, owner, name):
        os.kill(os.getpid(), signal.SIGINT)  # as if the user pressed Ctrl-C right then
        time.sleep(2)

class Settings:
    value = Field()

def parse_stdout_line(line, ts):
    return []
"""


def test_ctrl_c_while_a_plugin_defines_a_class_stops_the_command_not_the_plugin(
    fake_site: FakeSite, tmp_path: Path
) -> None:
    fake_site.add(
        "class-parser",
        entry_points={"cls": "cls_mod"},
        modules={"cls_mod": IMPORT_DEFINES_A_DATACLASS},
    )
    log = tmp_path / "run.log"
    log.write_text("a line\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", fake_site.command_script(), "render", str(log), "-a", "cls"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 130, done.stderr
    assert "interrupted" in done.stderr and "Traceback" not in done.stderr
    assert "generic parser" not in done.stderr


#: A worker pool whose fork gets a Ctrl-C while the parent runs its after-fork callbacks.
CTRL_C_WHILE_FORKING = """
import os, signal, sys
from linewise.settings.signals import handling
from linewise.settings.workers import worker_pool

def ctrl_c_in_parent():
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(1000):  # bytecodes, where the handler runs
        pass

os.register_at_fork(after_in_parent=ctrl_c_in_parent)
with handling():
    try:
        with worker_pool(1, context=__import__("multiprocessing").get_context("fork")) as pool:
            pool.submit(abs, -1).result()
    except KeyboardInterrupt:
        print("stopped at the submission")
"""


@pytest.mark.skipif(sys.platform != "linux", reason="fork and its callbacks: Linux")
def test_a_ctrl_c_while_a_pool_forks_its_workers_stops_the_command_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_FORKING],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.strip() == "stopped at the submission"
