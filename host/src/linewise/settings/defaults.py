"""Every default and exit code of the host, defined once (the CLI imports them from here)."""

from __future__ import annotations

from typing import Final

__all__ = [
    "CONFIDENT",
    "DETECT_WAIT",
    "EXIT_CANNOT_EXECUTE",
    "EXIT_FAILURE",
    "EXIT_HOST_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_NOT_FOUND",
    "EXIT_OK",
    "EXIT_TIMEOUT",
    "EXIT_USAGE",
    "GRACE",
    "MARGIN",
    "MAX_ENTRIES_PER_LINE",
    "MAX_LINE_CHARS",
    "PEEK_LIMIT",
    "READ_SIZE",
    "SNIFF_LINES",
    "SNIFF_MAX_LINES",
]

#: Longest line handed to a parser; longer lines are cut and shown raw (bounds memory).
MAX_LINE_CHARS: Final = 8 * 1024 * 1024
#: Most entries one line may produce; the rest are dropped and counted.
MAX_ENTRIES_PER_LINE: Final = 10_000
#: Bytes asked for per read of a log, a pipe or an agent's output.
READ_SIZE: Final = 64 * 1024

#: How many non-blank lines of a log the detectors see at a time.
SNIFF_LINES: Final = 40
#: How far into a log detection looks when the first lines are not recognised.
SNIFF_MAX_LINES: Final = 600
#: Most output held back while the format is being detected.
PEEK_LIMIT: Final = 1024 * 1024
#: A detector's score from which it counts as confident.
CONFIDENT: Final = 0.8
#: How far the best score must lead the next one; closer is ambiguous.
MARGIN: Final = 0.1
#: Live runs with ``adapter_type="auto"``: longest wait, from the first stdout byte, to detect.
DETECT_WAIT: Final = 5.0
#: Seconds between SIGTERM and SIGKILL by default (the reference's ``graceSec``).
GRACE: Final = 15.0

EXIT_OK: Final = 0
#: The input could not be read, or a strict-mode failure.
EXIT_FAILURE: Final = 1
#: Bad options or an unknown adapter type.
EXIT_USAGE: Final = 2
#: A run stopped by its timeout (as GNU ``timeout`` reports it).
EXIT_TIMEOUT: Final = 124
#: linewise itself failed (a file to save could not be opened, say).
EXIT_HOST_FAILURE: Final = 125
#: The command exists but cannot be executed (as a shell reports it).
EXIT_CANNOT_EXECUTE: Final = 126
#: The command does not exist (as a shell reports it).
EXIT_NOT_FOUND: Final = 127
#: Stopped by Ctrl-C (the shell's code for SIGINT).
EXIT_INTERRUPTED: Final = 130

#: ``render`` from a pipe: most bytes kept to give the plugin's ``summarize_run`` the run's
#: lines at the end (a regular file is read again instead); past it, no run summary is shown.
SUMMARY_KEEP_BYTES: Final = 64 * 1024 * 1024
