"""Discovery: the installed parser plugins, read from entry points without importing them."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from linewise_contracts.protocols import (
    ENTRY_POINT_GROUP,
    adapter_type_problem,
    entry_point_value_problem,
)

__all__ = ["Candidate", "adapter_type_problem", "entry_point_value_problem", "scan"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One ``linewise.parsers`` entry point: a distribution's claim on an adapter type."""

    adapter_type: str
    value: str
    distribution: str | None
    version: str | None
    summary: str | None
    requires: tuple[str, ...] | None
    # Where the distribution sits on sys.path: the first place wins a duplicate claim.
    path_rank: int
    entry_point: EntryPoint

    @property
    def module(self) -> str:
        """The module part of the entry point value."""
        return self.value.split(":", 1)[0].strip()

    @property
    def attribute(self) -> str | None:
        """The attribute part of the entry point value, if any."""
        if ":" not in self.value:
            return None
        return self.value.split(":", 1)[1].split("[", 1)[0].strip() or None


def _path_ranks() -> dict[str, int]:
    ranks: dict[str, int] = {}
    for index, entry in enumerate(sys.path):
        ranks.setdefault(os.path.realpath(entry or os.curdir), index)
    return ranks


def _candidate(point: EntryPoint, ranks: dict[str, int]) -> Candidate:
    dist = point.dist
    name = version = summary = None
    requires: tuple[str, ...] | None = None
    rank = len(ranks) + 1
    if dist is not None:
        # One read of METADATA gives name, version, summary and Requires-Dist.
        metadata = dist.metadata
        name = metadata["Name"]
        version = metadata["Version"]
        summary = metadata["Summary"]
        requires = tuple(metadata.get_all("Requires-Dist") or ())
        location = dist.locate_file("")
        rank = ranks.get(os.path.realpath(str(location)), rank)
    return Candidate(
        adapter_type=point.name,
        value=point.value,
        distribution=name,
        version=version,
        summary=summary,
        requires=requires,
        path_rank=rank,
        entry_point=point,
    )


def scan(points: Iterable[EntryPoint] | None = None) -> list[Candidate]:
    """Every claim in the ``linewise.parsers`` group, read from installed metadata only.

    ``points`` replaces the environment's entry points (for host apps that
    assemble their own set, and for tests).
    """
    if points is None:
        points = entry_points(group=ENTRY_POINT_GROUP)
    ranks = _path_ranks()
    return [_candidate(point, ranks) for point in points]
