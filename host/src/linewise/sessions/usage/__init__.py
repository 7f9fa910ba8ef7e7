"""Usage reports: what the sessions on disk (or the logs given) used and cost, by period,
session, model or project, and Claude's 5-hour billing blocks.

Reports are built from the facts ``linewise sessions`` caches (one
:class:`UsageRecord` per session), so a warm report reads no session file.
"""

from __future__ import annotations

from linewise.sessions.usage._blocks import BLOCK_HOURS, Block, billing_blocks
from linewise.sessions.usage._record import NO_MODEL, UsageRecord, record_of
from linewise.sessions.usage._report import GROUPINGS, Grouping, Report, usage_report
from linewise.sessions.usage._totals import Contribution, Totals

__all__ = [
    "BLOCK_HOURS",
    "GROUPINGS",
    "NO_MODEL",
    "Block",
    "Contribution",
    "Grouping",
    "Report",
    "Totals",
    "UsageRecord",
    "billing_blocks",
    "record_of",
    "usage_report",
]
