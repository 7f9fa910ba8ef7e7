"""The declared plugin object (contract 1.5): one :class:`Agent` per agent CLI, its formats inside.

A 1.x plugin is up to twelve loose module attributes per adapter type
(``parse_stdout_line``, ``sniff``, ``label``, ``session_stores`` ...). From 1.5
a plugin declares one object instead::

    agent = Agent(
        "claude",
        label="Claude Code",
        models=[{"id": "claude-sonnet-4-6", "label": "Claude Sonnet 4.6"}],
        formats=[
            Format(
                "claude_local",
                label="Claude Code (local)",
                agent_configuration_doc=DOC,
                check_environment=check_environment,
                create_stdout_parser=create_stdout_parser,
                sniff=sniff,
                format_stdout_line=format_stdout_line,
                format_entries=format_entries,
                summarize_run=summarize_run,
            ),
            Format(
                "claude_session",
                label="Claude Code (session files)",
                create_stdout_parser="linewise_claude.session:create_stdout_parser",
                session_stores="linewise_claude.session:session_stores",
            ),
        ],
    )

and one entry point per adapter type naming its format in the object
(``claude_local = "linewise_claude:agent.claude_local"``): the entry point names
stay the index the host lists and chooses from without importing anything.

The fields keep the 1.x export names, so nothing is renamed in the move, and
every reader of 1.x exports reads a :class:`Format` as it reads a module
(``fmt.label``, ``fmt.models`` and ``fmt.agent_configuration_doc`` answer
with the agent's when the format has none of its own; a format's own
``models`` came in contract 1.6). ``format_entries`` (contract 1.7) is the one
field with no 1.x export of that name: a host reads it from a declared format only.

A callable field takes the function, or its ``"module:attribute"`` reference
when importing it at once would cost every start-up of the plugin's other
formats (a session parser beside a stdout parser): a reference is imported the
first time the field is read, or by :meth:`Format.resolve`, which the host
calls when it loads that format.

Both objects are validated when they are made: a wrong field raises
``TypeError`` or ``ValueError`` naming the object and the field. They are
frozen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, Final, NoReturn

from linewise_contracts.protocols import adapter_type_problem, entry_point_value_problem

if TYPE_CHECKING:
    from linewise_contracts.protocols import (
        FormatEntries,
        FormatStdoutLine,
        ModelOption,
        ParseStdoutLine,
        StdoutParserFactory,
    )

__all__ = [
    "AGENT_FIELDS",
    "FORMAT_CALLABLES",
    "Agent",
    "Format",
    "UnresolvedReference",
    "agent_name_problem",
    "format_problem",
]

#: The callable fields of a :class:`Format`: the 1.x export names, each optional but
#: the two parsers (one of which is required).
FORMAT_CALLABLES: Final = (
    "create_stdout_parser",
    "parse_stdout_line",
    "sniff",
    "format_stdout_line",
    "format_entries",
    "summarize_run",
    "session_stores",
    "session_records",
    "session_keys",
    "check_environment",
)
#: The fields of an :class:`Agent` (an adapter type may not take one of these names, nor
#: ``format``: ``agent.<adapter type>`` is how an entry point names a format).
AGENT_FIELDS: Final = (
    "name",
    "label",
    "models",
    "agent_configuration_doc",
    "formats",
)
_MAX_NAME: Final = 64
_MAX_LABEL: Final = 200
_MAX_DOC: Final = 100_000
_MAX_MODELS: Final = 500
_LOWER_DIGITS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


class UnresolvedReference(ImportError):
    """A ``"module:attribute"`` reference of a :class:`Format` that cannot be imported."""


def agent_name_problem(name: object) -> str | None:
    """Why ``name`` cannot name an agent CLI (``claude``, ``paperclip-runner``), or None.

    The name is the one people type (``linewise sessions --cli claude``) and
    session stores carry (:attr:`~linewise_contracts.sessions.SessionStore.cli`):
    lowercase letters and digits, words joined by ``-`` or ``_``, at most 64.
    """
    if type(name) is not str:
        return f"name must be a str, not {type(name).__name__}"
    if len(name) > _MAX_NAME:
        return f"name is longer than {_MAX_NAME} characters"
    parts = name.replace("-", "_").split("_")
    if not ("a" <= name[:1] <= "z" and all(parts) and all(set(p) <= _LOWER_DIGITS for p in parts)):
        return f"name {name!r} is not lowercase words joined by '-' or '_' (like 'claude')"
    return None


def _refuse(owner: str, field: str, problem: str, kind: type[Exception] = TypeError) -> NoReturn:
    raise kind(f"{owner}: {field} {problem}")


def _text(owner: str, field: str, value: object, limit: int) -> str | None:
    if value is None:
        return None
    if type(value) is not str:
        _refuse(owner, field, f"must be a str or None, not {type(value).__name__}")
    if not value.strip():
        _refuse(owner, field, "is blank (leave it out instead)", ValueError)
    if len(value) > limit:
        _refuse(owner, field, f"is longer than {limit:,} characters", ValueError)
    return value


def _callable_or_reference(owner: str, field: str, value: object) -> object:
    if value is None or callable(value):
        return value
    if type(value) is str:
        problem = entry_point_value_problem(value)
        if problem is not None or ":" not in value or "[" in value:
            _refuse(
                owner,
                field,
                f"reference {value!r} is not 'module:attribute'",
                ValueError,
            )
        return value.strip()
    _refuse(
        owner, field, f"must be a callable or a 'module:attribute' str, not {type(value).__name__}"
    )


def _resolve_reference(owner: str, field: str, reference: str) -> object:
    module, _, attribute = reference.partition(":")
    try:
        target: object = import_module(module.strip())
        for part in attribute.strip().split("."):
            target = getattr(target, part)
    except Exception as error:  # an import, or a missing attribute: say which reference
        raise UnresolvedReference(
            f"{owner}: {field} reference {reference!r} cannot be imported "
            f"({type(error).__name__}: {error})"
        ) from error
    if not callable(target):
        raise UnresolvedReference(
            f"{owner}: {field} reference {reference!r} names a {type(target).__name__}, "
            "not a callable"
        )
    return target


class Format:
    """One adapter type an agent's plugin serves: its parser and what goes with it.

    ``adapter_type`` is the entry point's name (snake_case, at most 64
    characters). The 1.x exports, as fields: ``create_stdout_parser`` (a
    factory of stateful parsers) or ``parse_stdout_line`` (a static parser), at
    least one; optional ``sniff``, ``format_stdout_line``, ``summarize_run``,
    ``session_stores``, ``session_records`` and ``session_keys``,
    ``check_environment`` (see :mod:`linewise_contracts.protocols` and
    :mod:`linewise_contracts.sessions` for what each takes and returns), and
    ``format_entries`` (contract 1.7, no 1.x export: the compact lines made from
    one line's entries, which the host prefers to ``format_stdout_line``);
    ``label`` and ``agent_configuration_doc`` when this format's differ from
    its agent's; ``models`` (contract 1.6) when the models a run of this
    format can be started with are not the agent's (Cursor Cloud's are the
    account's, not the Cursor CLI's): ``()`` says the format states none,
    ``None`` (the default) that it has the agent's. Each callable may be given
    as a ``"module:attribute"`` reference, imported when first read.
    """

    __slots__ = ("_agent", "_doc", "_label", "_models", "_values", "adapter_type")

    adapter_type: str
    _agent: Agent | None
    _label: str | None
    _doc: str | None
    _models: tuple[ModelOption, ...] | None
    _values: dict[str, object]

    def __init__(
        self,
        adapter_type: str,
        *,
        label: str | None = None,
        agent_configuration_doc: str | None = None,
        models: Iterable[Mapping[str, str]] | None = None,
        create_stdout_parser: StdoutParserFactory | str | None = None,
        parse_stdout_line: ParseStdoutLine | str | None = None,
        sniff: Callable[..., float] | str | None = None,
        format_stdout_line: FormatStdoutLine | str | None = None,
        format_entries: FormatEntries | str | None = None,
        summarize_run: Callable[..., Any] | str | None = None,
        session_stores: Callable[..., Any] | str | None = None,
        session_records: Callable[..., Any] | str | None = None,
        session_keys: Callable[..., Any] | str | None = None,
        check_environment: Callable[..., Any] | str | None = None,
    ) -> None:
        if type(adapter_type) is not str:
            raise TypeError(
                f"Format: adapter_type must be a str, not {type(adapter_type).__name__}"
            )
        owner = f"Format({adapter_type!r})"
        problem = adapter_type_problem(adapter_type)
        if problem is None and adapter_type in (*AGENT_FIELDS, "format"):
            problem = f"adapter type {adapter_type!r} is the name of an Agent field"
        if problem is not None:
            raise ValueError(f"{owner}: {problem}")
        given = {
            "create_stdout_parser": create_stdout_parser,
            "parse_stdout_line": parse_stdout_line,
            "sniff": sniff,
            "format_stdout_line": format_stdout_line,
            "format_entries": format_entries,
            "summarize_run": summarize_run,
            "session_stores": session_stores,
            "session_records": session_records,
            "session_keys": session_keys,
            "check_environment": check_environment,
        }
        values = {name: _callable_or_reference(owner, name, value) for name, value in given.items()}
        if values["create_stdout_parser"] is None and values["parse_stdout_line"] is None:
            raise TypeError(f"{owner}: give create_stdout_parser or parse_stdout_line (or both)")
        setter = object.__setattr__
        setter(self, "adapter_type", adapter_type)
        setter(self, "_label", _text(owner, "label", label, _MAX_LABEL))
        setter(
            self, "_doc", _text(owner, "agent_configuration_doc", agent_configuration_doc, _MAX_DOC)
        )
        setter(self, "_models", None if models is None else _models(owner, models))
        setter(self, "_values", values)
        setter(self, "_agent", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Format({self.adapter_type!r}) is frozen: {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Format({self.adapter_type!r}) is frozen: {name} cannot be deleted")

    def __repr__(self) -> str:
        agent = self._agent.name if self._agent is not None else None
        return f"<Format {self.adapter_type!r} of agent {agent!r}>"

    # -- what the agent gives every format ------------------------------------

    @property
    def agent(self) -> Agent:
        """The :class:`Agent` this format belongs to (set when the agent is made)."""
        if self._agent is None:
            raise LookupError(f"Format({self.adapter_type!r}) belongs to no Agent yet")
        return self._agent

    @property
    def label(self) -> str | None:
        """This format's label, else its agent's."""
        return self._label if self._label is not None or self._agent is None else self._agent.label

    @property
    def agent_configuration_doc(self) -> str | None:
        """This format's routing doc, else its agent's."""
        if self._doc is not None or self._agent is None:
            return self._doc
        return self._agent.agent_configuration_doc

    @property
    def models(self) -> list[ModelOption]:
        """This format's model options (contract 1.6), else its agent's, as the 1.x
        ``models`` export listed them."""
        own = self._models
        listed = own if own is not None else () if self._agent is None else self._agent.models
        return [dict(m) for m in listed]  # type: ignore[misc]

    # -- the callables --------------------------------------------------------

    def _get(self, name: str) -> Any:
        value = self._values[name]
        if type(value) is str:
            value = _resolve_reference(f"Format({self.adapter_type!r})", name, value)
            self._values[name] = value
        return value

    def resolve(self) -> None:
        """Import every ``"module:attribute"`` reference now (the host does, at load).

        Raises :class:`UnresolvedReference` naming the first that cannot be imported.
        """
        for name in FORMAT_CALLABLES:
            self._get(name)

    def references(self) -> dict[str, str]:
        """The callable fields still given as unimported references."""
        return {k: v for k, v in self._values.items() if type(v) is str}

    @property
    def create_stdout_parser(self) -> StdoutParserFactory | None:
        """``create_stdout_parser()``: a fresh stateful parser (one per transcript)."""
        return self._get("create_stdout_parser")  # type: ignore[no-any-return]

    @property
    def parse_stdout_line(self) -> ParseStdoutLine | None:
        """``parse_stdout_line(line, ts)``: the static parser."""
        return self._get("parse_stdout_line")  # type: ignore[no-any-return]

    @property
    def sniff(self) -> Callable[..., float] | None:
        """``sniff(lines) -> float``: how sure (0 to 1) the format wrote these lines."""
        return self._get("sniff")  # type: ignore[no-any-return]

    @property
    def format_stdout_line(self) -> FormatStdoutLine | None:
        """``format_stdout_line(line)``: the CLI's own compact lines."""
        return self._get("format_stdout_line")  # type: ignore[no-any-return]

    @property
    def format_entries(self) -> FormatEntries | None:
        """``format_entries(entries)`` (contract 1.7): the CLI's compact lines made from
        the entries one stdout line gave."""
        return self._get("format_entries")  # type: ignore[no-any-return]

    @property
    def summarize_run(self) -> Callable[..., Any] | None:
        """``summarize_run(lines) -> RunSummary``."""
        return self._get("summarize_run")  # type: ignore[no-any-return]

    @property
    def session_stores(self) -> Callable[..., Any] | None:
        """``session_stores(environ, home)``: where the CLI keeps sessions."""
        return self._get("session_stores")  # type: ignore[no-any-return]

    @property
    def session_records(self) -> Callable[..., Any] | None:
        """``session_records(path, key=None)``: one session as parser lines."""
        return self._get("session_records")  # type: ignore[no-any-return]

    @property
    def session_keys(self) -> Callable[..., Any] | None:
        """``session_keys(path)``: the sessions one store file holds."""
        return self._get("session_keys")  # type: ignore[no-any-return]

    @property
    def check_environment(self) -> Callable[..., Any] | None:
        """``check_environment(environ=None)``: whether the CLI can run on this machine
        (for the formats a run of the CLI writes; a store reader needs none)."""
        return self._get("check_environment")  # type: ignore[no-any-return]


