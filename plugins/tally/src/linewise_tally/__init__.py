"""linewise-tally: Tally's output (adapter type ``tally_local``), as one declared ``agent``.

The parser is :mod:`.parser` (the format is described there), its detection
:mod:`.sniff`, the run summary :mod:`.summary`, the environment check
:mod:`.environment`. The format names them by reference, imported only when the host
loads it; the package imports its ``sniff`` alone, and its other public names when first
read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

# Eager: what detection asks of every installed format (and the name of its module).
from linewise_tally.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_tally.environment import check_environment
    from linewise_tally.parser import TallyParser, create_stdout_parser, parse_stdout_line
    from linewise_tally.summary import summarize_run

_PARSER = "linewise_tally.parser"
# The public names imported when first read: a detection that only asks `sniff` imports
# none of them.
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "TallyParser": _PARSER,
        "check_environment": "linewise_tally.environment",
        "create_stdout_parser": _PARSER,
        "parse_stdout_line": _PARSER,
        "summarize_run": "linewise_tally.summary",
    },
)

__all__ = [
    "TallyParser",
    "agent",
    "agent_configuration_doc",
    "check_environment",
    "create_stdout_parser",
    "label",
    "models",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Tally (local)"

models = [{"id": "tally-2", "label": "Tally 2"}, {"id": "tally-2-mini", "label": "Tally 2 mini"}]

agent_configuration_doc = """\
# tally_local

Use when:
- The agent is the Tally CLI run locally, printing its marker-prefixed event lines
  (`@session`, `>`, `~`, `$ [n]`, `= [n]`, `!`, `#`).

Don't use when:
- The output is JSON events of another CLI: use that CLI's adapter type.
- The output is free text without Tally's markers: use the generic `process` parser.
"""


#: The plugin (contract 1.5): the Tally CLI and the one format it prints.
agent = Agent(
    "tally",
    label="Tally",
    models=models,
    formats=[
        Format(
            "tally_local",
            label=label,
            agent_configuration_doc=agent_configuration_doc,
            create_stdout_parser=f"{_PARSER}:create_stdout_parser",
            parse_stdout_line=f"{_PARSER}:parse_stdout_line",
            sniff=sniff,
            summarize_run="linewise_tally.summary:summarize_run",
            check_environment="linewise_tally.environment:check_environment",
        )
    ],
)
