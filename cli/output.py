"""Printing: aligned tables for people, JSON for scripts."""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

import click
import orjson
from pydantic import BaseModel

from cli.main import WIDE_KEY, set_wide
from ledger.domain.plain import Plain
from ledger.domain.values import MAX_NUMBER
from ledger.errors import FileProblem

SEASON = click.IntRange(1, MAX_NUMBER)
"""A season's number as an option takes it (the bound every event holds it to)."""


ASCII_HEAD = "    \n    \n -  \n    \n    \n    \n    \n    \n"
"""rich's box for tables: columns apart, a rule of dashes under the headers, nothing else:
plain text that pastes into a forum post or an e-mail as it looks. rich itself is imported
only by a table that must wrap: most tables fit and are written out directly (``columns``),
and importing rich costs every command tens of milliseconds."""

REASON = click.option("--reason", help="Why (kept in the log).")


def as_json(data: Any) -> str:
    def default(value: Any) -> Any:
        if isinstance(value, BaseModel | Plain):
            return value.model_dump(mode="json")
        raise TypeError(type(value).__name__)

    return orjson.dumps(data, default=default, option=orjson.OPT_INDENT_2).decode()


def print_json(data: Any) -> None:
    click.echo(as_json(data))


def dice_text(values: Iterable[int]) -> str:
    """Dice as a commissioner writes them: 3, or 3,5."""
    return ",".join(str(v) for v in values)


def gold(amount: int | None) -> str:
    return "" if amount is None else f"{amount:,}"


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    right: Sequence[int] = (),
    *,
    wrap: Sequence[int] | None = None,
    drop: Sequence[int] = (),
) -> str:
    """Aligned columns that fit the terminal: first the columns in ``wrap`` (default: every
    column not in ``right``) wrap their text, then the columns in ``drop`` are left out,
    the first first, until the table fits; a line under the table names what was left out.
    ``--wide``, or output that is not a terminal (unless $COLUMNS says a width), shows
    every column unwrapped. docs/commissioners-guide.md ("Narrow terminals") lists what
    each command drops first."""
    cells = [["" if c is None else str(c) for c in r] for r in rows]
    heads = [str(h) for h in headers]
    wrapping = set(range(len(heads))) - set(right) if wrap is None else set(wrap)
    width = terminal_width()
    shown = fitting(heads, cells, wrapping, drop, width)
    # Still too wide with nothing more to leave out: wider lines rather than cut columns.
    least = least_width(heads, cells, wrapping, shown)
    text = render(heads, cells, shown, right, wrapping, width and max(width, least))
    left_out = [heads[i] for i in range(len(heads)) if i not in shown]
    if left_out:
        text += "\n" + wrapped(
            f"(not shown at {width} columns: {', '.join(left_out)}; --wide shows all)"
        )
    return text


def wrapped(text: str) -> str:
    """``text`` wrapped at spaces to the terminal's width (as it is, on a pipe)."""
    width = terminal_width()
    return text if width is None else "\n".join(textwrap.wrap(text, width, break_on_hyphens=False))


def spaced(parts: Iterable[str]) -> str:
    """Figures two spaces apart, on as many lines as the terminal's width needs."""
    width = terminal_width()
    lines: list[str] = []
    for part in (p for p in parts if p):
        if lines and (width is None or cell_width(lines[-1]) + 2 + cell_width(part) <= width):
            lines[-1] += "  " + part
        else:
            lines.append(part)
    return "\n".join(lines)


WRAP_AT_LEAST = 12
"""The narrowest a wrapping column becomes (its header's width if that is wider)."""


def fitting(
    heads: list[str],
    cells: list[list[str]],
    wrapping: set[int],
    drop: Sequence[int],
    width: int | None,
) -> list[int]:
    """The columns to show: all, unless ``width`` cannot hold them even wrapped."""
    shown = list(range(len(heads)))
    if width is None:
        return shown
    for column in (None, *drop):
        if column is not None and len(shown) > 1:
            shown.remove(column)
        if least_width(heads, cells, wrapping, shown) <= width:
            break
    return shown


def least_width(
    heads: list[str], cells: list[list[str]], wrapping: set[int], shown: list[int]
) -> int:
    # each column is followed by a space of padding, and columns are a space apart
    return sum(narrowest(heads, cells, wrapping, i) for i in shown) + 2 * len(shown) - 1


def narrowest(heads: list[str], cells: list[list[str]], wrapping: set[int], i: int) -> int:
    """Column ``i``'s width, or what it can wrap down to (never narrower than its header)."""
    natural = max(cell_width(text) for text in [heads[i], *(row[i] for row in cells)])
    if i not in wrapping:
        return natural
    return min(natural, max(cell_width(heads[i]), WRAP_AT_LEAST))


def cell_width(text: str) -> int:
    if text.isascii() and text.isprintable():  # most cells: a column a character, one line
        return len(text)
    from rich.cells import cell_len

    return max((cell_len(line) for line in text.splitlines()), default=0)


