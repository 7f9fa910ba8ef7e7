"""The columns of runs.parquet and entries.parquet: names, Arrow types and what each means."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

__all__ = ["ENTRIES_COLUMNS", "RUNS_COLUMNS", "Column", "arrow_schema"]


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, its type (DuckDB spelling) and what it holds."""

    name: str
    type: str
    doc: str


#: One row per input log.
RUNS_COLUMNS: Final = (
    Column("run_id", "VARCHAR", "the run's id: SHA-256 of source path and content hash, 32 hex"),
    Column("source_path", "VARCHAR", "the log's absolute path"),
    Column(
        "content_hash", "VARCHAR", "SHA-256 of the log's bytes (hex); --append skips known ones"
    ),
    Column("size_bytes", "BIGINT", "the log's size"),
    Column("modified_at", "TIMESTAMP", "when the log was last written (file modification time)"),
    Column("adapter_type", "VARCHAR", "the parser used, as `linewise render` would detect it"),
    Column("cli", "VARCHAR", "the parser's label for the CLI (for example Claude Code (local))"),
    Column("detection", "VARCHAR", "why that parser was chosen"),
    Column("session_id", "VARCHAR", "the run's session id (the last one when there are several)"),
    Column("session_ids", "VARCHAR[]", "every session id the log announced, in order, once each"),
    Column("project", "VARCHAR", "the `cwd` of the first `init` entry that has one, else null"),
    Column(
        "started_at", "TIMESTAMP", "the first entry's own time (from its line); null when none has"
    ),
    Column(
        "ended_at", "TIMESTAMP", "the last entry's own time (from its line); null when none has"
    ),
    Column("duration_ms", "BIGINT", "the run summary's `durationMs` (the CLI's), else end - start"),
    Column("model", "VARCHAR", "the model"),
    Column(
        "outcome",
        "VARCHAR",
        "how the run ended: completed, interrupted, failed, max_turns, max_tokens, budget, "
        "refused, cut_off (an older plugin's own word)",
    ),
    Column("status", "VARCHAR", "complete, error, cut off or unknown, as `linewise summarize`"),
    Column("complete", "BOOLEAN", "the run ended with its CLI's final result (null: cannot tell)"),
    Column("is_error", "BOOLEAN", "the run's final result was an error"),
    Column("hit_limit", "BOOLEAN", "the run stopped at a limit: turns, quota or timeout"),
    Column(
        "turns",
        "BIGINT",
        "the model's round trips, as the CLI reports them (Claude Code's num_turns); "
        "null when it reports none",
    ),
    Column("tool_calls", "BIGINT", "tool_call entries"),
    Column("tool_errors", "BIGINT", "tool_result entries with isError"),
    Column("errors", "BIGINT", "errors of the run summary"),
    Column("error_messages", "VARCHAR[]", "those errors' messages"),
    Column(
        "input_tokens",
        "BIGINT",
        "every input token (uncached, cache reads and writes); null when not reported",
    ),
    Column("uncached_input_tokens", "BIGINT", "input neither read from nor written to a cache"),
    Column("cached_tokens", "BIGINT", "input tokens read from a cache; null when not reported"),
    Column("cache_write_tokens", "BIGINT", "input tokens written to a cache; null: not reported"),
    Column("output_tokens", "BIGINT", "every generated token, reasoning included; null: unknown"),
    Column("reasoning_tokens", "BIGINT", "the reasoning part of output_tokens; null: unknown"),
    Column("cost_usd", "DOUBLE", "cost in US dollars, as `linewise summarize`; null when unknown"),
    Column(
        "cost_source", "VARCHAR", "reported (by the CLI) or estimated (list prices); null: unknown"
    ),
    Column(
        "price_data", "VARCHAR", "the price table of an estimate (genai-prices 0.2.3), else null"
    ),
    Column("subagents", "BIGINT", "distinct parentToolUseId values: subagents that left entries"),
    Column("entries", "BIGINT", "entries (rows of this run in entries.parquet)"),
    Column("lines", "BIGINT", "non-blank stdout lines read"),
    Column("fallback_lines", "BIGINT", "lines shown raw because the parser failed on them"),
    Column("dropped_entries", "BIGINT", "invalid entries dropped"),
    Column("parser_errors", "BIGINT", "parser exceptions"),
    Column("truncated_lines", "BIGINT", "lines cut for length"),
    Column("summary_source", "VARCHAR", "plugin (its summarize_run) or transcript"),
    Column("details_json", "VARCHAR", "the plugin's run-summary details as JSON"),
)

#: One row per entry, exactly the entries `linewise render -f jsonl` writes (deltas unmerged).
ENTRIES_COLUMNS: Final = (
    Column("run_id", "VARCHAR", "the run (runs.run_id)"),
    Column("seq", "BIGINT", "the entry's position in its run, from 0"),
    Column("kind", "VARCHAR", "the entry kind (assistant, tool_call, result, ...)"),
    Column("ts", "VARCHAR", "the entry's ts, as rendered"),
    Column(
        "text",
        "VARCHAR",
        "text, or a tool result's content, or for the kinds of contract 1.3 (run_result,"
        " workspace_change, ...) the one line `linewise render` shows; null for tool_call and init",
    ),
    Column("tool_name", "VARCHAR", "a tool call's name or a tool result's toolName"),
    Column("tool_use_id", "VARCHAR", "toolUseId"),
    Column("parent_tool_use_id", "VARCHAR", "parentToolUseId: the subagent's spawning call"),
    Column("is_error", "BOOLEAN", "isError of tool results and results; null for other kinds"),
    Column("delta", "BOOLEAN", "delta of streamed assistant or thinking fragments"),
    Column("entry_json", "VARCHAR", "the whole entry as JSON, exactly (lone surrogates escaped)"),
)


def arrow_schema(columns: tuple[Column, ...]) -> Any:
    """The pyarrow schema of ``columns`` (needs the ``export`` extra)."""
    import pyarrow as pa  # type: ignore[import-untyped]

    types = {
        "VARCHAR": pa.string(),
        "VARCHAR[]": pa.list_(pa.string()),
        "BIGINT": pa.int64(),
        "DOUBLE": pa.float64(),
        "BOOLEAN": pa.bool_(),
        "TIMESTAMP": pa.timestamp("ms"),  # UTC; no zone, so readers need no tz database
    }
    return pa.schema([pa.field(column.name, types[column.type]) for column in columns])
