"""How the ledger's sentences count and own: ``1 division``, ``2 divisions``, ``the
Griffons' report``. Shared by every layer, like ledger/errors.py (it imports nothing)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, singular for one: ``plural(1, "event")`` is ``1 event``,
    ``plural(3, "casualty", "casualties")`` is ``3 casualties``. Thousands are grouped."""
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"


def words(name: str | int | None) -> str:
    """An id of the books as words: ``assistant_coach`` is ``assistant coach`` (where no
    edition's own name for it is at hand)."""
    return str(name or "").replace("_", " ")


def spaced(event_type: str) -> str:
    """An event's type as words: ``MatchRecorded`` is ``match recorded``."""
    return "".join(f" {c.lower()}" if c.isupper() else c for c in event_type).strip()


def possessive(name: str) -> str:
    """``name``'s, or ``name``' for a name ending in s (``the Griffons' treasury``)."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def article(noun: str) -> str:
    """``noun`` after the indefinite article its sound takes: ``an Ogre``, ``a Lineman``.
    By its first letter, except the vowels said as a consonant (``a Unicorn``, ``a
    one-eyed Troll``)."""
    sounds_like_a = noun.lower().startswith(("uni", "use", "usu", "eu", "one", "once"))
    an = noun[:1].lower() in tuple("aeiou") and not sounds_like_a  # not "": in "aeiou"
    return f"{'an' if an else 'a'} {noun}"


def advancement(
    skill: str | None, characteristic: str | None, removed: tuple[str, ...] | list[str] = ()
) -> str:
    """An advancement as a roster lists it: the skill taken (``Block``), the characteristic
    raised (``+MA``), or the trait a Big Guy's roll took away (``Really Stupid removed``)."""
    if removed:
        return ", ".join(removed) + " removed"
    if skill:
        return skill
    return f"+{characteristic.upper()}" if characteristic else "-"


def one_of(names: Sequence[str]) -> str:
    """``A or B``; ``A, B or C``: what a roll lets a player take."""
    if len(names) < 3:
        return " or ".join(names)
    return f"{', '.join(names[:-1])} or {names[-1]}"


def rolls_said(rolls: Iterable[tuple[str, Iterable[int]]]) -> str:
    """Rolls by purpose, as a commissioner writes them: ``random_skill 3,5 and 2,4``."""
    by_purpose: dict[str, list[str]] = {}
    for purpose, values in rolls:
        by_purpose.setdefault(purpose, []).append(",".join(str(v) for v in values))
    return "; ".join(f"{p} {' and '.join(v)}" for p, v in by_purpose.items())


def taken(advancement_row: dict[str, object]) -> str:
    """An advancement of a player's row (``PlayerRow.advancements``) as a roster lists it."""
    skill, stat, lost = (advancement_row.get(k) for k in ("skill", "characteristic", "lost"))
    return advancement(
        skill if isinstance(skill, str) else None,
        stat if isinstance(stat, str) else None,
        [str(t) for t in lost] if isinstance(lost, list | tuple) else (),
    )


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``: a place or a draw's turn."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
