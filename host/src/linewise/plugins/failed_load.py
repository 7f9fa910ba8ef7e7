"""Why an adapter type's plugin did not load: the record kept and handed to hooks.

Apart from :mod:`linewise.plugins.loading`: a plugin that loads needs none of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

__all__ = ["FailedLoad", "FailureStage"]

FailureStage: TypeAlias = Literal["entry point", "contract", "import", "exports"]


@dataclass(frozen=True, slots=True)
class FailedLoad:
    """Why an adapter type is served by the generic parser instead of its plugin."""

    adapter_type: str
    distribution: str | None
    version: str | None
    stage: FailureStage
    reason: str
    hint: str
    error: BaseException | None = field(default=None, compare=False)

    def describe(self) -> str:
        """One line naming the plugin, what went wrong and what to do."""
        who = f"{self.distribution} {self.version}" if self.distribution else "unknown distribution"
        return f"{self.adapter_type} ({who}): {self.reason}. {self.hint}"
