"""Plain models: typed records that read as fast as plain Python objects, while pydantic
still validates, dumps and describes them, through a twin.

Why not pydantic models themselves: ``BaseModel`` defines ``__getattr__`` (for private and
extra attributes), and on CPython 3.11 a class with ``__getattr__`` keeps the interpreter
from specialising its attribute reads: reading a field of a pydantic model costs about
32 ns, of a plain object about 7 ns. The fold reads the fields of events, their values and
its records for every player in every game: as pydantic models, those reads were about a
sixth of a what-if sample's instructions (docs/performance-journal.md, eleventh session).

So a ``Plain`` object is a plain object whose ``__dict__`` holds its fields' values in
the order the class declares them (the interpreter's cached place of a field then holds for
every record of the class). Pydantic does what it is good at, at the edges, through the
class's *twin*: a pydantic model of the same name, fields, defaults, constraints,
validators and docstrings, built on first use.
- ``Kind(**values)`` and ``Kind.model_validate`` validate through the twin;
  ``Kind.build(**values)`` (``model_construct``) trusts values the code computed;
- ``model_dump`` and ``model_dump_json`` serialise through it;
- ``__get_pydantic_core_schema__`` lets a pydantic model hold a plain one (an API page of
  rows): validated and serialised as the twin, and described as it in the OpenAPI schema.

Plain objects are frozen to everyone but their owner, the store that alone holds one, which
changes its ``__dict__`` in place (``MemoryStore.change``).
"""

from __future__ import annotations

import ast
import inspect
import keyword
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import pairwise
from operator import itemgetter
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Self,
    TypeVar,
    dataclass_transform,
    get_type_hints,
)

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, create_model

# pydantic's marker of a validator in a class body (stable through 2.x): a plain model hands
# its validators to its twin.
from pydantic._internal._decorators import PydanticDescriptorProxy
from pydantic_core import CoreSchema, SchemaSerializer, core_schema

from ledger.domain.per_class import per_class

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

CLASS_VARIABLE = re.compile(r"^(typing\.)?ClassVar\b")
"""A class variable's annotation, as written (annotations are strings in this code base)."""


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(Field,))
class PlainType(type):
    """The class of plain models: gives them pydantic's ``model_fields`` (their twin's), and
    tells type checkers that a plain model is made from its fields by keyword."""

    @property
    def model_fields(cls) -> dict[str, FieldInfo]:
        return twin_of(cls).model_fields


