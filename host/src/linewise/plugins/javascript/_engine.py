"""The embedded engine: a ui-parser module run in QuickJS, one context per parser instance.

Each :class:`JavaScriptParser` gets its own QuickJS context (its own
runtime, heap and globals) the first time it parses a line, so module-level
state cannot leak from one transcript into the next. The context has only
the language's built-ins: no filesystem, network, timers, ``require``,
``process`` or host objects, nor the bridge the host calls it through. Each
line runs under one time limit (the parse call and whatever it hands back)
and the context under a heap limit; a call that hits either raises
:class:`JavaScriptError` (the safety net turns the line over to the generic
parser) and the context stays usable. Values come back as JSON text, checked
in the engine to be plain JSON; an entry that is not is handed over as a
:class:`NotJson` value, which validation refuses as an invalid entry.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

from linewise.plugins.javascript._module import ParserModule

if TYPE_CHECKING:
    from linewise.settings.environment import Settings

__all__ = [
    "DEFAULT_HEAP_MIB",
    "DEFAULT_TIME_LIMIT",
    "EngineLimits",
    "JavaScriptError",
    "JavaScriptParser",
    "NotJson",
    "engine_missing",
    "start_context",
]

#: Seconds one line (or the module's start) may take (``LINEWISE_LINE_TIMEOUT`` overrides).
DEFAULT_TIME_LIMIT: Final = 5.0
#: MiB of heap one parser instance may use (``LINEWISE_JS_HEAP`` overrides).
DEFAULT_HEAP_MIB: Final = 256
_MIB: Final = 1024 * 1024
# The engine's exception classes, set when the first context starts.
_FAILURES: tuple[type[BaseException], ...] = ()

# Evaluated before the module, so it holds the built-ins as they were. Its value is one
# function the host keeps: nothing of it is a global, so the module can neither call it
# nor put its own in its place (what the host gets back is checked all the same).
_BRIDGE: Final = r"""
(function (stringify, isArray, getPrototypeOf, keys, isFinite, ObjectProto, ArrayProto,
           isWellFormed) {
  "use strict";
  var MAX_DEPTH = 512;
  // Strings this long leave as they are, one call each: escaping them into JSON costs more.
  // They are marked "\u0001<n>" in the JSON text; a string that starts with \u0001 always
  // leaves too, so no real string reads as a mark. (Strings with NUL or lone surrogates
  // cannot leave as they are: the JSON text carries them escaped.)
  var LONG = 256;
  var parser = null, sawLong = false, abandon = false, table = [], taken = [];
  // Null for plain JSON, else [what, path parts innermost first]; paths are built only then.
  function problem(value, depth) {
    var type = typeof value;
    if (type === "string") {
      if (value.length >= LONG || value.charCodeAt(0) === 1) sawLong = true;
      return null;
    }
    if (value === null || type === "boolean") return null;
    if (type === "number") return isFinite(value) ? null : [String(value), []];
    if (type !== "object") return [type, []];
    if (depth > MAX_DEPTH) return ["nesting deeper than " + MAX_DEPTH, []];
    var proto = getPrototypeOf(value);
    var found, index;
    if (isArray(value)) {
      if (proto !== ArrayProto) return ["an array subclass", []];
      for (index = 0; index < value.length; index++) {
        found = problem(value[index], depth + 1);
        if (found !== null) { found[1].push("[" + index + "]"); return found; }
      }
      return null;
    }
    if (proto !== ObjectProto && proto !== null) {
      var name = proto && proto.constructor && proto.constructor.name;
      return ["a " + (typeof name === "string" && name ? name : "non-plain object"), []];
    }
    var names = keys(value);
    for (index = 0; index < names.length; index++) {
      var key = names[index], item = value[key];
      if (item === undefined) continue;  // absent, as JSON.stringify leaves it out
      found = problem(item, depth + 1);
      if (found !== null) { found[1].push("." + key); return found; }
    }
    return null;
  }
  function describe(found) {
    var path = found[1].reverse().join("").replace(/^\./, "");
    return path ? found[0] + " at " + path : found[0];
  }
  function keep(key, value) {
    if (typeof value !== "string") return value;
    var marked = value.charCodeAt(0) === 1;
    if (!marked && value.length < LONG) return value;
    if (isWellFormed.call(value) && value.indexOf("\u0000") < 0) {
      table.push(value);
      return "\u0001" + (table.length - 1);
    }
    if (marked) abandon = true;
    return value;
  }
  function encode(result) {
    sawLong = false;
    if (!isArray(result)) {
      var wrong = problem(result, 0);
      return stringify({ notList: wrong === null ? result : null,
                         problem: wrong === null ? null : describe(wrong) });
    }
    var problems = null;
    for (var index = 0; index < result.length; index++) {
      var found = problem(result[index], 1);
      if (found !== null) {
        if (problems === null) { problems = []; result = result.slice(); }
        result[index] = null;
        problems.push([index, describe(found)]);
      }
    }
    var payload = problems === null ? result : { entries: result, problems: problems };
    if (!sawLong) return stringify(payload);
    table = [];
    abandon = false;
    var text = stringify(payload, keep);
    taken = table;
    if (abandon) return stringify(payload);
    // slice(0) flattens a concatenated ("rope") string: the binding cannot hand those over.
    return ("\u0001" + taken.length + "\u0001" + text).slice(0);
  }
  function start(exported) {
    if (exported === null || (typeof exported !== "object" && typeof exported !== "function")) {
      throw new TypeError("the module exports nothing");
    }
    var factory = exported.createStdoutParser, statics = exported.parseStdoutLine;
    if (typeof factory === "function") {
      var made = factory();
      if (made === null || typeof made !== "object" || typeof made.parseLine !== "function") {
        throw new TypeError("createStdoutParser() returned no object with a parseLine function");
      }
      parser = made;
      return "createStdoutParser";
    }
    if (typeof statics === "function") {
      parser = { parseLine: function (line, ts) { return statics(line, ts); } };
      return "parseStdoutLine";
    }
    throw new TypeError("the module exports neither createStdoutParser nor parseStdoutLine");
  }
  // The host's one entry: 0 start(exports), 1 parse(line, ts), 2 take(index), 3 reset().
  return function (call, first, second) {
    if (call === 1) return encode(parser.parseLine(first, second));
    if (call === 2) return taken[first].slice(0);
    if (call === 3) { if (typeof parser.reset === "function") parser.reset(); return null; }
    return start(first);
  };
})(JSON.stringify, Array.isArray, Object.getPrototypeOf, Object.keys, isFinite,
   Object.prototype, Array.prototype, String.prototype.isWellFormed)
