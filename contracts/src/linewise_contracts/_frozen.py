"""Frozen values whose methods are written out, not generated when the module is imported.

``@dataclass(frozen=True, slots=True)`` compiles an ``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` from source text for
every class as its module is imported: about 5 M instructions a class, a tenth
of a one-line ``linewise render`` for the few a run needs. A class made of
:class:`FrozenValue` declares its ``__slots__`` and fields and writes its
``__init__``; :func:`frozen_value` still makes it a dataclass
(``@dataclass(init=False, repr=False, eq=False)``, which lists its fields in order
without compiling anything), so
``dataclasses.fields``, ``replace`` and ``asdict`` work on it as before, and it
behaves as the frozen dataclass did: fields cannot be set or deleted
(:class:`dataclasses.FrozenInstanceError`), equal when of the same class with
equal fields, hashable, a dataclass's repr, and picklable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass
from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform

__all__ = ["FrozenValue", "frozen_value", "set_fields"]

_Value = TypeVar("_Value", bound="FrozenValue")


@dataclass_transform(frozen_default=True)
def frozen_value(*, kw_only: bool = False) -> Callable[[type[_Value]], type[_Value]]:
    """The class decorator: a dataclass with written-out methods (type checkers see it frozen)."""

    def decorate(cls: type[_Value]) -> type[_Value]:
        return dataclass(init=False, repr=False, eq=False, kw_only=kw_only)(cls)

    return decorate


def set_fields(value: FrozenValue, **fields: object) -> None:
    """Give a new value its fields (in ``__init__``: they cannot be set afterwards)."""
    setter = object.__setattr__
    for name, item in fields.items():
        setter(value, name, item)


def _restored(cls: type[_Value], values: tuple[object, ...]) -> _Value:
    """A value from its fields, as pickled (without calling ``__init__`` again)."""
    value = object.__new__(cls)
    setter = object.__setattr__
    for name, item in zip(cls.__dataclass_fields__, values, strict=True):  # type: ignore[attr-defined]
        setter(value, name, item)
    return value


class FrozenValue:
    """The behaviour of a frozen dataclass, for dataclasses whose fields are their ``__slots__``."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__dataclass_fields__)  # type: ignore[attr-defined]

    if not TYPE_CHECKING:  # type checkers know the fields are frozen (frozen_value)

        def __setattr__(self, name: str, value: object) -> None:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")

        def __delattr__(self, name: str) -> None:
            raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in self.__dataclass_fields__  # type: ignore[attr-defined]
        )
        return f"{self.__class__.__qualname__}({fields})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restored, (self.__class__, self._values()))