class Plain(metaclass=PlainType):
    """A record of typed fields (see the module's docstring)."""

    model_config: ClassVar[ConfigDict] = ConfigDict(defer_build=True, frozen=True, extra="forbid")
    """The twin's configuration. ``defer_build``: the twin's validator is built when first
    used (a command that validates no value of a class does not pay for it)."""
    declared: ClassVar[dict[str, Any]] = {}
    """What each field declares beside its type: its default or its pydantic ``Field``.
    Taken off the class: a default left as a class attribute would shadow the field and
    keep the interpreter from specialising its reads."""
    validators: ClassVar[dict[str, Any]] = {}
    """The class's pydantic validators (``model_validator``...), which its twin runs."""

    __pydantic_serializer__: ClassVar[TwinSerializer]
    """How pydantic's own functions (``to_jsonable_python``) serialise a plain record."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = {}
        for name, annotation in vars(cls).get("__annotations__", {}).items():
            if CLASS_VARIABLE.match(str(annotation)) or name not in vars(cls):
                continue
            declared[name] = vars(cls)[name]
            delattr(cls, name)
        cls.declared = {**cls.declared, **declared}
        found = {n: v for n, v in vars(cls).items() if isinstance(v, PydanticDescriptorProxy)}
        cls.validators = {**cls.validators, **found}
        if "build" not in vars(cls):  # a class never builds with its base's own ``build``
            cls.build = Plain.__dict__["build"]  # type: ignore[method-assign]

    def __init__(self, **values: Any) -> None:
        """A record validated as the twin validates it (a ``ValidationError`` else)."""
        valid = twin_of(type(self))(**values)
        object.__setattr__(self, "__dict__", dict(valid.__dict__))

    @classmethod
    def build(cls, **values: Any) -> Self:
        """A record of values that are valid already (no validation): the fold builds a
        million at 10^5 events (a game's lines, a history's). Each class is given a
        ``build`` of its own the first time it builds one (``builder_of``), which takes
        the fields by name and holds them in the class's order; a field left out is at its
        default (None where it has none), and a name that is not a field is an error."""
        own_build = builder_of[cls]
        setattr(cls, "build", classmethod(own_build))  # noqa: B010 - the class's own, from now on
        return own_build(cls, **values)  # type: ignore[return-value]

    @classmethod
    def model_construct(cls, **values: Any) -> Self:
        """``build``, by pydantic's name for it (a name that is not a field is refused, where
        pydantic's would drop it)."""
        return cls.build(**values)

    # --- pydantic's interface, through the twin -------------------------------------------

    @classmethod
    def model_validate(cls, data: Any) -> Self:
        if isinstance(data, cls):
            return data
        return cls.of_twin(twin_of(cls).model_validate(data))

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> Self:
        return cls.of_twin(twin_of(cls).model_validate_json(data))

    @classmethod
    def model_json_schema(cls, **options: Any) -> dict[str, Any]:
        return twin_of(cls).model_json_schema(**options)

    @classmethod
    def of_twin(cls, model: BaseModel) -> Self:
        return fresh(cls, dict(model.__dict__))

    def as_twin(self) -> BaseModel:
        return trusted(twin_of(type(self)), dict(self.__dict__), set(self.__dict__))

    def model_dump(self, **options: Any) -> dict[str, Any]:
        return self.as_twin().model_dump(**options)

    def model_dump_json(self, **options: Any) -> str:
        return self.as_twin().model_dump_json(**options)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A changed copy, without validation (the values are valid already)."""
        values = dict(self.__dict__)
        if deep:
            import copy  # rare: only a what-if's deep copies

            values = copy.deepcopy(values)
        if update:
            values.update(update)
        return fresh(type(self), values)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """Held by a pydantic model, a plain one is validated as its twin (a record as it
        is), serialised as its twin, and described as its twin."""

        def validate(value: Any, twin: core_schema.ValidatorFunctionWrapHandler) -> Any:
            return value if isinstance(value, cls) else cls.of_twin(twin(value))

        return core_schema.no_info_wrap_validator_function(
            validate,
            handler(twin_of(cls)),
            serialization=core_schema.plain_serializer_function_ser_schema(
                Plain.as_twin, return_schema=handler(twin_of(cls))
            ),
        )

    # --- an object's behaviour ------------------------------------------------------------

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self), *self.__dict__.values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.__dict__.items())
        return f"{type(self).__name__}({fields})"


class TwinSerializer:
    """``__pydantic_serializer__`` of every plain model: pydantic's functions serialise an
    object that has one with it, and a plain record is serialised as its twin."""

    def __get__(self, record: Plain | None, kind: type[Plain]) -> SchemaSerializer:
        return serializer_of(kind)


Plain.__pydantic_serializer__ = TwinSerializer()


@cache
def serializer_of(kind: type[Plain]) -> SchemaSerializer:
    as_twin = core_schema.plain_serializer_function_ser_schema(
        Plain.as_twin, return_schema=twin_of(kind).__pydantic_core_schema__
    )
    return SchemaSerializer(core_schema.any_schema(serialization=as_twin))


P = TypeVar("P", bound=Plain)
M = TypeVar("M", bound=BaseModel)


def fresh(kind: type[P], values: dict[str, Any]) -> P:
    """A ``kind`` holding ``values`` as they are (no validation: they are valid already),
    in the order of its fields, as every record of the class holds them."""
    new = object.__new__(kind)
    object.__setattr__(new, "__dict__", values)
    return new


def trusted(kind: type[M], values: dict[str, Any], fields_set: set[str]) -> M:
    """A pydantic model holding ``values`` as they are (no validation: they are valid
    already), with ``fields_set`` as its given fields."""
    new = object.__new__(kind)
    object.__setattr__(new, "__dict__", values)
    _set_fields_set(new, fields_set)
    _set_extra(new, None)
    _set_private(new, None)
    return new


# BaseModel's slots, set through their descriptors: a third cheaper than object.__setattr__
# by name.
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


@cache
def twin_of(kind: type[Plain]) -> type[BaseModel]:
    """The pydantic model that validates, dumps and describes ``kind``'s records: its
    fields, defaults, validators, configuration and docstrings."""
    hints = get_type_hints(kind, include_extras=True)
    fields = {name: hints[name] for name in field_names(kind)}
    config = dict(kind.model_config)
    if config.pop("use_attribute_docstrings", False):
        # Pydantic reads the docstrings in the source of the class it builds, and the twin
        # has none: they are read off ``kind``'s and given as the fields' descriptions.
        docs = docs_of(kind)
        fields = {
            name: Annotated[hint, Field(description=docs[name])] if name in docs else hint
            for name, hint in fields.items()
        }
    definitions: dict[str, Any] = {
        name: (hint, kind.declared.get(name, ...)) for name, hint in fields.items()
    }
    return create_model(
        kind.__name__,
        __config__=ConfigDict(**config),  # type: ignore[typeddict-item]
        __doc__=kind.__doc__,
        __module__=kind.__module__,
        __qualname__=kind.__qualname__,
        __validators__=kind.validators,
        **definitions,
    )


def docs_of(kind: type[Plain]) -> dict[str, str]:
    """The docstrings of ``kind``'s fields, its bases' included."""
    docs: dict[str, str] = {}
    for cls in reversed(kind.__mro__):
        if issubclass(cls, Plain):
            docs.update(field_docs(cls))
    return docs


def field_docs(kind: type) -> dict[str, str]:
    """The docstrings under ``kind``'s own fields (the string after an annotated name),
    read off its module's source, which is parsed once for all its classes."""
    node = classes_in(kind.__module__).get(kind.__qualname__)
    docs: dict[str, str] = {}
    body = node.body if node is not None else []
    for first, second in pairwise(body):
        if (
            isinstance(first, ast.AnnAssign)
            and isinstance(first.target, ast.Name)
            and isinstance(second, ast.Expr)
            and isinstance(second.value, ast.Constant)
            and isinstance(second.value.value, str)
        ):
            docs[first.target.id] = inspect.cleandoc(second.value.value)
    return docs


