"""``linewise share``: a log rendered to share, as Markdown or HTML with secrets redacted."""

from __future__ import annotations

from typing import Any

from linewise.cli.commands.rendering import add_arguments

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``share`` subcommand: ``render`` with Markdown and ``--redact`` by default."""
    share = commands.add_parser(
        "share",
        help="render a log to share: Markdown or HTML with secrets redacted",
        description="Render an agent's log (or a stored session) as Markdown (the default) "
        "or HTML to paste into an issue, a pull request or a gist: as `linewise render`, "
        "with --redact on (--no-redact turns it off).",
    )
    add_arguments(share, formats=("markdown", "html"), default="markdown", redact=True)
