"""qwen_local: Qwen Code's headless stdout, ``qwen -p "..." -o stream-json``.

Claude Code's stream-json envelope, read by the Claude plugin's parser, with
Qwen's additions (goal events, tool progress, ``session_start``, a failed
result's ``error``) and Qwen's token meaning in the summary (its input
tokens include the cached ones).
"""

from linewise_qwen.stdout.parser import QwenStdoutParser, create_stdout_parser, parse_stdout_line
from linewise_qwen.stdout.sniff import sniff
from linewise_qwen.stdout.summary import summarize_run

__all__ = [
    "QwenStdoutParser",
    "agent_configuration_doc",
    "create_stdout_parser",
    "label",
    "parse_stdout_line",
    "sniff",
    "summarize_run",
]

label = "Qwen Code (stream-json)"

agent_configuration_doc = """\
# qwen_local

Adapter: qwen_local. Parses Qwen Code's headless stdout, `qwen -p "..." -o stream-json`
(with or without `--include-partial-messages`): system init, assistant messages
(text, thinking, tool use), user tool results, stream events, the final result.

Use when:
- The agent is Qwen Code run headless with `-o stream-json` (or `--output-format stream-json`).

Don't use when:
- The log is Claude Code's stream-json: use claude_local.
- The input is a saved Qwen chat (`~/.qwen/projects/.../chats/*.jsonl`): use qwen_session.

Output: init (model, session), thinking, assistant (deltas once), tool_call / tool_result
(paired, with toolName), system (goals, other system messages), result (tokens as Qwen
reports them; no cost).
"""
