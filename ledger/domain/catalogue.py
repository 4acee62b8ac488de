"""The event catalogue (docs/events.md), generated from the event classes themselves.

``python -m ledger.domain.catalogue > docs/events.md`` rewrites it; a test fails when the
document and the code disagree, so the catalogue cannot drift from what is stored.
"""

from __future__ import annotations

import inspect
import re
import typing
from typing import Any

from ledger.domain import events as ev
from ledger.domain import values
from ledger.domain.plain import Plain, docs_of

ENVELOPE = set(ev.LedgerEvent.model_fields)

RECORDED_BY = {
    "LeagueCreated": "`ledger league create`",
    "SeasonStarted": "`ledger season start`",
    "FixturesScheduled": "`ledger season schedule`, `ledger season playoffs`",
    "SeasonClosed": "`ledger season close`",
    "TeamRegistered": "`ledger team register`, or `POST /api/leagues/{league}/teams`",
    "PlayerHired": "`ledger team hire`",
    "PlayerFired": "`ledger team fire`",
    "PlayerTemporarilyRetired": "`ledger team retire`",
    "PlayerDied": "by hand, for a death no match report records",
    "PlayerLeft": "by hand, for a departure no match report records",
    "SidelinePurchased": "`ledger team buy`",
    "SidelineReleased": "`ledger team release`",
    "TreasuryAdjusted": "`ledger team adjust` (a reason is required)",
    "PlayerAdvanced": "`ledger team advance`",
    "AdvancementRolled": "`ledger team advance --roll`, when the ledger's dice leave a"
    ' choice (the advancement page\'s "let the ledger roll")',
    "InducementsBought": "`ledger match inducements`",
    "MatchRecorded": "`ledger match record FILE`",
    "PostGameClosed": "`ledger match close`",
    "AppearanceFeesPaid": "`ledger match fees` (gold4)",
    "BountyPosted": "`ledger team bounty` (lrb6-zal)",
    "CardPlayed": "`ledger match card` (lrb6-zal)",
    "StarDraftOrdered": "`ledger season star-draft`, `POST"
    " /api/leagues/{league}/season/star-draft` or the star draft page (bb2025 star player"
    " contracts)",
    "StarSigned": "`ledger season sign`, `POST /api/leagues/{league}/teams/{team}/star` or"
    " the star draft page (bb2025 star player contracts)",
    "TeamRedrafted": "`ledger team redraft` (bb2025 off-season)",
    "EventCorrected": "`ledger correct` (a reason is required)",
    "SiteOpened": "with the site's first account (`ledger account add`)",
    "AccountAdded": "`ledger account add`, or `POST /api/accounts`",
    "AdminGranted": "`ledger account add NAME --role admin`",
    "AccountRevoked": "`ledger account revoke`, `POST /api/accounts/{account}/revocation` or"
    " the account's admin page",
    "TokenRevoked": "`ledger account revoke NAME --token ID`, `DELETE"
    " /api/accounts/{account}/tokens/{token}` or the account's admin page",
    "PasswordSet": "`ledger account password NAME`, `POST /api/accounts/{account}/password`"
    " or the account's admin page",
    "MemberGranted": "`ledger account add NAME --role commissioner|coach`, or"
    " `POST /api/leagues/{league}/members`, or with the team a coach's account is"
    " registered for (`POST /api/leagues/{league}/teams`)",
    "MemberRemoved": "`ledger account remove NAME` (the league's), `DELETE"
    " /api/leagues/{league}/members/{account}`, or the league's members page",
    "LeagueVisibilitySet": "the league's settings in the service (`public`)",
    "AdvancementDiceSet": "`ledger league advancement-dice`, `POST"
    " /api/leagues/{league}/advancement-dice` or the league's members page",
    "ReportSubmitted": "`ledger submission submit FILE --team T` (a coach, for their team)",
    "ReportConfirmed": "`ledger submission confirm ID --team T` (the opposing coach)",
    "ReportDisputed": "`ledger submission dispute ID --team T --reason R` (the opposing coach)",
    "ReportApproved": "`ledger submission approve ID` (the commissioner)",
    "ReportRejected": "`ledger submission reject ID --reason R` (the commissioner)",
    "ReportWithdrawn": "`ledger submission withdraw ID --team T` (the coach who submitted it)",
}


