"""The embedded engine: a ui-parser module run in QuickJS, one context per parser instance.

Each :class:`JavaScriptParser` gets its own QuickJS context (its own
runtime, heap and globals) the first time it parses a line, so module-level
state cannot leak from one transcript into the next. The context has only
the language's built-ins: no filesystem, network, timers, ``require``,
``process`` or host objects. Every call runs under a time limit and the
context under a heap limit; a call that hits either raises
:class:`JavaScriptError` (the safety net turns the line over to the generic
parser) and the context stays usable. Values come back as JSON text, checked
in the engine to be plain JSON; an entry that is not is handed over as a
:class:`NotJson` value, which validation refuses as an invalid entry.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Final

from linewise.javascript._module import ParserModule

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

#: Seconds one call into a parser may take (``LINEWISE_LINE_TIMEOUT`` overrides).
DEFAULT_TIME_LIMIT: Final = 5.0
#: MiB of heap one parser instance may use (``LINEWISE_JS_HEAP`` overrides).
DEFAULT_HEAP_MIB: Final = 256
_MIB: Final = 1024 * 1024
# The engine's exception classes, set when the first context starts.
_FAILURES: tuple[type[BaseException], ...] = ()

# Evaluated before the module, so it holds the built-ins as they were.
_BRIDGE: Final = r"""
var __linewise_start__, __linewise_parse__, __linewise_reset__, __linewise_take__;
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
  __linewise_start__ = function (exported) {
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
  };
  __linewise_parse__ = function (line, ts) { return encode(parser.parseLine(line, ts)); };
  __linewise_take__ = function (index) { return taken[index].slice(0); };
  __linewise_reset__ = function () {
    if (typeof parser.reset === "function") parser.reset();
  };
})(JSON.stringify, Array.isArray, Object.getPrototypeOf, Object.keys, isFinite,
   Object.prototype, Array.prototype, String.prototype.isWellFormed);
"""


_START: Final = """(function (exported) {
  delete globalThis.__linewise_module__;
  return __linewise_start__(exported);
})(globalThis.__linewise_module__)"""


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
    """The limits of one parser instance: seconds per call and MiB of heap."""

    time_limit: float = DEFAULT_TIME_LIMIT
    heap_mib: int = DEFAULT_HEAP_MIB

    @classmethod
    def from_environment(cls) -> EngineLimits:
        """``LINEWISE_LINE_TIMEOUT`` (seconds) and ``LINEWISE_JS_HEAP`` (MiB), else defaults."""
        return cls(
            _positive(os.environ.get("LINEWISE_LINE_TIMEOUT"), DEFAULT_TIME_LIMIT),
            int(_positive(os.environ.get("LINEWISE_JS_HEAP"), DEFAULT_HEAP_MIB)),
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
        return f"took longer than the time limit of {limits.time_limit:g} s per call"
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
    global _FAILURES
    quickjs = import_module("_quickjs")
    _FAILURES = (quickjs.JSException, quickjs.StackOverflow)
    context = quickjs.Context()
    context.set_memory_limit(limits.heap_mib * _MIB)
    context.set_time_limit(limits.time_limit)
    context.eval(_BRIDGE)
    try:
        context.eval(f"globalThis.__linewise_module__ = (\n{module.script}\n);")
    except _FAILURES as error:
        raise JavaScriptError(
            f"evaluating the module {_describe(error, limits)}", "import"
        ) from None
    try:
        used = context.eval(_START)
    except _FAILURES as error:
        raise JavaScriptError(
            f"its exports make no parser: {_describe(error, limits)}", "exports"
        ) from None
    return context, str(used)


def _fill(value: Any, strings: list[str]) -> Any:
    """``value`` with each ``"\\x01<n>"`` mark replaced by the n-th long string."""
    kind = type(value)
    if kind is str:
        return strings[int(value[1:])] if value[:1] == "\x01" else value
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
    """One transcript's parser: a ui-parser module in its own context (the stateful shape)."""

    __slots__ = ("_context", "_limits", "_module", "_parse", "_reset", "_take", "_thread")

    def __init__(self, module: ParserModule, limits: EngineLimits) -> None:
        self._module = module
        self._limits = limits
        self._context: Any = None
        self._parse: Any = None
        self._reset: Any = None
        self._take: Any = None
        self._thread: int | None = None

    def _ready(self) -> None:
        # A QuickJS runtime must stay on the thread that made it.
        thread = threading.get_ident()
        if self._context is None:
            self._context, _ = start_context(self._module, self._limits)
            self._parse = self._context.get("__linewise_parse__")
            self._reset = self._context.get("__linewise_reset__")
            self._take = self._context.get("__linewise_take__")
            self._thread = thread
        elif thread != self._thread:
            raise JavaScriptError("a JavaScript parser instance is used from a second thread")

    def parse_line(self, line: str, ts: str) -> Any:
        """The entries of one line, as the module's parser returns them (checked JSON)."""
        if self._thread != threading.get_ident():
            self._ready()
        if not line.isascii():
            line = _encodable(line)
        try:
            text = self._parse(line, ts)
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
        _, count, body = text.split("\x01", 2)
        strings = [
            _call(self._context, self._take, self._limits, index) for index in range(int(count))
        ]
        return _decode(_fill(json.loads(body), strings))

    def reset(self) -> None:
        """Call the module parser's ``reset()`` when it has one."""
        if self._context is not None:
            self._ready()
            _call(self._context, self._reset, self._limits)
