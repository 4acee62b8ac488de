"""Tables that fit unwrapped are written out directly (cli/output.py ``columns``) rather than
laid out by rich, which costs about 0.3 s for a big ledger's standings: what a coach sees
must not change, so the two are held to the same bytes, with and without colour."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import output

# Team names, figures, accents, wide characters (a two-cell CJK glyph) and empty cells;
# every table has its headers (an empty header goes to rich, which draws it its own way).
TEXT = st.text(alphabet=st.sampled_from([*"abcXYZ 019,-+é'&", "龍", "ß"]), max_size=14).map(
    str.strip
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[str], list[list[str]], list[int], list[int]]:
    count = draw(st.integers(1, 6))
    heads = draw(st.lists(TEXT.filter(bool), min_size=count, max_size=count))
    rows = draw(st.lists(st.lists(TEXT, min_size=count, max_size=count), max_size=8))
    shown = sorted(draw(st.sets(st.integers(0, count - 1), min_size=1)))
    right = sorted(draw(st.sets(st.integers(0, count - 1))))
    return heads, rows, shown, right


@pytest.mark.parametrize("colour", [False, True], ids=["pipe", "terminal"])
@settings(max_examples=150, deadline=None)
@given(table=tables())
def test_columns_are_what_rich_draws(
    colour: bool, table: tuple[list[str], list[list[str]], list[int], list[int]]
) -> None:
    heads, rows, shown, right = table
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(output, "colour", lambda: colour)
        direct = output.columns(heads, rows, shown, right)
        assert direct == output.laid_out(heads, rows, shown, right, set(), None)


def test_a_standings_like_table_takes_the_direct_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output, "terminal_width", lambda: None)
    monkeypatch.setattr(output, "laid_out", lambda *args: pytest.fail("laid out by rich"))
    rows = [["1", "Reavers", "1,210,000", "32"], ["10", "Chargers", "980,000", "7"]]
    text = output.table(["#", "team", "TV", "pts"], rows, right=(0, 2, 3))
    assert text.splitlines() == [
        " #  team             TV  pts",
        "--- --------- ---------- ---",
        " 1  Reavers   1,210,000   32",
        "10  Chargers    980,000    7",
    ]


def test_a_table_too_wide_for_the_terminal_is_still_wrapped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(output, "terminal_width", lambda: 24)
    rows = [["1", "Talabheim Marauders of the North", "32"]]
    lines = output.table(["#", "team", "pts"], rows, right=(0, 2)).splitlines()
    assert max(len(line) for line in lines) <= 24
    assert len(lines) > 3


@given(text=st.text(alphabet=st.sampled_from([*"abc 9,-\t\n\x07\x1b", "é", "龍", "\u200b"])))
def test_a_cells_width_is_the_columns_rich_gives_it(text: str) -> None:
    """``cell_width`` counts a printable ASCII cell by its length, without asking rich:
    the same width rich gives it, and any other cell's (wide, zero-width, control
    characters, several lines) is rich's own."""
    from rich.cells import cell_len

    assert output.cell_width(text) == max((cell_len(line) for line in text.splitlines()), default=0)
