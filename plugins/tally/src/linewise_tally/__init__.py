"""linewise-tally: Tally's output (adapter type ``tally_local``), as one declared ``agent``.

The parser is :mod:`.parser` (the format is described there), its detection
:mod:`.sniff`, the run summary :mod:`.summary`, the environment check
:mod:`.environment`.
"""

from __future__ import annotations

from linewise_contracts.agent import Agent, Format

from linewise_tally.environment import check_environment
from linewise_tally.parser import TallyParser, create_stdout_parser, parse_stdout_line
from linewise_tally.sniff import sniff
from linewise_tally.summary import summarize_run

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
            create_stdout_parser=create_stdout_parser,
            parse_stdout_line=parse_stdout_line,
            sniff=sniff,
            summarize_run=summarize_run,
            check_environment=check_environment,
        )
    ],
)
