"""Tally's environment: is the ``tally`` command there?"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Imported when a check runs (it brings shutil): rendering never pays for it.
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Is the ``tally`` command on PATH? (Tally needs no credentials.)"""
    import os

    from linewise_contracts.environment import command_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "tally",
            environ=env,
            found_code="tally_command_found",
            found_message="tally at {path}",
            missing_code="tally_command_missing",
            missing_message="the tally command is not on PATH",
            hint="install Tally or add its folder to PATH",
            path_as_detail=False,
        )
    ]
