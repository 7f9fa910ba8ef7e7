"""SQL over an export folder with DuckDB (views ``runs`` and ``entries``), and example queries."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from typing import Any, Final

from linewise.export._extras import require

__all__ = ["EXAMPLE_QUERIES", "QueryResult", "run_query"]

#: Questions the tables answer, by name (`linewise query --example NAME`).
EXAMPLE_QUERIES: Final = {
    "cost-per-model-per-day": """
SELECT CAST(coalesce(started_at, modified_at) AS DATE) AS day, model,
       count(*) AS runs, sum(cost_usd) AS cost_usd,
       sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens
FROM runs
GROUP BY ALL
ORDER BY day, cost_usd DESC NULLS LAST, model
""".strip(),
    "top-failing-tools": """
SELECT coalesce(r.tool_name, c.tool_name) AS tool, count(*) AS failures,
       count(DISTINCT r.run_id) AS runs
FROM entries AS r
LEFT JOIN entries AS c
  ON c.run_id = r.run_id AND c.kind = 'tool_call' AND c.tool_use_id = r.tool_use_id
WHERE r.kind = 'tool_result' AND r.is_error
GROUP BY ALL
ORDER BY failures DESC, tool
LIMIT 20
""".strip(),
    "runs-that-hit-limits": """
SELECT source_path, adapter_type, model, outcome, status, turns, details_json
FROM runs
WHERE hit_limit
ORDER BY source_path
""".strip(),
}


@dataclass(frozen=True, slots=True)
class QueryResult:
    """A query's column names and rows."""

    columns: list[str]
    rows: list[tuple[Any, ...]]


def _literal(path: str) -> str:
    return "'" + path.replace("'", "''") + "'"


#: Characters DuckDB reads as a glob pattern in a file name.
_GLOB: Final = frozenset("*?[")


def run_query(directory: str, sql: str) -> QueryResult:
    """Run ``sql`` over the export in ``directory`` (views ``runs`` and ``entries``).

    Raises FileNotFoundError when the folder holds no export,
    :class:`~linewise.export._folder.InconsistentExportError` when its two
    tables are not of one export, and ``duckdb.Error`` for a query DuckDB refuses.
    """
    duckdb = require("export", "duckdb")
    pq = require("export", "pyarrow.parquet")
    from linewise.export._export import ENTRIES_FILE, RUNS_FILE
    from linewise.export._folder import check_pair, committed_paths, reading

    files = {"runs": RUNS_FILE, "entries": ENTRIES_FILE}
    with reading(directory), tempfile.TemporaryDirectory(prefix="linewise-query-") as aliases:
        paths = committed_paths(directory, (RUNS_FILE, ENTRIES_FILE))
        for name in files.values():
            if not os.path.isfile(paths[name]):
                raise FileNotFoundError(
                    f"{directory} holds no {name}; "
                    "create it with `linewise export PATH... --to DIR`"
                )
        check_pair(directory, pq.ParquetFile(paths[RUNS_FILE]), pq.ParquetFile(paths[ENTRIES_FILE]))
        connection = duckdb.connect(":memory:")
        try:
            for view, name in files.items():
                target = _literal(_unglobbed(paths[name], aliases, name))
                connection.execute(f"CREATE VIEW {view} AS SELECT * FROM read_parquet({target})")
            cursor = connection.execute(sql)
            columns = [description[0] for description in cursor.description or ()]
            return QueryResult(columns=columns, rows=cursor.fetchall() if columns else [])
        finally:
            connection.close()


def _unglobbed(path: str, aliases: str, name: str) -> str:
    """``path``, or a link to it in ``aliases`` when DuckDB would read its name as a glob."""
    if not _GLOB.intersection(path):
        return path
    alias = os.path.join(aliases, name)
    os.symlink(os.path.abspath(path), alias)
    return alias
