"""Printing: aligned tables for people, JSON for scripts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
import orjson
from pydantic import BaseModel


def as_json(data: Any) -> str:
    def default(value: Any) -> Any:
        if isinstance(value, BaseModel):
            return value.model_dump(mode="json")
        raise TypeError(type(value).__name__)

    return orjson.dumps(data, default=default, option=orjson.OPT_INDENT_2).decode()


def print_json(data: Any) -> None:
    click.echo(as_json(data))


def gold(amount: int | None) -> str:
    return "" if amount is None else f"{amount:,}"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Sequence[int] = ()) -> str:
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(r) for r in cells[1:])])


def say(text: str = "") -> None:
    click.echo(text)
