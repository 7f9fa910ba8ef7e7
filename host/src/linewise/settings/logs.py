"""The host's log, the ``linewise`` logger of :mod:`logging`, imported when a record is kept.

Importing :mod:`logging` (with threading, traceback, string ...) costs about 20 M
instructions, 7% of a one-line ``linewise render``, which logs nothing. ``logger``
here takes the calls every host module makes (``logger.warning("%s", why)``)
and hands each to ``logging.getLogger("linewise")`` as it comes, importing
:mod:`logging` first when the record can be shown: always when a host app has
imported :mod:`logging` itself (its levels and handlers then decide, as they
did), else only from ``WARNING`` up, or from the level the command line asked
for (:meth:`HostLog.configure`); anything below would have been dropped by a logger
nobody configured. The ``linewise`` command's handler (neutralised text on
stderr, prefixed ``linewise:``) is set up with the first record shown.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TYPE_CHECKING, Final, TypeAlias

from linewise.settings.sanitising import neutralize

if TYPE_CHECKING:
    import logging

__all__ = [
    "DEBUG",
    "ERROR",
    "INFO",
    "LOGGER_NAME",
    "WARNING",
    "ExceptionInfo",
    "HostLog",
    "logger",
]

LOGGER_NAME: Final = "linewise"
#: What ``exc_info`` takes: an exception, or its ``(type, value, traceback)``, or None.
ExceptionInfo: TypeAlias = (
    BaseException | tuple[type[BaseException], BaseException, TracebackType | None] | None
)
# logging's levels, the same numbers (logging is not imported to read them).
DEBUG: Final = 10
INFO: Final = 20
WARNING: Final = 30
ERROR: Final = 40


class HostLog:
    """The host's calls to the ``linewise`` logger; :mod:`logging` imported to keep a record."""

    __slots__ = ("_pending", "_threshold")

    def __init__(self) -> None:
        #: Below this level, a record is dropped while no one has imported logging.
        self._threshold = WARNING
        #: The command line's handler setup, made with the first record shown (or None).
        self._pending: bool | None = None

    def configure(self, *, verbose: bool) -> None:
        """The ``linewise`` command's setup: warnings (and with ``verbose`` information) on
        stderr, neutralised and prefixed ``linewise:``, not passed on to the root logger."""
        self._threshold = INFO if verbose else WARNING
        self._pending = verbose
        if "logging" in sys.modules:
            self._logger()

    def _logger(self) -> logging.Logger:
        import logging

        logger = logging.getLogger(LOGGER_NAME)
        if self._pending is not None:
            logger.handlers[:] = [_command_handler()]
            logger.setLevel(logging.INFO if self._pending else logging.WARNING)
            logger.propagate = False
            self._pending = None
        return logger

    def log(self, level: int, message: str, *args: object, exc_info: ExceptionInfo = None) -> None:
        """``logging.getLogger("linewise").log(level, message, *args)`` when it can be shown
        (``exc_info``: an exception and its traceback, shown after the message)."""
        if level < self._threshold and "logging" not in sys.modules:
            return
        self._logger().log(level, message, *args, exc_info=exc_info)

    def debug(self, message: str, *args: object) -> None:
        self.log(DEBUG, message, *args)

    def info(self, message: str, *args: object) -> None:
        self.log(INFO, message, *args)

    def warning(self, message: str, *args: object, exc_info: ExceptionInfo = None) -> None:
        self.log(WARNING, message, *args, exc_info=exc_info)

    def error(self, message: str, *args: object, exc_info: ExceptionInfo = None) -> None:
        self.log(ERROR, message, *args, exc_info=exc_info)


def _command_handler() -> logging.Handler:
    """The command line's handler: the record's level and neutralised text on stderr."""
    import logging

    class CommandFormatter(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return f"linewise: {record.levelname.lower()}: {neutralize(record.getMessage())}"

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(CommandFormatter())
    return handler


#: The one log of the host: every module logs through it.
logger: Final = HostLog()
