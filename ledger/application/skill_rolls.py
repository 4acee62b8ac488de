"""The ledger's Skill Table rolls for a random skill (``ledger team advance --roll``, the
advancement page's "let the ledger roll"), made as at the table: twice, then again for as
long as the edition reads from them no skill the player may take. A roll giving a skill
he has is rolled again (seed 001, 'Advancement Table': BB2025 offers the first two rolls
giving a skill he lacks, BB2020 takes the first), so the ledger's dice, the same on every
try (``keyed_dice``), never leave a coach with no skill to choose.
"""

from __future__ import annotations

from ledger.application.context import Context
from ledger.application.keyed_dice import KeyedDice
from ledger.domain import events as ev
from ledger.domain.state import PlayerRow, TeamRow
from ledger.domain.values import DiceRoll
from ledger.errors import LedgerError
from ledger.rules.asked import Advancing
from ledger.rules.protocol import Ruleset

SKILL_ROLLS = 2
"""The Skill Table rolls the ledger makes at the least: BB2025 rolls twice, and the coach
chooses."""
MOST_SKILL_ROLLS = 8
"""Past these, the skills the rolls give are not what keeps the advancement back."""
PLENTY = 10**6
"""SPP enough for any advancement: whether he can pay is the command's question."""


def skill_rolls(
    c: Context, team: TeamRow, player: PlayerRow, event: ev.PlayerAdvanced, dice: KeyedDice
) -> tuple[DiceRoll, ...]:
    """The ledger's Skill Table rolls for ``event`` (a random skill in its category, no
    roll given yet)."""
    rolls: list[DiceRoll] = []
    for nth in range(MOST_SKILL_ROLLS):
        rolls.append(dice.roll("random_skill", "2D6", player.player_id, nth))
        if len(rolls) < SKILL_ROLLS:
            continue
        if not in_category(c, player, event):
            break
        if offered(c, team, player, event.model_copy(update={"dice": tuple(rolls)})):
            break
    return tuple(rolls)


def offered(c: Context, team: TeamRow, player: PlayerRow, event: ev.PlayerAdvanced) -> bool:
    """Whether the rolls give him some skill of the edition's to take (SPP aside)."""
    rich = player.model_copy(update={"spp": PLENTY, "spp_earned": PLENTY})
    return bool(skills_given(c.ruleset, team, rich, event))


def skills_given(
    ruleset: Ruleset, team: TeamRow, player: PlayerRow, event: ev.PlayerAdvanced
) -> list[str]:
    """The skills of the edition the ruleset lets him take with the event's rolls (the
    rules asked of each, never read here: BB2025 one of the first two he lacks, BB2020
    the first); his SPP as ``player`` holds them."""
    return [
        s.name
        for s in ruleset.catalogue.skills()
        if not ruleset.problems(Advancing(player, team, event.model_copy(update={"skill": s.name})))
    ]


def in_category(c: Context, player: PlayerRow, event: ev.PlayerAdvanced) -> bool:
    """Whether the random skill's category is one of his (else no roll helps: the command
    says which categories are)."""
    try:
        position = c.ruleset.catalogue.position(player.roster, player.position)
    except LedgerError:  # a position the edition does not know: the command says so
        return False
    categories = position.secondary if event.kind == "random_secondary" else position.primary
    return (event.category or "") in categories
