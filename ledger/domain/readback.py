"""Reading back what the ledger stored itself: the shape checked, the content trusted.

Every event is validated in full before it is stored (its bounds, patterns and validators,
DESIGN.md decision 9), and so is every event an import brings in; after that, the hash
chain shows whether a stored event was changed (``ledger audit verify``). Validating it
again each time the log was read made reading it take twice as long (pydantic built a
twin of every record, then a plain record from it, one Python call per nested value:
docs/performance-journal.md, fourteenth session). So the fold reads its own store with
``reader_of``: straight from the JSON's dicts into plain records, checking only what the
code that applies events relies on, the shape:

- every field the class requires is there, and no field it does not know;
- each value has its field's type (strictly: no ``"5"`` for a number, no ``true`` for
  one), a literal's value is one the field allows, and nested records are read alike;
- ids and times are made the objects pydantic makes of them.

Bounds, lengths, patterns and validators are not checked again. Anything off the shape
raises ``NotAsStored``, and the caller reads the event through its pydantic twin
instead, which names what is wrong (``ledger/persistence/mapper.py``).

The read models' rows have a reader of their own (``converter`` in
ledger/projections/shapes.py) that checks nothing: a row holds only what the fold wrote,
and a bad one is mended by a rebuild. An event is the fact itself, which a hand in the
database can reach, so its reader checks the shape and leaves the verdict to the twin.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints
from uuid import UUID

from ledger.domain.per_class import per_class
from ledger.domain.plain import Plain, defaults_of, field_names, template_of

Read = Callable[[Any], Any]
"""Reads one JSON value (as orjson decodes it) into the field's value, or raises."""


class NotAsStored(ValueError):
    """The JSON is not what this code stores for the class (read it through its twin)."""


@per_class
def reader_of(kind: type[Plain]) -> Callable[[Any], Plain]:
    """Reads a dict of ``kind``'s stored fields into a record of ``kind`` (its defaults
    for the fields left out), or raises ``NotAsStored``.

    The reader is a function written for the class (as ``dataclasses`` writes a class's
    ``__init__``): the stored values go into a copy of the class's template at once, and
    each field costs one look at its value's type, made only where the value is still
    in its JSON form (an id as text, a nested record as a dict, a list of values).
    A function looping over the fields through a reader each took 2.5 times as long.

    The fields with a default are looked at only when the JSON holds more than the
    required ones: the log stores no value at its default, and a default is of its
    field's type already. Most of a report's performances are a player's id alone (one
    field looked at, not eleven: a match report was read in 37.6 us, then 31.3 us)."""
    hints = get_type_hints(kind, include_extras=True)
    names = field_names(kind)
    required = frozenset(set(names) - defaults_of(kind).keys())
    namespace: dict[str, Any] = {
        "new": object.__new__,
        "own": object.__setattr__,
        "NotAsStored": NotAsStored,
        "KIND": kind,
        "TEMPLATE": template_of[kind],
        "FIELDS": len(names),
    }
    checks = [field_lines(n, name, hints[name], namespace) for n, name in enumerate(names)]
    # A required field left out reads as None from the template, which its check refuses;
    # only a field whose check lets None through is asked for by name.
    missing = " or ".join(
        f"{name!r} not in values"
        for name, (_, lets_none) in zip(names, checks, strict=True)
        if name in required and lets_none
    )
    lines = [
        "def read(values):",
        f"    if type(values) is not dict{f' or {missing}' if missing else ''}:",
        "        raise NotAsStored(f'not a whole {KIND.__name__}')",
        "    record = TEMPLATE.copy()  # every field in order, at its default",
        "    record.update(values)",
        "    if len(record) != FIELDS:",
        "        raise NotAsStored(f'{KIND.__name__} has a field it does not know')",
    ]
    defaulted: list[str] = []
    for name, (written, _) in zip(names, checks, strict=True):
        if name in required:
            lines += written
        else:
            defaulted += [f"    {line}" for line in written]
    if defaulted:  # the JSON holds a field besides the required ones
        lines += [f"    if len(values) > {len(required)}:", *defaulted]
    lines += ["    made = new(KIND)", "    own(made, '__dict__', record)", "    return made"]
    exec("\n".join(lines), namespace)
    read: Callable[[Any], Plain] = namespace["read"]
    return read


def field_lines(
    number: int, name: str, hint: Any, namespace: dict[str, Any]
) -> tuple[list[str], bool]:
    """The reader's lines for one field: a value not yet of the field's type (or not one
    of a literal's values) goes through the field's ``value_reader``, which makes it or
    raises. A default is of the field's type already. Also whether the lines let None
    through: None stands for a value left out of the JSON too, so such a field, when
    required, is asked for by name (``reader_of``)."""
    hint = bare(hint)
    optional = get_origin(hint) in (Union, types.UnionType)
    inner = bare(only_other(hint)) if optional else hint
    if inner is typing.Any:
        return [], True
    namespace[f"READ{number}"] = value_reader(inner)
    if get_origin(inner) is Literal:
        namespace[f"ALLOWED{number}"] = frozenset(get_args(inner))
        namespace[f"KINDS{number}"] = frozenset(type(value) for value in get_args(inner))
        test = f"(type(v) not in KINDS{number} or v not in ALLOWED{number})"
        lets_none = None in get_args(inner)
    else:
        namespace[f"TYPE{number}"] = get_origin(inner) or inner
        test = f"type(v) is not TYPE{number}"
        lets_none = inner is type(None)
    if optional:
        test = f"v is not None and {test}"
    lines = [
        f"    v = record[{name!r}]",
        f"    if {test}:",
        f"        record[{name!r}] = READ{number}(v)",
    ]
    return lines, optional or lets_none


