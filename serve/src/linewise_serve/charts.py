"""Usage charts as inline SVG drawn on the server by pygal: no script, nothing to load.

pygal's SVG carries a ``<script>`` (its tooltip configuration), a ``<style>``
and one ``style`` attribute; the app's policy runs and applies none of them, so
they are taken out of the tree and the app's stylesheet (``serve.css``) styles
the chart's classes. A value nobody reported (unknown) draws no bar, never a
bar of 0: pygal's stacked bars would draw one, so those bars are taken out too.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["Series", "bar_chart"]

_SVG: Final = "http://www.w3.org/2000/svg"
ET.register_namespace("", _SVG)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")


@dataclass(frozen=True, slots=True)
class Series:
    """One series: its name and a value per label (None: unknown or none, no bar)."""

    name: str
    values: Sequence[float | None]


def _pygal() -> Any:
    """pygal, imported without leaving the importlib_metadata backport in charge of discovery.

    pygal imports the backport, and importing it puts the backport's finder on
    sys.meta_path and deletes the standard library's ``find_distributions``
    from ``PathFinder``: every later ``importlib.metadata`` look-up in the
    process (the host's plugin discovery and its cache) would get the backport's
    distributions instead. Both are put back as they were; the backport's own
    look-ups (pygal's) still work through the standard finder.
    """
    import sys
    from importlib.machinery import PathFinder

    if "pygal" in sys.modules:
        return sys.modules["pygal"]
    finders = list(sys.meta_path)
    standard = PathFinder.__dict__.get("find_distributions")
    import pygal  # type: ignore[import-untyped]  # pygal ships no types

    if standard is not None and "find_distributions" not in PathFinder.__dict__:
        type.__setattr__(PathFinder, "find_distributions", standard)
    sys.meta_path[:] = [finder for finder in sys.meta_path if finder in finders]
    return pygal


def _tag(element: ET.Element) -> str:
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else "comment"


def bar_chart(
    title: str,
    labels: Sequence[str],
    series: Sequence[Series],
    *,
    unit: str,
    money: bool = False,
    chart_id: str = "chart",
) -> str:
    """An SVG bar chart (stacked when there are several series) of ``series`` over ``labels``."""
    pygal = _pygal()
    stacked = len(series) > 1
    kind = pygal.StackedBar if stacked else pygal.Bar

    def formatted(value: float) -> str:
        return f"{value:.4f}" if money else f"{value:.0f}"

    chart = kind(
        js=[],
        css=[],
        no_prefix=True,
        disable_xml_declaration=True,
        width=900,
        height=340,
        x_label_rotation=30 if len(labels) > 8 else 0,
        show_legend=stacked,
        legend_at_bottom=True,
        value_formatter=formatted,
        print_values=False,
        show_minor_x_labels=len(labels) <= 40,
        truncate_legend=40,
        truncate_label=16,
    )
    chart.title = title
    chart.x_labels = list(labels)
    for one in series:
        chart.add(one.name, list(one.values))
    tree: Any = chart.render_tree()
    _strip(tree)
    _drop_unknown_bars(tree, series)
    _titles(tree, unit, money)
    tree.attrib.pop("xmlns", None)  # ElementTree writes the namespace itself
    tree.set("id", chart_id)
    tree.set("role", "img")
    tree.set("aria-label", title)
    return ET.tostring(tree, encoding="unicode")


def _strip(root: ET.Element) -> None:
    """No script, style element, style attribute (the policy would refuse them) or comment."""
    for parent in list(root.iter()):
        for child in list(parent):
            if _tag(child) in ("script", "style", "comment"):
                parent.remove(child)
        parent.attrib.pop("style", None)


def _bars(root: ET.Element) -> list[list[tuple[ET.Element, ET.Element]]]:
    """Per series (in order), its (bar, bars-group) pairs in label order."""
    found = []
    for group in root.iter():
        classes = (group.get("class") or "").split()
        if "series" in classes:
            pairs: list[tuple[ET.Element, ET.Element]] = []
            for bars in group:
                if "bars" in (bars.get("class") or "").split():
                    pairs.extend((bar, bars) for bar in bars if bar.get("class") == "bar")
            found.append(pairs)
    return found


def _drop_unknown_bars(root: ET.Element, series: Sequence[Series]) -> None:
    for pairs, one in zip(_bars(root), series, strict=False):
        known = list(one.values)
        if len(pairs) != len(known):
            continue  # pygal left the unknown values out itself (unstacked bars)
        for (bar, bars), value in zip(pairs, known, strict=True):
            if value is None:
                bars.remove(bar)


def _titles(root: ET.Element, unit: str, money: bool) -> None:
    """A hover title per bar: its label and value, as the table below the chart says it."""
    for pairs in _bars(root):
        for bar, _ in pairs:
            descs = {(d.get("class") or ""): d.text or "" for d in bar if _tag(d) == "desc"}
            value = descs.get("value", "")
            try:
                number = float(value)
            except ValueError:
                continue
            shown = f"${number:,.4f}" if money else f"{number:,.0f} {unit}"
            title = ET.SubElement(bar, f"{{{_SVG}}}title")
            title.text = f"{descs.get('x_label', '')}: {shown}"
