"""Parquet writing: rows in the order given, in row groups whose bounds depend only on the data."""

from __future__ import annotations

import os
from typing import Any, Final

from linewise.export._extras import require
from linewise.export._schema import Column, arrow_schema

__all__ = ["TableWriter"]

#: A row group is closed at the first input boundary after this many rows.
ROW_GROUP_ROWS: Final = 64 * 1024


class TableWriter:
    """Writes one table to ``path`` through a hidden temporary file, renamed by :meth:`commit`.

    Rows are buffered and written at input boundaries once :data:`ROW_GROUP_ROWS`
    are held, so the same rows in the same order always give the same file.
    """

    def __init__(self, path: str, columns: tuple[Column, ...]) -> None:
        self._pa = require("export", "pyarrow")
        self._pq = require("export", "pyarrow.parquet")
        self.path = path
        self.rows = 0
        self._schema = arrow_schema(columns)
        self._names = [column.name for column in columns]
        self._temporary = os.path.join(
            os.path.dirname(path), f".{os.path.basename(path)}.{os.getpid()}.tmp"
        )
        self._writer = self._pq.ParquetWriter(
            self._temporary, self._schema, compression="zstd", write_statistics=True
        )
        self._buffer: dict[str, list[Any]] = {name: [] for name in self._names}
        self._held = 0

    def add(self, columns: dict[str, list[Any]]) -> None:
        """Rows of one input, as column -> values."""
        count = len(columns[self._names[0]])
        for name in self._names:
            self._buffer[name].extend(columns[name])
        self._held += count
        self.rows += count
        if self._held >= ROW_GROUP_ROWS:
            self._flush()

    def add_batch(self, batch: Any) -> None:
        """Rows already in Arrow form (kept from an earlier export)."""
        if batch.num_rows:
            self.add(batch.to_pydict())

    def _flush(self) -> None:
        if not self._held:
            return
        table = self._pa.Table.from_pydict(self._buffer, schema=self._schema)
        self._writer.write_table(table, row_group_size=max(self._held, 1))
        self._buffer = {name: [] for name in self._names}
        self._held = 0

    def commit(self) -> None:
        """Write what is held, close the file and put it in place."""
        self._flush()
        self._writer.close()
        os.replace(self._temporary, self.path)

    def abort(self) -> None:
        """Close and remove the temporary file; the previous file, if any, stays."""
        try:
            self._writer.close()
        finally:
            if os.path.exists(self._temporary):
                os.remove(self._temporary)
