"""Printing: aligned tables for people, JSON for scripts."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import click
import orjson
from pydantic import BaseModel

from ledger.domain.values import MAX_NUMBER
from ledger.errors import FileProblem

SEASON = click.IntRange(1, MAX_NUMBER)
"""A season's number as an option takes it (the bound every event holds it to)."""


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


# --- files named on the command line ----------------------------------------------------


def check_out(path: Path, option: str = "--out") -> None:
    """Refuse, before any work, an output path that cannot be a file: a folder, a name
    in a folder that does not exist, a name the system cannot hold."""
    try:
        if path.is_dir():
            raise FileProblem(f"{option} {path} is a folder: name a file in it")
        if not path.parent.is_dir():
            raise FileProblem(f"{option} {path}: there is no folder {path.parent}")
    except OSError as error:
        raise FileProblem(f"{option} {path}: {error.strerror or error}") from None


def write_file(path: Path, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` to ``path`` whole or not at all: a regular file goes through a
    temporary file renamed over it (a full disk leaves the old file as it was); a device
    or a pipe (``/dev/stdout``) is written in place."""
    check_out(path)
    if path.exists() and not path.is_file():
        write_into(path, chunks, path)
        return
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=".ledger-")
    except OSError as error:
        raise FileProblem(f"cannot write {path}: {error.strerror or error}") from None
    os.close(handle)
    temporary = Path(name)
    try:
        write_into(temporary, chunks, path)
        temporary.chmod(0o644)  # mkstemp's 0600 would hide a backup from its owner's group
        os.replace(temporary, path)
    except OSError as error:
        raise FileProblem(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        temporary.unlink(missing_ok=True)


def write_into(target: Path, chunks: Iterable[bytes], named: Path) -> None:
    try:
        with target.open("wb") as stream:
            for chunk in chunks:
                stream.write(chunk)
    except OSError as error:
        raise FileProblem(f"cannot write {named}: {error.strerror or error}") from None


def open_to_read(path: Path) -> BinaryIO:
    """A file to read whole, opened: a regular file (``/dev/zero`` would never end, a
    folder is no file at all)."""
    try:
        if not path.is_file():
            raise FileProblem(f"{path} is not a regular file")
        return path.open("rb")
    except OSError as error:
        raise FileProblem(f"cannot read {path}: {error.strerror or error}") from None