"""
_START, _PARSE, _TAKE, _RESET = 0, 1, 2, 3
# The smallest a long string's mark "\u0001<n>" can be in the JSON text (quotes included):
# a count the text has no room for is the module's doing, not the bridge's.
_MARK_CHARS: Final = 9


class JavaScriptError(Exception):
    """A JavaScript parser threw, ran past its time limit or out of heap, or cannot start.

    ``stage`` says when: "line" (parsing or resetting), "import" (evaluating
    the module) or "exports" (its exports make no parser).
    """

    def __init__(self, message: str, stage: str = "line") -> None:
        super().__init__(message)
        self.stage = stage


class NotJson:
    """Stands for a value a JavaScript parser returned that is not plain JSON (invalid entry).

    Made by :func:`not_json`, whose subclass is named after what the value was,
    so validation's message ("entry must be a dict, got JavaScript function at
    input.f") says it without knowing about JavaScript.
    """

    __slots__ = ("description",)

    def __init__(self, description: str) -> None:
        self.description = description

    def __repr__(self) -> str:
        return f"<not plain JSON: {self.description}>"


_DESCRIPTION_LIMIT: Final = 120


def not_json(description: str) -> NotJson:
    """A :class:`NotJson` whose type name reads ``JavaScript <description>``."""
    shown = description if len(description) <= _DESCRIPTION_LIMIT else description[:119] + "…"
    kind: type[NotJson] = type(f"JavaScript {shown}", (NotJson,), {"__slots__": ()})
    return kind(description)


@dataclass(frozen=True, slots=True)
class EngineLimits:
    """The limits of one parser instance: seconds per line and MiB of heap."""

    time_limit: float = DEFAULT_TIME_LIMIT
    heap_mib: int = DEFAULT_HEAP_MIB

    @classmethod
    def from_settings(cls, settings: Settings) -> EngineLimits:
        """``LINEWISE_LINE_TIMEOUT`` (seconds) and ``LINEWISE_JS_HEAP`` (MiB) as ``settings``
        have them, each a positive number, else its default."""
        return cls(
            _positive(settings.line_timeout, DEFAULT_TIME_LIMIT),
            int(_positive(settings.js_heap, DEFAULT_HEAP_MIB)),
        )


def _positive(text: str | None, default: float) -> float:
    try:
        value = float(text) if text else default
    except ValueError:
        return default
    return value if value > 0 else default


def engine_missing() -> str | None:
    """Why the engine cannot be imported (not installed), or None when it can."""
    try:
        import_module("_quickjs")
    except ImportError:
        return "the JavaScript engine is not installed: pip install 'linewise[js]'"
    return None


def _describe(error: BaseException, limits: EngineLimits) -> str:
    text = str(error).strip()
    first = text.splitlines()[0] if text else type(error).__name__
    if first == "InternalError: interrupted":
        return _describe_timeout(limits)
    if first == "InternalError: out of memory":
        return f"ran out of its heap limit of {limits.heap_mib} MiB"
    if first == "null":
        # Out of memory with no room left for an error object, the engine throws null.
        return f"threw null, or ran out of its heap limit of {limits.heap_mib} MiB"
    return f"threw {first}"


def _call(context: Any, function: Any, limits: EngineLimits, *args: str | int) -> Any:
    try:
        return function(*args)
    except _FAILURES as error:
        context.gc()  # after running out of heap, the next call needs the room back
        raise JavaScriptError(_describe(error, limits)) from None
    except Exception as error:  # the binding refusing a value
        raise JavaScriptError(f"the engine could not hand a value over: {error}") from None


def start_context(module: ParserModule, limits: EngineLimits) -> tuple[Any, str]:
    """A fresh context with ``module`` evaluated and its parser made; and which export made it.

    Raises :class:`JavaScriptError` with ``stage`` "import" when evaluating the
    module throws, and "exports" when its exports make no parser.
    """
    context, _, used = _start(module, limits)
    return context, used


def _start(module: ParserModule, limits: EngineLimits) -> tuple[Any, Any, str]:
    """:func:`start_context`, and the bridge function the host calls the parser through."""
    global _FAILURES
    quickjs = import_module("_quickjs")
    _FAILURES = (quickjs.JSException, quickjs.StackOverflow)
    context = quickjs.Context()
    context.set_memory_limit(limits.heap_mib * _MIB)
    context.set_time_limit(limits.time_limit)
    bridge = context.eval(_BRIDGE)
    try:
        # The script's value is the exports object: handed straight to the bridge, no global.
        exported = context.eval(f"(\n{module.script}\n)")
    except _FAILURES as error:
        raise JavaScriptError(
            f"evaluating the module {_describe(error, limits)}", "import"
        ) from None
    try:
        used = bridge(_START, exported)
    except _FAILURES as error:
        raise JavaScriptError(
            f"its exports make no parser: {_describe(error, limits)}", "exports"
        ) from None
    if used not in ("createStdoutParser", "parseStdoutLine"):
        raise JavaScriptError("its exports make no parser: the bridge gave no answer", "exports")
    return context, bridge, str(used)


def _fill(value: Any, strings: list[str]) -> Any:
    """``value`` with each ``"\\x01<n>"`` mark replaced by the n-th long string."""
    kind = type(value)
    if kind is str:
        if value[:1] != "\x01":
            return value
        digits = value[1:]
        if not (digits.isdigit() and digits.isascii() and int(digits) < len(strings)):
            raise JavaScriptError("the bridge returned a mark for a string it did not hand over")
        return strings[int(digits)]
    if kind is list:
        return [_fill(item, strings) for item in value]
    if kind is dict:
        return {key: _fill(item, strings) for key, item in value.items()}
    return value


def _decode(payload: Any) -> Any:
    """What a parse call returned, from the bridge's JSON payload."""
    if type(payload) is list:
        return payload
    if type(payload) is not dict:
        raise JavaScriptError("the bridge returned no JSON payload")
    if "entries" not in payload:
        problem = payload.get("problem")
        return not_json(problem) if problem is not None else payload.get("notList")
    entries: list[Any] = payload["entries"]
    for index, description in payload["problems"]:
        entries[index] = not_json(description)
    return entries


