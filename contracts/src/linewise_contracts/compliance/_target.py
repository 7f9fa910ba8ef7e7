"""What ``linewise check`` is pointed at: an adapter type, a distribution, or a project path."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from linewise_contracts.compliance._installed import installed_entry_points
from linewise_contracts.protocols import ENTRY_POINT_GROUP

__all__ = ["Target", "TargetError", "resolve_target"]

_NAME = re.compile(r"[-_.]+")


def canonical(name: str) -> str:
    """A distribution name as pip compares them."""
    return _NAME.sub("-", name).lower()


class TargetError(LookupError):
    """The target names nothing checkable; the message says what was tried."""


@dataclass(frozen=True, slots=True)
class Target:
    """Everything the checks need to know about a plugin before importing it."""

    label: str
    kind: Literal["path", "distribution", "adapter type"]
    distribution: str | None
    version: str | None
    requires: tuple[str, ...] | None
    entry_points: tuple[tuple[str, str], ...]
    # Directories put first on sys.path in the worker (a project checked from source).
    paths: tuple[str, ...] = ()
    # Which adapter types to check (all of the distribution's unless one was named).
    selected: tuple[str, ...] = field(default=())

    @property
    def adapter_types(self) -> tuple[str, ...]:
        """The adapter types under check."""
        return self.selected or tuple(name for name, _ in self.entry_points)


def _from_distribution(dist: metadata.Distribution, label: str, kind: Any) -> Target:
    try:
        meta = dist.metadata
        points = tuple(
            (point.name, point.value)
            for point in dist.entry_points
            if point.group == ENTRY_POINT_GROUP
        )
    except Exception as error:  # malformed files: say so instead of a traceback
        raise TargetError(
            f"{label}: the installed metadata cannot be read ({type(error).__name__}: {error})"
        ) from None
    return Target(
        label=label,
        kind=kind,
        distribution=meta["Name"],
        version=meta["Version"],
        requires=tuple(meta.get_all("Requires-Dist") or ()),
        entry_points=points,
    )


def _from_project(root: Path) -> Target:
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        raise TargetError(f"{root} has no pyproject.toml; point check at a plugin project")
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise TargetError(f"cannot read {pyproject}: {error}") from error
    project = data.get("project")
    if not isinstance(project, dict):
        raise TargetError(f"{pyproject} has no [project] table")
    groups = project.get("entry-points", {})
    points = groups.get(ENTRY_POINT_GROUP, {}) if isinstance(groups, dict) else {}
    dependencies = project.get("dependencies")
    version = project.get("version")
    return Target(
        label=str(root),
        kind="path",
        distribution=str(project.get("name")) if project.get("name") else None,
        version=str(version) if version is not None else None,
        requires=tuple(str(d) for d in dependencies) if isinstance(dependencies, list) else (),
        entry_points=tuple((str(k), str(v)) for k, v in dict(points).items()),
        paths=(str(root / "src") if (root / "src").is_dir() else str(root),),
    )


def resolve_target(target: str) -> Target:
    """Resolve ``target``: a project directory, an adapter type, or a distribution name."""
    path = Path(target)
    if path.exists():
        return _from_project(path.resolve())
    points, _ = installed_entry_points(ENTRY_POINT_GROUP)
    claims = [point for point in points if point.name == target]
    if claims:
        dist = claims[0].dist
        if dist is None:  # pragma: no cover - entry points always come from a distribution
            raise TargetError(f"{target}: entry point without a distribution")
        resolved = _from_distribution(dist, target, "adapter type")
        return Target(**{**_fields(resolved), "selected": (target,)})
    try:
        dist = metadata.distribution(target)
    except metadata.PackageNotFoundError:
        raise TargetError(
            f"{target!r} is neither a path, an installed adapter type nor an installed "
            "distribution (see `linewise list`)"
        ) from None
    return _from_distribution(dist, target, "distribution")


def _fields(target: Target) -> dict[str, Any]:
    return {name: getattr(target, name) for name in Target.__dataclass_fields__}


def installed_claims(adapter_types: tuple[str, ...]) -> tuple[dict[str, list[str]], list[str]]:
    """Installed distributions claiming each adapter type (for duplicate detection).

    Also returns why some installed distributions were skipped (unreadable
    metadata): their claims, if any, are unknown.
    """
    found: dict[str, list[str]] = {name: [] for name in adapter_types}
    points, skipped = installed_entry_points(ENTRY_POINT_GROUP)
    for point in points:
        if point.name in found and point.dist is not None:
            found[point.name].append(point.dist.metadata["Name"])
    return found, skipped
