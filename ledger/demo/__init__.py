"""The demo league: built through the same commands a commissioner uses.

``league.yaml`` drafts four BB2025 teams and plays a round robin from the report files in
``reports/``, with advancements, hires and closed post-game sequences between rounds. The
season is started first, as a commissioner starts one, so it can be closed at its end.
Every die is given as rolled at the table, so the demo is the same on every machine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ledger.application.commands import (
    AdvancePlayer,
    Buy,
    ClosePostGame,
    HirePlayer,
    RecordMatch,
    RegisterTeam,
    StartSeason,
)
from ledger.application.reports import read_report
from ledger.application.service import LeagueLedger
from ledger.domain.state import MatchRow
from ledger.domain.values import DiceRoll, Division

HERE = Path(__file__).parent
DICE = {"characteristic": "D8"}


def demo_plan() -> dict[str, Any]:
    plan: dict[str, Any] = yaml.safe_load((HERE / "league.yaml").read_text(encoding="utf-8"))
    return plan


def build_demo(ledger: LeagueLedger, by: str = "demo") -> str:
    plan = demo_plan()
    league = plan["league"]
    slug = league["slug"]
    ledger.create_league(slug, league["name"], league["ruleset"], by=by, reason="demo league")
    for team in plan["teams"]:
        draft(ledger, slug, team, by)
    for step in plan["steps"]:
        run_step(ledger, slug, step, by)
    return str(slug)


def draft(ledger: LeagueLedger, slug: str, team: dict[str, Any], by: str) -> None:
    ledger.handle(
        RegisterTeam(slug, team["id"], team["name"], team["coach"], team["roster"]), by=by
    )
    for position, name, number in team["players"]:
        ledger.handle(HirePlayer(slug, team["id"], position, name, number=number), by=by)
    for item, count in team["buy"]:
        ledger.handle(Buy(slug, team["id"], item, count), by=by)


def run_step(ledger: LeagueLedger, slug: str, step: dict[str, Any], by: str) -> None:
    if "record" in step:
        ledger.handle(RecordMatch(slug, read_report(HERE / "reports" / step["record"])), by=by)
    elif "advance" in step:
        a = step["advance"]
        ledger.handle(
            AdvancePlayer(
                slug,
                a["team"],
                a["player"],
                a["kind"],
                skill=a.get("skill"),
                characteristic=a.get("characteristic"),
                category=a.get("category"),
                dice=rolls(a.get("dice", {})),
            ),
            by=by,
        )
    elif "hire" in step:
        h = step["hire"]
        ledger.handle(
            HirePlayer(slug, h["team"], h["position"], h["name"], number=h.get("number")), by=by
        )
    elif "close" in step:
        close(ledger, slug, step["close"], by)
    elif "season" in step:
        season = step["season"]
        divisions = [Division(name=n, teams=tuple(t)) for n, t in season["divisions"].items()]
        playoffs = season.get("playoffs", 0)
        ledger.handle(StartSeason(slug, divisions, playoff_teams=playoffs), by=by)
    else:
        raise ValueError(f"unknown demo step {sorted(step)}")


def close(ledger: LeagueLedger, slug: str, spec: dict[str, Any], by: str) -> None:
    if "team" in spec:
        teams = [spec["team"]]
    else:
        row = ledger.view().get(MatchRow, ledger.league_row(slug).league_id, spec["match"])
        assert row is not None, spec
        teams = [row.home, row.away]
    for team in teams:
        ledger.handle(ClosePostGame(slug, spec["match"], team, dice=spec.get("dice", {})), by=by)


def rolls(entries: dict[str, list[Any]]) -> tuple[DiceRoll, ...]:
    """Rolls by purpose: ``[7]`` is one roll, ``[[5, 6], [2, 1]]`` two rolls of that purpose."""
    found = []
    for purpose, values in entries.items():
        for roll in values if values and isinstance(values[0], list) else [values]:
            found.append(DiceRoll(purpose=purpose, dice=dice_of(purpose, roll), values=tuple(roll)))
    return tuple(found)


def dice_of(purpose: str, values: list[int]) -> str:
    shape = DICE.get(purpose, "D6")
    return shape if len(values) == 1 else f"{len(values)}{shape}"
