"""Whether each distribution's hot modules run compiled (mypyc) here, and if not, why.

A wheel built by linewise's build hook (hatch_build.py) carries
``<package>/_compiled.json``: the modules it compiles and, when the wheel came
out pure Python, the reason. What runs is then checked, not assumed: a module
counts as compiled only when it is imported from a C extension. ``linewise
doctor`` and ``linewise --version`` show the result, since pip hides a build's
warnings. Only those two commands use this module (it reads distribution
metadata, which a render never needs).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

__all__ = ["HotPathStatus", "hot_path_statuses", "status_lines"]

#: Always reported: the contract's validation and the host's per-line path.
CORE = ("linewise", "linewise-contracts")
_RECORD = "_compiled.json"


@dataclass(frozen=True)
class HotPathStatus:
    """One distribution's hot modules: which its build compiles, which are compiled here."""

    distribution: str
    version: str
    #: The modules its build compiles (dotted names).
    modules: tuple[str, ...]
    #: Those imported from a C extension in this process's environment.
    compiled: tuple[str, ...]
    #: Why the rest are pure Python (None when every module is compiled).
    reason: str | None

    @property
    def state(self) -> str:
        """``compiled`` (every module), ``partly compiled`` or ``pure Python``."""
        if self.modules and len(self.compiled) == len(self.modules):
            return "compiled"
        return "partly compiled" if self.compiled else "pure Python"

    def describe(self) -> str:
        """``compiled (8 modules)`` or ``pure Python, because ...``."""
        if self.state == "compiled":
            return f"compiled ({_modules(len(self.modules))})"
        count = f" ({len(self.compiled)} of {_modules(len(self.modules))})" if self.compiled else ""
        return f"{self.state}{count}, because {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {
            "distribution": self.distribution,
            "version": self.version,
            "state": self.state,
            "modules": list(self.modules),
            "compiled": list(self.compiled),
            "reason": self.reason,
        }


def _modules(count: int) -> str:
    return f"{count} module" if count == 1 else f"{count} modules"


def _origin(module: str) -> str | None:
    loaded = sys.modules.get(module)
    if loaded is not None:
        return getattr(loaded, "__file__", None)
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None else None


def _is_extension(origin: str | None) -> bool:
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _package_record(package: str) -> dict[str, Any] | None:
    """The build record in ``package``'s folder, where Python imports it from."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / _RECORD
        if path.is_file():
            try:
                found = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return {"modules": [], "compiled": False, "reason": f"{path} is unreadable"}
            return found if isinstance(found, dict) else None
    return None


def _editable_modules(dist: metadata.Distribution) -> list[str] | None:
    """For an editable install, the modules its project's build hook would compile."""
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "null")
    except ValueError:
        return None
    if not isinstance(direct, dict) or not direct.get("dir_info", {}).get("editable"):
        return None
    project = Path(unquote(urlparse(str(direct.get("url", ""))).path)) / "pyproject.toml"
    try:
        config = tomllib.loads(project.read_text(encoding="utf-8"))
        hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
        paths = [str(path) for path in hook.get("compile", [])]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    return [path.removeprefix("src/").removesuffix(".py").replace("/", ".") for path in paths]


def _status(name: str) -> HotPathStatus | None:
    try:
        dist = metadata.distribution(name)
        version = str(dist.version)
    except Exception:  # not installed, or its metadata unreadable
        return None
    record = _package_record(name.replace("-", "_"))
    reason: str | None
    if record is not None:
        modules = [str(module) for module in record.get("modules", [])]
        said = record.get("reason")
        reason = None if record.get("compiled") else str(said or "its wheel was built pure Python")
    else:
        editable = _editable_modules(dist)
        if editable is not None and (editable or name in CORE):
            modules = editable
            reason = "it is an editable install (its sources are imported, so edits take effect)"
        elif name in CORE:
            modules = []
            reason = "its wheel carries no build record (not built by linewise's build hook)"
        else:
            return None  # a plugin with nothing to compile
    compiled = tuple(module for module in modules if _is_extension(_origin(module)))
    if reason is None and len(compiled) < len(modules):
        pure = ", ".join(module for module in modules if module not in compiled)
        reason = f"its compiled modules do not load here ({pure} run from their .py sources)"
    if modules and len(compiled) == len(modules):
        reason = None
    return HotPathStatus(name, version, tuple(modules), compiled, reason)


def hot_path_statuses() -> list[HotPathStatus]:
    """The host, the contracts, then every installed parser distribution with hot modules."""
    names = list(CORE)
    for dist in metadata.distributions():
        # Any installed distribution may be broken (unreadable or undecodable metadata):
        # it is left out here, as discovery leaves it out (and warns) elsewhere.
        try:
            text = dist.read_text("entry_points.txt") or ""
            name = dist.metadata["Name"]
        except Exception:
            continue
        if isinstance(name, str) and name and "[linewise.parsers]" in text and name not in names:
            names.append(name)
    found = (_status(name) for name in names[:2] + sorted(names[2:]))
    return [status for status in found if status is not None]


def status_lines(statuses: list[HotPathStatus]) -> list[str]:
    """One line per distribution, its name and version aligned: ``linewise 0.1.0  compiled ...``."""
    labels = [f"{status.distribution} {status.version}" for status in statuses]
    width = max(map(len, labels), default=0)
    return [
        f"{label.ljust(width)}  {status.describe()}"
        for label, status in zip(labels, statuses, strict=True)
    ]
