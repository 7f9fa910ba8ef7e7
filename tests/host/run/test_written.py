"""Files linewise writes: a Ctrl-C never writes the same bytes twice, errors name the file."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from linewise.run import written
from linewise.run.written import NamedRandom, NamedWriter, OutputError


def _interrupt_as_a_write_returns(call: Any) -> list[str]:
    """Run ``call`` with a KeyboardInterrupt raised as the first write or flush of
    linewise.run.written returns: where a real Ctrl-C lands, the instruction after a call."""
    fired: list[str] = []

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if event == "return" and not fired and frame.f_code.co_name in ("write", "flush"):
            fired.append(frame.f_code.co_name)
            raise KeyboardInterrupt
        return local

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename == written.__file__ else None

    sys.settrace(tracer)
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        sys.settrace(None)
    return fired


def test_a_ctrl_c_as_a_write_returns_leaves_the_text_written_once(tmp_path: Path) -> None:
    # The last line of a followed session was shown twice: the interrupted write was taken
    # for a failed one and written again when the stream closed.
    path = tmp_path / "out.txt"
    stream = io.TextIOWrapper(
        NamedWriter(os.open(path, os.O_WRONLY | os.O_CREAT), "out.txt"), encoding="utf-8"
    )
    stream.write("It is test_io.\n")
    assert _interrupt_as_a_write_returns(stream.flush)
    stream.close()
    assert path.read_text(encoding="utf-8") == "It is test_io.\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_write_error_names_the_file_once_and_what_follows_is_dropped() -> None:
    stream = io.TextIOWrapper(NamedWriter(os.open("/dev/full", os.O_WRONLY), "stdout"))
    stream.write("x" * 10)
    with pytest.raises(OutputError, match="cannot write stdout: No space left on device"):
        stream.flush()
    stream.write("more")
    stream.flush()
    stream.close()  # no second, chained error
    assert stream.closed


def test_a_file_read_back_is_written_and_read_through_one_buffer(tmp_path: Path) -> None:
    path = tmp_path / "log"
    log = NamedRandom(os.open(path, os.O_RDWR | os.O_CREAT), str(path))
    log.write(b"one\ntwo\n")
    log.seek(0)
    assert log.read() == b"one\ntwo\n"
    log.close()
    assert path.read_bytes() == b"one\ntwo\n"
