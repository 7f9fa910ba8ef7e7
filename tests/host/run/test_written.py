"""Files linewise writes: a Ctrl-C never writes the same bytes twice; errors name the file."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from types import FrameType

import pytest
from linewise.run.written import NamedRaw, OutputError


def _interrupted_once_out(path: Path, stream: io.TextIOWrapper) -> None:
    """Flush ``stream`` with a KeyboardInterrupt raised as the first C call returns after
    the bytes reached ``path``: where a real Ctrl-C lands (the check after a call)."""
    fired: list[str] = []

    def hook(frame: FrameType, event: str, arg: object) -> None:
        if event == "c_return" and not fired and path.stat().st_size > 0:
            fired.append(frame.f_code.co_name)
            raise KeyboardInterrupt

    sys.setprofile(hook)
    try:
        with pytest.raises(KeyboardInterrupt):
            stream.flush()
    finally:
        sys.setprofile(None)
    assert fired, "the interrupt never came"


def test_a_ctrl_c_as_the_bytes_go_out_leaves_them_written_once(tmp_path: Path) -> None:
    # The last line of a followed session was shown twice: the buffer took the interrupted
    # write for a failed one and wrote the same bytes again when the stream closed.
    path = tmp_path / "out.txt"
    raw = NamedRaw(os.open(path, os.O_WRONLY | os.O_CREAT), "out.txt")
    stream = io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8")
    stream.write("It is test_io.\n")
    _interrupted_once_out(path, stream)
    stream.write("after\n")
    stream.close()
    assert path.read_text(encoding="utf-8") == "It is test_io.\nafter\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_write_error_names_the_file_once_and_what_follows_is_dropped() -> None:
    raw = NamedRaw(os.open("/dev/full", os.O_WRONLY), "stdout")
    stream = io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8")
    stream.write("x" * 10)
    with pytest.raises(OutputError, match="cannot write stdout: No space left on device"):
        stream.flush()
    stream.write("more")
    stream.flush()
    stream.close()  # no second, chained error
    assert stream.closed
