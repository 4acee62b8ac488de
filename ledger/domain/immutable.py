"""Small value classes, frozen to the type checker and plain to the interpreter.

A ruleset answers a game with effects, is asked its questions in small values and reads
rows gathered into small bundles: a Monte Carlo sample makes thousands of them. A frozen
dataclass sets each field in ``__init__`` through ``object.__setattr__`` (its own
``__setattr__`` refuses), which made building them 3.4% of a gold4 sample's instructions
(callgrind, the three modules' classes frozen or not). ``immutable`` makes a slotted
dataclass that:

- mypy holds frozen (``dataclass_transform``'s ``frozen_default``): assigning a field is a
  type error, and CI runs mypy strict over every module;
- hashes and compares by its fields, as a frozen one does (``unsafe_hash``);
- sets its fields in ``__init__`` as a plain class does.

Worked example::

    @immutable(kw_only=True)
    class Gold:
        team: str
        amount: int

    Gold(team="t1", amount=10_000).amount = 0  # mypy: property "amount" is read-only
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar, dataclass_transform, overload

T = TypeVar("T")


@overload
def immutable(cls: type[T], /) -> type[T]: ...


@overload
def immutable(*, kw_only: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def immutable(
    cls: type[T] | None = None, /, *, kw_only: bool = False
) -> type[T] | Callable[[type[T]], type[T]]:
    def make(kind: type[T]) -> type[T]:
        return dataclasses.dataclass(kind, slots=True, unsafe_hash=True, kw_only=kw_only)

    return make if cls is None else make(cls)
