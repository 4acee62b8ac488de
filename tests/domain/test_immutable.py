"""``immutable`` values: compared and hashed by their fields like frozen dataclasses, slotted,
and frozen where it is enforced for them: by mypy, which CI runs strict over every module."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from mypy import api

from ledger.domain.immutable import immutable
from ledger.rules.effects import Gold, Hurt


def test_a_value_compares_and_hashes_by_its_fields() -> None:
    first = Gold(team="t1", amount=10_000, kind="winnings")
    same = Gold(team="t1", amount=10_000, kind="winnings")
    other = Gold(team="t1", amount=20_000, kind="winnings")
    assert first == same
    assert hash(first) == hash(same)
    assert first != other
    assert len({first, same, other}) == 2
    assert Hurt(player="p1", effects=("niggling",)) == Hurt(player="p1", effects=("niggling",))


def test_a_value_is_slotted_and_made_by_keyword_when_asked() -> None:
    value = Gold(team="t1", amount=1, kind="winnings")
    assert not hasattr(value, "__dict__")
    with pytest.raises(TypeError):
        Gold("t1", 1, "winnings")  # type: ignore[misc]

    @immutable
    class Pair:
        left: int
        right: int = 0

    assert Pair(1) == Pair(left=1, right=0)


def test_mypy_refuses_a_changed_field(tmp_path: Path) -> None:
    source = tmp_path / "uses_immutable.py"
    source.write_text(
        textwrap.dedent(
            """
            from ledger.domain.immutable import immutable

            @immutable(kw_only=True)
            class Gold:
                team: str
                amount: int

            gold = Gold(team="t1", amount=10_000)
            gold.amount = 0
            Gold(team="t1", amount="lots")
            """
        )
    )
    out, _, status = api.run(
        ["--strict", "--no-incremental", "--follow-imports=silent", str(source)]
    )
    assert status == 1
    assert 'Property "amount" defined in "Gold" is read-only' in out
    assert 'Argument "amount" to "Gold" has incompatible type "str"; expected "int"' in out