def _models(owner: str, models: object) -> tuple[dict[str, str], ...]:
    if isinstance(models, str | bytes | Mapping) or not isinstance(models, Iterable):
        _refuse(
            owner,
            "models",
            f"must be a list of {{'id', 'label'}} dicts, not {type(models).__name__}",
        )
    found: list[dict[str, str]] = []
    seen: set[str] = set()
    for index, item in enumerate(models):
        where = f"models[{index}]"
        if type(item) is not dict or set(item) != {"id", "label"}:
            _refuse(owner, where, "must be a dict with exactly the keys 'id' and 'label'")
        for key in ("id", "label"):
            if type(item[key]) is not str or not item[key].strip():
                _refuse(owner, f"{where}[{key!r}]", "must be a non-blank str")
        if item["id"] in seen:
            _refuse(owner, where, f"repeats the id {item['id']!r}", ValueError)
        seen.add(item["id"])
        found.append({"id": item["id"], "label": item["label"]})
    if len(found) > _MAX_MODELS:
        _refuse(owner, "models", f"lists more than {_MAX_MODELS} models", ValueError)
    return tuple(found)


class Agent:
    """A plugin's one declared object: an agent CLI and the formats it writes.

    ``name`` is the CLI's name for people (``"claude"``, the name
    ``--cli claude`` takes and its session stores carry); ``label`` how it is
    shown (``"Claude Code"``); ``models`` the model options a run can be
    started with (``{"id", "label"}`` dicts); ``agent_configuration_doc`` the
    routing doc its formats share (each may have its own); ``formats`` one
    :class:`Format` per adapter type, at least one, no adapter type twice,
    each belonging to this agent only.

    ``agent.<adapter type>`` is that format (an entry point value
    ``"linewise_claude:agent.claude_local"`` names it); :meth:`format` too.
    """

    __slots__ = (
        "_by_type",
        "agent_configuration_doc",
        "formats",
        "label",
        "models",
        "name",
    )

    name: str
    label: str
    models: tuple[ModelOption, ...]
    agent_configuration_doc: str | None
    formats: tuple[Format, ...]
    _by_type: dict[str, Format]

    def __init__(
        self,
        name: str,
        *,
        label: str,
        formats: Iterable[Format],
        models: Iterable[Mapping[str, str]] = (),
        agent_configuration_doc: str | None = None,
    ) -> None:
        problem = agent_name_problem(name)
        if problem is not None:
            raise (TypeError if type(name) is not str else ValueError)(f"Agent: {problem}")
        owner = f"Agent({name!r})"
        if label is None:
            _refuse(owner, "label", "is required (how the CLI is shown: 'Claude Code')")
        checked_label = _text(owner, "label", label, _MAX_LABEL)
        if isinstance(formats, Format | str) or not isinstance(formats, Iterable):
            _refuse(owner, "formats", f"must be a list of Format, not {type(formats).__name__}")
        listed = tuple(formats)
        if not listed:
            _refuse(
                owner, "formats", "is empty: an agent serves at least one adapter type", ValueError
            )
        by_type: dict[str, Format] = {}
        for index, item in enumerate(listed):
            if type(item) is not Format:
                _refuse(owner, f"formats[{index}]", f"is a {type(item).__name__}, not a Format")
            if item.adapter_type in by_type:
                _refuse(
                    owner,
                    f"formats[{index}]",
                    f"repeats adapter type {item.adapter_type!r}",
                    ValueError,
                )
            if item._agent is not None:
                _refuse(
                    owner,
                    f"formats[{index}]",
                    f"({item.adapter_type!r}) already belongs to Agent({item._agent.name!r})",
                    ValueError,
                )
            by_type[item.adapter_type] = item
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "label", checked_label)
        setter(self, "models", _models(owner, models))
        setter(
            self,
            "agent_configuration_doc",
            _text(owner, "agent_configuration_doc", agent_configuration_doc, _MAX_DOC),
        )
        setter(self, "formats", listed)
        setter(self, "_by_type", by_type)
        for item in listed:
            setter(item, "_agent", self)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Agent({self.name!r}) is frozen: {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Agent({self.name!r}) is frozen: {name} cannot be deleted")

    def __repr__(self) -> str:
        return f"<Agent {self.name!r}: {', '.join(self._by_type)}>"

    def __getattr__(self, name: str) -> Format:
        # Only for names that are not fields: an adapter type, as entry point values name it.
        if not name.startswith("_"):
            try:
                by_type = object.__getattribute__(self, "_by_type")
            except AttributeError:
                by_type = {}
            found = by_type.get(name)
            if found is not None:
                return found  # type: ignore[no-any-return]
        raise AttributeError(f"Agent has no field or format {name!r}")

    @property
    def adapter_types(self) -> tuple[str, ...]:
        """The adapter types of its formats, in order."""
        return tuple(self._by_type)

    def format(self, adapter_type: str) -> Format:
        """The format serving ``adapter_type``; ``KeyError`` naming the ones it has."""
        found = self._by_type.get(adapter_type)
        if found is None:
            raise KeyError(
                f"Agent({self.name!r}) has no format {adapter_type!r} "
                f"(it has {', '.join(self._by_type)})"
            )
        return found


def format_problem(target: object, adapter_type: str) -> tuple[str, str] | None:
    """What is wrong with an entry point target that is an :class:`Agent` or a :class:`Format`,
    as (reason, hint); None when it is a format of an agent serving ``adapter_type``.

    The host and ``linewise check`` ask this of every 1.5 target: an object
    made by other means than the constructors (or changed since) is caught here.
    """
    if type(target) is Agent:
        return (
            f"the entry point names Agent({target.name!r}), not one of its formats",
            f'name the format: {adapter_type} = "<module>:<agent>.{adapter_type}"',
        )
    if type(target) is not Format:
        return None
    agent = target._agent
    if type(agent) is not Agent:
        return (
            f"Format({target.adapter_type!r}) belongs to no Agent",
            "list the format in its Agent(formats=[...])",
        )
    if target.adapter_type != adapter_type:
        return (
            f"the entry point {adapter_type!r} names Format({target.adapter_type!r})",
            f'name the matching format: {adapter_type} = "<module>:<agent>.{adapter_type}"',
        )
    if agent._by_type.get(adapter_type) is not target:
        return (
            f"Agent({agent.name!r}) does not list Format({adapter_type!r})",
            "make formats with the Format and Agent constructors only",
        )
    return None
