"""A stored event that could not be read back, kept in its place in the log.

Nothing is stored that the ledger cannot apply (DESIGN.md decision 9), but a log written
by an older version, or altered outside the ledger, may still hold such an event. Reading
it as this placeholder rather than raising keeps the league's log readable in order: the
fold passes over it and reports it, the log's next event still chains from its hash, and
the commissioner can void it like any other event. It is never stored: its class is not
in the event catalogue, so no topic resolves to it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from pydantic import ValidationError

from ledger.domain.events import LedgerEvent

UNKNOWN_TIME = datetime(1970, 1, 1, tzinfo=UTC)


class UnreadableEvent(LedgerEvent):
    topic: str
    """The stored topic, as found."""
    problem: str
    """Why it could not be read, in a sentence."""

    @classmethod
    def of(
        cls, originator_id: UUID | str, seq: int, topic: str, state: Any, problem: str
    ) -> UnreadableEvent:
        """The placeholder for stored event ``seq``; ``state`` is its raw content if it
        parsed as JSON at all (its hashes keep the log chained past it)."""
        found = state if isinstance(state, dict) else {}
        return cls.model_construct(
            originator_id=UUID(str(originator_id)),
            originator_version=seq,
            timestamp=UNKNOWN_TIME,
            recorded_by=str(found.get("recorded_by", "")),
            reason=None,
            prev_hash=str(found.get("prev_hash", "")),
            hash=str(found.get("hash", "")),
            topic=topic,
            problem=problem,
        )


NOT_UTF8 = "its content is not UTF-8"


def is_utf8(data: bytes | str) -> bool:
    """Whether stored or imported content is text at all (before whether it is JSON)."""
    try:
        data.decode() if isinstance(data, bytes) else data.encode()
    except UnicodeError:
        return False
    return True


def problem_of(error: Exception) -> str:
    """One sentence for why an event could not be read or applied: the first field at
    fault for a validation error, else the error's own first line."""
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        place = ".".join(str(p) for p in first["loc"])
        return f"{place}: {first['msg']}" if place else first["msg"]
    if isinstance(error, KeyError) and error.args:  # its str() is the key's repr, quoted
        return str(error.args[0])
    text = str(error).splitlines()[0] if str(error) else ""
    return text or type(error).__name__