def _encodable(line: str) -> str:
    """``line``, with lone surrogates (from undecodable bytes) as U+FFFD: the engine needs UTF-8."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in line)
    return line


class JavaScriptParser:
    """One transcript's parser: a ui-parser module in its own context (the stateful shape).

    One time limit covers a whole line (the parse call and every long string
    fetched after it), and what comes back is bounded by the text returned
    and the heap limit, whatever the module did to the built-ins it shares
    with the bridge.
    """

    __slots__ = ("_bridge", "_context", "_limits", "_module", "_thread")

    def __init__(self, module: ParserModule, limits: EngineLimits) -> None:
        self._module = module
        self._limits = limits
        self._context: Any = None
        self._bridge: Any = None
        self._thread: int | None = None

    def _ready(self) -> None:
        # A QuickJS runtime must stay on the thread that made it.
        thread = threading.get_ident()
        if self._context is None:
            self._context, self._bridge, _ = _start(self._module, self._limits)
            self._thread = thread
        elif thread != self._thread:
            raise JavaScriptError("a JavaScript parser instance is used from a second thread")

    def parse_line(self, line: str, ts: str) -> Any:
        """The entries of one line, as the module's parser returns them (checked JSON)."""
        if self._thread != threading.get_ident():
            self._ready()
        if not line.isascii():
            line = _encodable(line)
        started = time.monotonic()
        try:
            text = self._bridge(_PARSE, line, ts)
        except _FAILURES as error:
            self._context.gc()  # after running out of heap, the next call needs the room back
            raise JavaScriptError(_describe(error, self._limits)) from None
        except Exception as error:  # the binding refusing a value
            raise JavaScriptError(f"the engine could not hand a value over: {error}") from None
        if type(text) is not str:
            raise JavaScriptError("the bridge returned no JSON text")
        if text[:1] == "[":
            return json.loads(text)  # the common case: a list of plain JSON entries
        if text[:1] != "\x01":
            return _decode(json.loads(text))
        # Long strings were left out of the JSON text: fetch them, put them back.
        body, strings = self._take(text, started)
        return _decode(_fill(json.loads(body), strings))

    def _take(self, text: str, started: float) -> tuple[str, list[str]]:
        """The JSON text and the long strings it marks, within the line's time and the heap."""
        parts = text.split("\x01", 2)
        count_text, body = parts[1], parts[-1]
        if len(parts) != 3 or not (count_text.isdigit() and count_text.isascii()):
            raise JavaScriptError("the bridge returned a malformed count of long strings")
        count = int(count_text)
        if count > len(body) // _MARK_CHARS:
            raise JavaScriptError(
                f"the bridge claimed {count} long strings, more than its text has marks for"
            )
        limits = self._limits
        budget = limits.heap_mib * _MIB  # they all lived in the heap at once: no more than it
        deadline = started + limits.time_limit
        strings: list[str] = []
        try:
            for index in range(count):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise JavaScriptError(_describe_timeout(limits))
                self._context.set_time_limit(left)
                piece = _call(self._context, self._bridge, limits, _TAKE, index)
                if type(piece) is not str:
                    raise JavaScriptError("the bridge handed over a long string that is not one")
                budget -= len(piece)
                if budget < 0:
                    raise JavaScriptError(
                        f"the long strings of one line come to more than the heap limit "
                        f"of {limits.heap_mib} MiB"
                    )
                strings.append(piece)
        finally:
            if count:
                self._context.set_time_limit(limits.time_limit)
        return body, strings

    def reset(self) -> None:
        """Call the module parser's ``reset()`` when it has one."""
        if self._context is not None:
            self._ready()
            _call(self._context, self._bridge, self._limits, _RESET)


def _describe_timeout(limits: EngineLimits) -> str:
    return f"took longer than the time limit of {limits.time_limit:g} s"
