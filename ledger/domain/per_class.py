"""What each record class answers once, read by subscript: ``per_class``.

The stores and the records ask, for every record they put, change or copy, a fact of its
class: its key's reader, its buckets, the fields that place it, its template. As a
``functools.cache`` of the class, each question builds a tuple of its argument and hashes
it: 66 ns a call against 35 ns for a subscript of a dict (timeit), and a Monte Carlo sample
asks some five thousand of them. ``per_class`` keeps the answers in a dict that works out
a class's answer the first time it is asked (``__missing__``).

Worked example::

    @per_class
    def structural(kind: type[Record]) -> frozenset[str]:
        return frozenset(kind.key)

    structural[PlayerRow]  # worked out once, then read off the dict
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

V = TypeVar("V")


class per_class(dict[type[Any], V]):
    """``make(kind)`` for each class ``kind``, worked out when first asked."""

    def __init__(self, make: Callable[[type[Any]], V]) -> None:
        super().__init__()
        self.make = make
        self.__doc__ = make.__doc__

    def __missing__(self, kind: type[Any]) -> V:
        answer = self[kind] = self.make(kind)
        return answer
