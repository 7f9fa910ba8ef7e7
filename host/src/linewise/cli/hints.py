"""A word for whoever named the wrong adapter: its parser recognised (almost) nothing."""

from __future__ import annotations

from typing import IO, Final

from linewise.cli.common import logger
from linewise.plugins.generic import GENERIC_ADAPTER_TYPE
from linewise.plugins.registry import Registry
from linewise.settings.defaults import SNIFF_MAX_LINES
from linewise.stream.diagnostics import Diagnostics
from linewise.stream.lines import read_lines
from linewise.transcript.fold import RunFold

__all__ = ["MOSTLY_RAW", "warn_if_unrecognised"]

#: Share of lines shown raw from which a named parser "recognised almost nothing".
MOSTLY_RAW: Final = 0.9
#: Share of lines shown raw or giving no entry at all from which auto-detection is asked
#: whether another parser fits better (it warns when one clearly does).
SUSPECT: Final = 0.3
#: Fewer lines than this say too little to warn about.
FEWEST_LINES: Final = 3


def warn_if_unrecognised(
    adapter_type: str,
    diagnostics: Diagnostics,
    stats: RunFold,
    log: IO[bytes] | None,
    registry: Registry,
    *,
    max_line_chars: int,
) -> None:
    """Warn when the parser the user named showed (nearly) every line raw, and name the
    adapter type auto-detection picks for the same log (``log``, read from its start)."""
    lines = diagnostics.lines
    if adapter_type == GENERIC_ADAPTER_TYPE or lines < FEWEST_LINES:
        return
    raw = min(stats.raw_lines, lines)
    # A line the parser dropped (no entry at all) is no more recognised than a raw one.
    unread = min(raw + diagnostics.lines_without_entries, lines)
    almost_nothing = raw >= MOSTLY_RAW * lines or unread >= MOSTLY_RAW * lines
    if not almost_nothing and unread < SUSPECT * lines:
        return
    said = (
        f"the {adapter_type} parser recognised almost nothing: "
        f"{raw} of {lines} lines shown as raw stdout"
    )
    if diagnostics.lines_without_entries:
        said += f", {diagnostics.lines_without_entries} gave no entry"
    if not almost_nothing:
        said = (
            f"the {adapter_type} parser read only {lines - unread} of {lines} lines "
            f"({raw} shown as raw stdout, {diagnostics.lines_without_entries} gave no entry)"
        )
    if log is None:
        if almost_nothing:
            logger.warning("%s; is it the right adapter type? (try -a auto)", said)
        return
    from linewise.stream.detect import detect_adapter

    log.seek(0)
    first: list[str] = []
    for line in read_lines(log, max_chars=max_line_chars):
        first.append(line)
        if len(first) >= SNIFF_MAX_LINES:
            break
    detection = detect_adapter(first, registry=registry)
    if detection.detected and detection.adapter_type != adapter_type:
        logger.warning(
            "%s; auto-detection picks %s for this log (-a %s or -a auto)",
            said,
            detection.adapter_type,
            detection.adapter_type,
        )
    elif almost_nothing:
        logger.warning("%s; auto-detection recognises no installed parser either", said)
