"""What each game did to one player, for his ``ledger history``: his achievements and
SPP (his game line) and the injury he took there (the report's casualty, as the fold
reads it: as amended)."""

from __future__ import annotations

from ledger.application.service import LeagueLedger
from ledger.domain.state import PlayerGameLine
from ledger.domain.values import Casualty
from ledger.projections.queries import Queries
from ledger.reports.match_sheet import corrections_of, read_report
from ledger.reports.text import effect

COUNTED = (
    ("touchdowns", "TD"),
    ("completions", "comp"),
    ("interceptions", "int"),
    ("casualties", "cas"),
    ("kills", "kill"),
    ("mvps", "MVP"),
)


def game_notes(ledger: LeagueLedger, queries: Queries, player_id: str) -> dict[int, str]:
    """By the event number of each report he played in: ``1 TD, 1 MVP: 7 SPP; lasting
    injury (misses the next game, -1 AV)``."""
    return {
        game.seq: game_note(game, injury(ledger, queries, game))
        for game in queries.player_games(player_id)
    }


def game_note(game: PlayerGameLine, hurt: str) -> str:
    counts = ", ".join(
        f"{getattr(game, field)} {label}" for field, label in COUNTED if getattr(game, field)
    )
    earned = f"{counts}: {game.spp} SPP" if counts else f"{game.spp} SPP"
    return f"{earned}; {hurt}" if hurt else earned


def injury(ledger: LeagueLedger, queries: Queries, game: PlayerGameLine) -> str:
    if not game.injury:
        return ""
    fixes = corrections_of(queries.history(f"event:{game.seq}"), {game.seq})
    report = read_report(ledger, queries, game.seq, fixes)
    casualty = next(
        (c for c in (report.casualties if report else ()) if c.victim == game.player_id), None
    )
    return described(game.injury, casualty)


def described(outcome: str, casualty: Casualty | None) -> str:
    name = outcome.replace("_", " ")
    if casualty is None or not casualty.effects:
        return name
    effects = ", ".join(effect(e) for e in casualty.effects)
    return f"{name} ({effects}{', recovered' if casualty.recovered else ''})"
