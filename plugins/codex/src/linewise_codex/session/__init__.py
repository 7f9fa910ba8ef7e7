"""codex_session: the sessions Codex keeps on disk, ``~/.codex/sessions/Y/M/D/rollout-*.jsonl``.

Each line of a rollout is ``{"timestamp", "type", "payload"}``; entries take the
record's ``timestamp``. Records and what they become:

- ``session_meta``: ``init`` (``sessionId``, ``cwd``), which waits for the
  model of the first ``turn_context`` (holding at most 64 records' entries);
  a later ``session_meta`` of another session (a resumed or forked file
  carries its ancestors') is a ``system`` line.
- ``turn_context``: a ``system`` line when the model changes; the settings it
  repeats every turn are dropped.
- ``response_item`` (what the model saw and said): ``message`` as ``user``,
  ``assistant``, or ``system`` for the context Codex writes itself
  (``<environment_context>``, instructions, developer messages);
  ``reasoning`` as ``thinking`` (its text, else its summary);
  ``function_call`` / ``custom_tool_call`` / ``local_shell_call`` /
  ``tool_search_call`` as ``tool_call`` and their ``*_output`` as
  ``tool_result`` (paired by ``call_id``, with ``toolName``; a shell's
  non-zero exit code is an error); ``web_search_call`` and
  ``image_generation_call`` as a call and its result; ``agent_message``
  (between agents) as ``system``; any other item as ``system``.
- ``event_msg`` (what the CLI showed): a turn's end (``task_complete``,
  ``turn_aborted``) as ``result`` with the tokens spent since the previous
  one; tool end events (``exec_command_end``, ``patch_apply_end``,
  ``mcp_tool_call_end``, ``web_search_end``, ...) as the result of their call
  (and the call, when no item made it) unless an output item answered it
  already; errors as ``stderr``; others as ``system``, as the legacy
  ``{"id", "msg"}`` events read.
- ``compacted``: ``system`` ("context compacted" and its summary).

Dropped deliberately: ``event_msg`` records repeating a ``response_item``
(``user_message``, ``agent_message``, ``agent_reasoning`` and their deltas;
but an ``agent_reasoning`` text no reasoning item of its turn holds, in a turn
ended by ``turn_aborted``, is shown as ``thinking``: the item was never written),
``token_count`` (its totals become the ``result`` tokens), reasoning that is
only encrypted, ``ghost_snapshot`` items (undo snapshots), ``world_state`` and
``inter_agent_communication_metadata`` records (state sent to the model).

At the end, calls the file never answers get a result saying so, and tokens
counted after the last turn's end a ``result`` of subtype ``token_count``.

Rollouts of 2025 (until about September) wrote records bare: a first line
``{"id", "timestamp", "instructions", "git"}`` read as ``session_meta``, the
items without the ``response_item`` envelope or a time of their own (they take
the session's start), and ``{"record_type": "state"}`` lines, dropped. Such a
file names no model (``init`` says "") and its cwd only in the
``<environment_context>`` of its first message, where ``init`` takes it from.
"""

from typing import TYPE_CHECKING

from linewise_contracts.lazy import lazy_names

# Eager: what detection asks (and the name of its module).
from linewise_codex.session.sniff import sniff

if TYPE_CHECKING:  # the names the table below serves, for type checkers
    from linewise_codex.session.parser import CodexSessionParser, create_stdout_parser
    from linewise_codex.session.records import session_stores
    from linewise_codex.session.summary import summarize_session as summarize_run

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "CodexSessionParser": "linewise_codex.session.parser",
        "create_stdout_parser": "linewise_codex.session.parser",
        "session_stores": "linewise_codex.session.records",
        "summarize_run": "linewise_codex.session.summary:summarize_session",
    },
)

__all__ = [
    "CodexSessionParser",
    "create_stdout_parser",
    "label",
    "session_stores",
    "sniff",
    "summarize_run",
]

label = "Codex (session files)"