def render(
    heads: list[str],
    cells: list[list[str]],
    shown: list[int],
    right: Sequence[int],
    wrapping: set[int],
    width: int | None,
) -> str:
    if (
        shown
        and all(heads[i] for i in shown)  # rich draws a column with no header its own way
        and all_one_line(heads, cells)
        and (width is None or natural_width(heads, cells, shown) <= width)
    ):
        return columns(heads, cells, shown, right)
    return laid_out(heads, cells, shown, right, wrapping, width)


def laid_out(
    heads: list[str],
    cells: list[list[str]],
    shown: list[int],
    right: Sequence[int],
    wrapping: set[int],
    width: int | None,
) -> str:
    """The table as rich lays it out: cells wrapped to fit ``width``."""
    from rich.box import Box
    from rich.table import Table
    from rich.text import Text

    grid = Table(
        box=Box(ASCII_HEAD, ascii=True),
        show_edge=False,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        header_style="bold" if colour() else "",
    )
    for i in shown:
        grid.add_column(
            heads[i],
            justify="right" if i in right else "left",
            no_wrap=width is None or i not in wrapping,
            overflow="fold",
            min_width=narrowest(heads, cells, wrapping, i),
        )
    for row in cells:
        grid.add_row(*(Text(row[i]) for i in shown))
    return rendered(grid, width)


def all_one_line(heads: list[str], cells: list[list[str]]) -> bool:
    """Whether no cell has a line break (rich gives such a cell several lines)."""
    return not any("\n" in text for text in heads) and not any(
        "\n" in text for row in cells for text in row
    )


def natural_width(heads: list[str], cells: list[list[str]], shown: list[int]) -> int:
    return least_width(heads, cells, set(), shown)


def columns(
    heads: list[str], cells: list[list[str]], shown: list[int], right: Sequence[int]
) -> str:
    """What ``render`` draws when every column fits unwrapped, written out directly: rich
    lays a table out cell by cell, about 0.3 s for the standings of a big ledger, while
    this is a few string joins. tests/cli/test_output_columns.py holds it to rich's
    output, byte for byte, with and without colour."""
    from rich.cells import cell_len

    widths = [narrowest(heads, cells, set(), i) for i in shown]

    def justified(i: int, text: str, width: int) -> str:
        fill = " " * (width - cell_len(text))
        return fill + text if i in right else text + fill

    def line(texts: list[str], bold: bool = False) -> str:
        bodies = [justified(i, t, w) for i, t, w in zip(shown, texts, widths, strict=True)]
        if bold:  # rich styles a header cell and its padding apart
            bodies = [f"{BOLD}{body}{PLAIN}" for body in bodies]
        pad = f"{BOLD} {PLAIN}" if bold else " "
        return " ".join([*(body + pad for body in bodies[:-1]), bodies[-1]]).rstrip()

    # the last column has no padding (``pad_edge=False``), so its rule is one shorter
    rule = " ".join("-" * (w + 1) for w in widths[:-1]) + " " + "-" * widths[-1]
    head = line([heads[i] for i in shown], bold=colour())
    return "\n".join([head, rule.lstrip(), *(line([row[i] for i in shown]) for row in cells)])


BOLD, PLAIN = "\x1b[1m", "\x1b[0m"


def rendered(thing: Any, width: int | None) -> str:
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width or UNLIMITED,
        color_system="auto" if colour() else None,
        force_terminal=colour(),
        no_color=not colour(),
        highlight=False,
        markup=False,
        emoji=False,
    )
    console.print(thing)
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))


UNLIMITED = 100_000


def terminal_width() -> int | None:
    """The width to fit: none with ``--wide``; $COLUMNS when set (``COLUMNS=80 ledger
    roster ...`` shows what an 80-column terminal would); the terminal's own; else none
    (a pipe or a file gets every column, as scripts that grep them expect)."""
    context = click.get_current_context(silent=True)
    if context is not None and context.meta.get(WIDE_KEY):
        return None
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return max(int(given), 20)
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def colour() -> bool:
    """Colour only on a terminal, and never when $NO_COLOR is set (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


WIDE = click.option(
    "--wide",
    is_flag=True,
    expose_value=False,
    callback=set_wide,
    help="Show every column, however wide the terminal.",
)
"""``--wide`` on a command that prints tables (the root command has it too)."""


@contextmanager
def progress(label: str, total: int | None, *, quiet: bool = False) -> Iterator[Advance]:
    """A progress bar on stderr while a long job runs (rebuild, import, generate, what-if
    samples): only when stderr is a terminal, never for ``--json`` (``quiet``), gone when
    the job ends. The job calls what this yields with the units it has done."""
    if quiet or not sys.stderr.isatty():
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True, no_color=bool(os.environ.get("NO_COLOR")))
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.advance(task, done)


Advance = Callable[[int], None]


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
