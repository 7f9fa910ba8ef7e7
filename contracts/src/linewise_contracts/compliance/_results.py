"""One check's outcome, and the titles of every check in the order they run."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

__all__ = ["TITLES", "WORKER_CHECKS", "CheckResult", "Status"]

Status: TypeAlias = Literal["pass", "warn", "fail", "skip"]


# What each check is about, in the order they run.
TITLES: Final = {
    "metadata.entry_points": "entry point group, names and values",
    "metadata.contract": "contract dependency declared and compatible",
    "metadata.duplicates": "no other distribution claims the adapter type",
    "import": "the module imports",
    "import.side_effects": "no side effects at import",
    "exports": "parse_stdout_line / create_stdout_parser with the right signatures",
    "metadata.exports": "label, models and agent_configuration_doc have the right types",
    "parse.valid": "every entry valid on the sample lines",
    "parse.deterministic": "same input, same output",
    "parse.reset": "reset() really resets",
    "parse.side_effects": "no side effects while parsing",
    "sniff": "sniff() gives a score from 0 to 1 and never throws",
    "summarize_run": "summarize_run() gives a valid RunSummary and never throws",
    "format_stdout_line": "format_stdout_line() gives (role, text) pairs and never throws",
    "format_entries": "format_entries() gives (role, text) pairs and never throws",
    "check_environment": "check_environment() gives environment checks and never throws",
    "parse.never_throws": "never throws, even on hostile input",
    "cost": "time and memory per line",
    "checker.integrity": "the plugin left the checker's own code alone",
    "size.code": "the parser's own code is small",
    "size.dependencies": "runtime dependencies are declared",
}

#: The checks the worker runs for each adapter type, in order: each must get a verdict.
WORKER_CHECKS: Final = tuple(
    name
    for name in TITLES
    if not name.startswith(("metadata.entry_points", "metadata.contract", "metadata.dup", "size."))
)


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check's outcome for one adapter type (or for the whole distribution)."""

    check: str
    status: Status
    message: str
    adapter_type: str | None = None
    details: tuple[str, ...] = ()
    figures: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """What the check is about."""
        return TITLES.get(self.check, self.check)

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {
            "check": self.check,
            "title": self.title,
            "adapterType": self.adapter_type,
            "status": self.status,
            "message": self.message,
            "details": list(self.details),
            "figures": self.figures,
        }
