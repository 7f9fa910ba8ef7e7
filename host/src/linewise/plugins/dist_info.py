"""A distribution's entry points and metadata, read from its folder as importlib.metadata would.

``importlib.metadata`` (with ``email``, ``zipfile``, ``csv`` and ``pathlib``)
costs a cold ``linewise list`` more than the rest of it. For a plugin's
``.dist-info`` folder in the ordinary shape, its two files say plainly what
importlib would make of them: ``entry_points.txt`` is parsed by the same
rules (``importlib.metadata.Sectioned``), and the ``METADATA`` header block,
up to its first blank line, is split into ``Name: value`` fields as
``email``'s parser splits it. Anything out of the ordinary (bytes that are
not UTF-8, a carriage return, a malformed entry point line, a mail envelope
line, a field folded over several lines, no name) makes :meth:`read` give
None, and importlib.metadata reads that distribution as before: what it
raises, and so what ``linewise list`` says of it, stays its own. A test
holds both readings to the same entry points and the same skipped
distributions.
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import Any

__all__ = ["FolderDistribution", "FolderEntryPoint", "load_entry_point"]

#: The fields a claim is read from: name, version, summary, contract requirements.
_FIELDS = ("name", "version", "summary", "requires-dist")


def load_entry_point(value: str) -> Any:
    """Import what an entry point value names (``module``, ``module:attr.sub``, with or
    without ``[extras]``) and return it, as ``importlib.metadata.EntryPoint.load`` does."""
    module, _, rest = value.split("[", 1)[0].partition(":")
    target: Any = import_module(module.strip())
    for attribute in rest.strip().split("."):
        if attribute:
            target = getattr(target, attribute)
    return target


class FolderEntryPoint:
    """One entry point of a :class:`FolderDistribution`."""

    __slots__ = ("dist", "group", "name", "value")

    def __init__(self, name: str, value: str, group: str, dist: FolderDistribution) -> None:
        self.name = name
        self.value = value
        self.group = group
        self.dist = dist

    def load(self) -> Any:
        """Import the module and return the attribute the value names."""
        return load_entry_point(self.value)

    def __repr__(self) -> str:
        return f"FolderEntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


class _Fields:
    """The metadata fields a claim needs: ``fields["Name"]`` and ``fields.get_all(...)``."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, list[str]]) -> None:
        self._values = values

    def __getitem__(self, name: str) -> str | None:
        found = self._values.get(name.lower())
        return found[0] if found else None

    def get_all(self, name: str) -> list[str] | None:
        found = self._values.get(name.lower())
        return list(found) if found else None


class FolderDistribution:
    """An installed distribution's ``.dist-info`` folder, read without importlib.metadata.

    It offers what discovery reads of an ``importlib.metadata.Distribution``:
    ``entry_points``, ``metadata["Name"]`` (and ``get_all``), ``locate_file``
    and ``_path``, the folder.
    """

    __slots__ = ("_path", "entry_points", "metadata")

    def __init__(self, folder: str) -> None:
        self._path = folder
        self.entry_points: list[FolderEntryPoint] = []
        self.metadata = _Fields({})

    @classmethod
    def read(cls, folder: str, entry_points: bytes) -> FolderDistribution | None:
        """The distribution in ``folder`` whose ``entry_points.txt`` holds ``entry_points``;
        None when importlib.metadata must read it (see the module's docstring)."""
        dist = cls(folder)
        points = _entry_points(entry_points)
        if points is None:
            return None
        try:
            with open(os.path.join(folder, "METADATA"), "rb") as handle:
                metadata = handle.read()
        except OSError:
            return None  # importlib looks further (PKG-INFO, the folder itself)
        fields = _header_fields(metadata)
        if fields is None or not any(name.strip() for name in fields.get("name", ())):
            return None
        dist.entry_points = [FolderEntryPoint(n, v, g, dist) for n, v, g in points]
        dist.metadata = _Fields(fields)
        return dist

    def locate_file(self, path: str) -> str:
        """``path`` relative to the folder holding the distribution's metadata folder."""
        return os.path.join(os.path.dirname(self._path), path)

    def __repr__(self) -> str:
        return f"FolderDistribution({self._path!r})"


def _text(data: bytes) -> str | None:
    """``data`` as importlib's ``read_text`` gives it; None when that could differ or fail."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    # Text mode turns "\r\n" and "\r" into "\n"; without them the bytes are the text.
    return None if "\r" in text else text


def _entry_points(data: bytes) -> list[tuple[str, str, str]] | None:
    """(name, value, group) of every entry point, by ``importlib.metadata.Sectioned``'s rules.

    None for a line importlib would fail on (no ``=``), or undecodable bytes.
    """
    text = _text(data)
    if text is None:
        return None
    points: list[tuple[str, str, str]] = []
    group: str | None = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
            continue
        if group is None:
            continue  # before any section: importlib ignores it
        name, equals, value = line.partition("=")
        if not equals:
            return None
        points.append((name.strip(), value.strip(), group))
    return points


def _is_field_name(name: str) -> bool:
    # email's header pattern: printable ASCII but space and colon (which ends the name).
    return bool(name) and name.isascii() and name.isprintable() and " " not in name


def _header_fields(data: bytes) -> dict[str, list[str]] | None:
    """The values of the fields a claim needs, by lowercase name, in order.

    The header block ends at the first line that is not a field or a
    continuation, as in ``email.feedparser``. None when email's parser would
    do something this does not: an envelope (``From ``) line, a field with no
    name, a first line that continues nothing, or a needed field folded over
    several lines (importlib re-indents those).
    """
    text = _text(data)
    if text is None:
        return None
    fields: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.split("\n"):
        if line[:1] in (" ", "\t"):
            if current is None or current in _FIELDS:
                return None
            continue  # a continuation of a field no claim reads
        if line.startswith("From "):
            return None
        name, colon, value = line.partition(":")
        if not colon or not (name == "" or _is_field_name(name)):
            break  # a blank line, or the body already: the headers are over
        if not name:
            return None
        current = name.lower()
        if current in _FIELDS:
            fields.setdefault(current, []).append(value.lstrip(" \t"))
    return fields
