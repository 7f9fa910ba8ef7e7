"""The host's log: logging imported only when a record is kept, records as logging would keep them."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from linewise.settings.logs import HostLog

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "claude-sample.jsonl"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )


def test_a_render_that_logs_nothing_never_imports_logging() -> None:
    done = _python(
        "import sys\n"
        "from linewise.cli import main\n"
        f"code = main(['render', {str(SAMPLE)!r}, '-a', 'claude_local', '-f', 'jsonl'])\n"
        "print('logging' in sys.modules, code, file=sys.stderr)\n"
    )
    assert done.stderr.strip().splitlines()[-1] == "False 0"
    assert done.stdout.count("\n") >= 10  # the entries were written


def test_the_command_line_shows_warnings_neutralised_and_drops_information() -> None:
    done = _python(
        "import sys\n"
        "from linewise.settings.logs import logger\n"
        "logger.configure(verbose=False)\n"
        "logger.info('not shown')\n"
        "logger.warning('shown: %s', 'a bell \\x07 here')\n"
    )
    assert done.stderr == "linewise: warning: shown: a bell \u2407 here\n"


def test_verbose_shows_information_too() -> None:
    done = _python(
        "from linewise.settings.logs import logger\n"
        "logger.configure(verbose=True)\n"
        "logger.debug('never')\n"
        "logger.info('loaded %d plugins', 3)\n"
    )
    assert done.stderr == "linewise: info: loaded 3 plugins\n"


def test_a_library_user_who_set_up_nothing_sees_warnings_as_logging_shows_them() -> None:
    done = _python(
        "from linewise.settings.logs import logger\n"
        "logger.info('dropped')\n"
        "logger.warning('skipped %s', 'x')\n"
    )
    assert done.stderr == "skipped x\n"  # logging's last-resort handler, as before


def test_a_host_app_that_uses_logging_gets_every_record_its_levels_allow(
    caplog: pytest.LogCaptureFixture,
) -> None:
    log = HostLog()
    with caplog.at_level(logging.DEBUG, logger="linewise"):
        log.debug("cache not written to %s", "/tmp/x")
        try:
            raise ValueError("boom")
        except ValueError as error:
            log.error("hook raised", exc_info=error)
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("DEBUG", "cache not written to /tmp/x"),
        ("ERROR", "hook raised"),
    ]
    assert caplog.records[1].exc_info is not None