def bare(hint: Any) -> Any:
    """The type without its constraints (checked when the value was stored)."""
    return get_args(hint)[0] if get_origin(hint) is Annotated else hint


def only_other(hint: Any) -> Any:
    """``X`` of ``X | None``: the only unions a stored record has (another would need its
    discriminator, as pydantic's own union does)."""
    others = [arg for arg in get_args(hint) if arg is not type(None)]
    if len(others) != 1 or len(get_args(hint)) != 2:
        raise TypeError(f"no reader for values of {hint!r}")
    return others[0]


def value_reader(hint: Any) -> Read:
    """The reader of a field annotated ``hint``; TypeError for an annotation no stored
    record uses (a test reads every class of the catalogue, so a new one shows there)."""
    origin = get_origin(hint)
    if origin is Annotated:  # the constraints were checked when the value was stored
        return value_reader(get_args(hint)[0])
    if origin is Literal:
        return literal(get_args(hint))
    if origin in (Union, types.UnionType):
        return optional(hint)
    if origin is tuple:
        return tuple_of(hint)
    if origin is dict:
        return dict_of(hint)
    if isinstance(hint, type) and issubclass(hint, Plain):
        return record_of(hint)
    if hint is typing.Any:
        return lambda value: value
    if hint in EXACT:
        return exactly(hint)
    if hint in MADE:
        return MADE[hint]
    raise TypeError(f"no reader for values of {hint!r}")


def exactly(kind: type) -> Read:
    def read(value: Any) -> Any:
        if type(value) is not kind:
            raise NotAsStored(f"{value!r:.40} is not a {kind.__name__}")
        return value

    return read


EXACT = (str, int, bool, type(None))


def made(kind: type, make: Callable[[str], Any]) -> Read:
    """A value stored as text and made an object (an id, a time)."""

    def read(value: Any) -> Any:
        if type(value) is not str:
            raise NotAsStored(f"{value!r:.40} is not a {kind.__name__}")
        return make(value)

    return read


class Ids(dict[str, UUID]):
    """Ids by their text: every event of a log, and its row in the store, carries its
    log's id (the only ids stored as such, so there are as many as leagues, and the site's),
    and making a ``UUID`` of text costs about 2 microseconds, a third of reading a small
    event."""

    def __missing__(self, text: str) -> UUID:
        made = self[text] = UUID(text)
        return made


IDS = Ids()


MADE: dict[Any, Read] = {
    UUID: made(UUID, IDS.__getitem__),
    datetime: made(datetime, datetime.fromisoformat),
}


def literal(allowed: tuple[Any, ...]) -> Read:
    kinds = {type(value) for value in allowed}
    values = frozenset(allowed)

    def read(value: Any) -> Any:
        if type(value) not in kinds or value not in values:
            raise NotAsStored(f"{value!r:.40} is not one of {sorted(values)}")
        return value

    return read


def optional(hint: Any) -> Read:
    inner = value_reader(only_other(hint))
    return lambda value: None if value is None else inner(value)


def tuple_of(hint: Any) -> Read:
    args = get_args(hint)
    if len(args) != 2 or args[1] is not Ellipsis:
        raise TypeError(f"no reader for values of {hint!r}")
    if bare(args[0]) in EXACT:
        return scalars_of(bare(args[0]))
    item = value_reader(args[0])

    def read(value: Any) -> Any:
        if type(value) is not list:
            raise NotAsStored(f"{value!r:.40} is not a list")
        return tuple(map(item, value))

    return read


def scalars_of(kind: type) -> Read:
    """A list of one plain kind's values (a roll's dice, a casualty's effects), each
    looked at in the loop: not through a reader's call each (half the time)."""

    def read(value: Any) -> Any:
        if type(value) is not list:
            raise NotAsStored(f"{value!r:.40} is not a list")
        for item in value:
            if type(item) is not kind:
                raise NotAsStored(f"{item!r:.40} is not a {kind.__name__}")
        return tuple(value)

    return read


def dict_of(hint: Any) -> Read:
    """A mapping of text to any JSON value (a league's options, a submitted report, an
    amendment): the only mappings a stored record holds, taken as orjson made them."""
    if get_args(hint) != (str, typing.Any):
        raise TypeError(f"no reader for values of {hint!r}")

    def read(value: Any) -> Any:
        if type(value) is not dict:
            raise NotAsStored(f"{value!r:.40} is not a mapping")
        return value

    return read


def record_of(kind: type[Plain]) -> Read:
    """A nested record, read by its class's reader (no stored record holds one of its own
    class, so building the readers this way ends)."""
    return reader_of[kind]
