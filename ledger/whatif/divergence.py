"""Divergences (DESIGN.md decision 4): what the target edition would not allow, and what the
replay did instead. Nothing a replay changes goes unlisted.

Each divergence names the policy applied; docs/whatif.md explains each policy to a
commissioner. Worked example: a BB2025 team's thirteenth lineman replayed under dz3 (at most
12 linemen) is ``Divergence(seq=40, event="PlayerHired", team="reavers", subject="p13",
rule="position-limit", reason="the Human list allows at most 12 x Lineman",
policy="lineman-instead", action="not hired: ...")``.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, Unpack

from pydantic import BaseModel, ConfigDict

from ledger.domain.events import LedgerEvent

POLICIES: dict[str, str] = {
    "map-by-table": "named in the target edition's terms by the mapping tables",
    "nearest-list": "the team plays the nearest team list of the target edition",
    "lineman-instead": "the player is hired as the target list's lineman",
    "skip": "the decision is left out of the replay (any gold stays in the treasury)",
    "defer": "the decision waits until the target edition allows it",
    "buy-what-fits": "as many as the target's limits and the treasury allow are bought",
    "take-what-there-is": "a fine takes what the treasury holds, never more",
    "substitute-skill": "the first fallback skill the target allows is taken instead",
    "roll-decides": "the target's own roll decides what the advancement gives",
    "kept-as-recorded": "the recorded fact stands although the target would not allow it",
    "pay-or-sit-out": "an appearance fee is paid when the treasury allows; else the player"
    " earns nothing from the match",
    "never-applied": "the decision was deferred and never became allowed",
}
"""Every policy a divergence may name, with what it does."""


class Details(TypedDict):
    """What a divergence says beyond its event (see ``Divergence``)."""

    rule: str
    reason: str
    policy: str
    action: str
    subject: NotRequired[str | None]
    team: NotRequired[str | None]
    code: NotRequired[str | None]


class Divergence(BaseModel):
    """One decision or fact the target edition would not take as recorded."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seq: int
    """The event of the league's log it concerns."""
    event: str
    """That event's type."""
    team: str | None = None
    subject: str | None = None
    """The player, item or match concerned, when not the team itself."""
    rule: str
    """What the target edition objects to: ``team-list``, ``position``, ``position-limit``,
    ``roster-full``, ``treasury``, ``advancement``, ``skill``, ``casualty``, ``feature``,
    ``star``, ``item``, ``fees``, ``match``, ``season``, ``player``..."""
    code: str | None = None
    """The stable code (``ledger.errors``) of the problem a command would refuse the same
    decision with, when one of the rules of ``ledger.rules.problems`` decided: the replay
    and the command answer a hire or a purchase with the same rule."""
    reason: str
    policy: str
    action: str
    """What the replay did instead."""

    @classmethod
    def of(cls, event: LedgerEvent, **details: Unpack[Details]) -> Divergence:
        """A divergence about ``event``; the team defaults to the one the event names."""
        owner = details.get("team") or getattr(event, "team", None)
        return cls(
            seq=event.seq,
            event=type(event).__name__,
            team=owner if isinstance(owner, str) else None,
            subject=details.get("subject"),
            rule=details["rule"],
            reason=details["reason"],
            policy=details["policy"],
            action=details["action"],
            code=details.get("code"),
        )

    def sort_key(self) -> tuple[int, str, str, str]:
        return (self.seq, self.team or "", self.subject or "", self.rule)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Divergence:
        """Itself: it is frozen, so a replay's clone (``Replayer.clone``) shares it."""
        return self