def type_name(annotation: Any) -> str:
    plain = isinstance(annotation, type) and not typing.get_args(annotation)
    text = annotation.__name__ if plain else str(annotation)
    text = re.sub(r"<class '([\w.]+)'>", lambda m: m.group(1).split(".")[-1], text)
    return re.sub(r"\b(typing|ledger\.domain\.values|datetime|uuid)\.", "", text)


def field_rows(model: type[Plain], skip: set[str]) -> list[str]:
    hints = typing.get_type_hints(model)
    docs = docs_of(model)
    rows = []
    for name, field in model.model_fields.items():
        if name in skip:
            continue
        default = "" if field.is_required() else f" (default `{field.get_default()!r}`)"
        doc = (field.description or docs.get(name, "")).replace("\n", " ")
        rows.append(f"| `{name}` | `{type_name(hints[name])}`{default} | {doc} |")
    return rows


def section(model: type[Plain], level: str, skip: set[str]) -> list[str]:
    doc = inspect.cleandoc(model.__doc__ or "").replace("\n", " ")
    lines = [f"{level} {model.__name__}", "", doc, ""]
    if model.__name__ in RECORDED_BY:
        lines += [f"Recorded by {RECORDED_BY[model.__name__]}.", ""]
    rows = field_rows(model, skip)
    if rows:
        lines += ["| field | type | meaning |", "|---|---|---|", *rows, ""]
    return lines + upcasts(model)


def upcasts(model: type[Plain]) -> list[str]:
    """A versioned event's upcasts, each with its docstring: how an older stored event
    is read."""
    version = getattr(model, "class_version", 1)
    if not issubclass(model, ev.LedgerEvent) or version == 1:
        return []
    lines = [f"Stored as class version {version}; older stored versions are read through:", ""]
    for old in range(1, version):
        upcast = getattr(model, f"upcast_v{old}_v{old + 1}")
        doc = inspect.cleandoc(upcast.__doc__ or "").replace("\n", " ")
        lines.append(f"- `upcast_v{old}_v{old + 1}`: {doc}")
    return [*lines, ""]


def event_classes() -> list[type[ev.LedgerEvent]]:
    found = [
        c
        for c in vars(ev).values()
        if isinstance(c, type) and issubclass(c, ev.LedgerEvent) and c is not ev.LedgerEvent
    ]
    return sorted(found, key=lambda c: list(vars(ev)).index(c.__name__))


def value_classes() -> list[type[values.Value]]:
    found = [
        c
        for c in vars(values).values()
        if isinstance(c, type) and issubclass(c, values.Value) and c is not values.Value
    ]
    return sorted(found, key=lambda c: list(vars(values)).index(c.__name__))


def render() -> str:
    lines = [
        "# Event catalogue",
        "",
        "Every fact a league's log can hold, generated from `ledger/domain/events.py` by",
        "`python -m ledger.domain.catalogue` (a test keeps this file and the code in step).",
        "",
        "Every event also carries the envelope: `originator_id` (the league), "
        "`originator_version` (its number in the league's log, shown as *event N*), "
        "`timestamp` (when it was recorded), `recorded_by` (who), `reason` (why, optional; "
        "required for corrections and treasury adjustments), `account`, `acting_as`, `via` "
        "and `request_id` (the account that caused it, the role it acted in, where the "
        "command came from and the service request; absent on events recorded before "
        "accounts existed), `prev_hash` and `hash` (the chain `ledger audit verify` "
        "checks). Events are never edited: `EventCorrected` voids or amends an earlier "
        "one, and no correction amends the envelope.",
        "",
        "An event whose meaning or shape changed has a class version: events recorded since",
        "carry `class_version` in their stored JSON, and older ones are *upcast* when read",
        "(the eventsourcing library's `upcast_vN_vM` static methods, run by",
        "`ledger/persistence/mapper.py`). The stored JSON is never rewritten, so the hash",
        "chain still verifies: `ledger audit verify` reads the stored JSON, not the upcast",
        "event. The hash covers `class_version`, so an event cannot be made to read as an",
        "older version without breaking the chain.",
        "",
        "## Events",
        "",
    ]
    for event in event_classes():
        lines += section(event, "###", ENVELOPE | {"originator_topic"})
    lines += ["## Values carried by events", ""]
    for value in value_classes():
        lines += section(value, "###", set())
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    print(render(), end="")
