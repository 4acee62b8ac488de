"""How the ledger's sentences count and own: ``1 division``, ``2 divisions``, ``the
Griffons' report``. Shared by every layer, like ledger/errors.py (it imports nothing)."""

from __future__ import annotations


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


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``: a place or a draw's turn."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