@cache
def classes_in(module: str) -> dict[str, ast.ClassDef]:
    """Every class a module's source defines, by its qualified name."""
    found: dict[str, ast.ClassDef] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                found[prefix + node.name] = node
                visit(node.body, f"{prefix}{node.name}.")

    visit(ast.parse(inspect.getsource(sys.modules[module])).body, "")
    return found


def field_names(kind: type[Plain]) -> list[str]:
    """The fields the plain classes of ``kind``'s line declare, in their order (a base's
    first): the annotations of other bases (eventsourcing's mixins) are not fields."""
    names: dict[str, None] = {}
    for cls in reversed(kind.__mro__):
        if issubclass(cls, Plain):
            for name, annotation in vars(cls).get("__annotations__", {}).items():
                if not CLASS_VARIABLE.match(str(annotation)):
                    names[name] = None
    return list(names)


def fields_reader(names: Sequence[str]) -> Callable[[dict[str, Any]], Any]:
    """Reads the values of ``names`` off a plain model's ``__dict__`` as one value to
    compare or hash (a tuple; one name's value alone; ``()`` for none)."""
    return itemgetter(*names) if names else (lambda values: ())


@per_class
def builder_of(kind: type[Plain]) -> Callable[..., Plain]:
    """``kind``'s own ``build``, written for the class (as ``dataclasses`` writes a class's
    ``__init__``): its fields as keyword arguments, at their defaults, held in a dict
    written out in the class's order. 0.7 us for a game's line of fifteen fields, against
    1.3 us for a copy of the class's template updated with the keywords given (timeit)."""
    values = ", ".join(f"{name!r}: {name}" for name in template_of[kind])
    body = f"    made = new(cls)\n    own(made, '__dict__', {{{values}}})\n    return made\n"
    namespace = {"new": object.__new__, "own": object.__setattr__}
    built: Callable[..., Plain] = keyword_function(kind, "build", "cls, ", body, namespace)
    return built


def keyword_function(
    kind: type[Plain], name: str, first: str, body: str, namespace: dict[str, Any]
) -> Callable[..., Any]:
    """A function written for ``kind`` (``body``, after the parameters ``first``) whose
    keyword arguments are ``kind``'s fields, each at its default."""
    names = list(template_of[kind])
    if any(keyword.iskeyword(name) or not name.isidentifier() for name in names):
        raise TypeError(f"{kind.__name__} has a field that cannot be a keyword argument")
    namespace |= {f"D{number}": template_of[kind][name] for number, name in enumerate(names)}
    arguments = ", ".join(f"{name}=D{number}" for number, name in enumerate(names))
    exec(f"def {name}({first}*, {arguments}):\n{body}", namespace)  # from checked names
    written: Callable[..., Any] = namespace[name]
    return written


@per_class
def template_of(kind: type[Plain]) -> dict[str, Any]:
    """Every field of ``kind`` in order, at its default (None where it has none)."""
    return dict.fromkeys(kind.model_fields) | defaults_of(kind)


@cache
def defaults_of(kind: type[Plain]) -> dict[str, Any]:
    """The default of each of ``kind``'s fields that has one, as pydantic gives it."""
    return {
        name: field.get_default(call_default_factory=True)
        for name, field in kind.model_fields.items()
        if not field.is_required()
    }
