"""Spending SPP in Season 2 (BBBase docs/bb2020/core_rules/post-game_sequence.md,
'Spending Star Player Points', 'New Skills', 'Characteristic Improvements', 'Value Increase').

What differs from 2025: a random Secondary skill may be bought (at the chosen Primary
price); a random skill is one roll on the Skill table, re-rolled until it gives a skill the
player may have (2025 rolls twice and lets the coach choose); the characteristic roll is a
D16 and any result may be taken as a chosen Secondary skill instead; the value added
depends on whether the skill was chosen or rolled, not on Elite Skills.

Worked example: a Human Blitzer (85,000) takes Tackle (chosen Primary, 6 SPP, +20,000),
then a D16 of 14 improves his AG (20 SPP as second advancement, +40,000): 145,000.
"""

from __future__ import annotations

from functools import cache

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow
from ledger.rules.bb2020.tables import Tables, skills
from ledger.rules.bb2025.advancement import (
    SkillTable,
    column_problems,
    cost,
    either,
    eligible_problems,
    limit_problems,
    skill_base,
    skill_problems,
    spp_problems,
)
from ledger.rules.protocol import AdvancementResult
from ledger.rules.schema import Position

ACCESS = {
    "random_primary": "primary",
    "chosen_primary": "primary",
    "random_secondary": "secondary",
    "chosen_secondary": "secondary",
}
ROLLED = ("random_primary", "random_secondary")
INSTEAD = "chosen_secondary"
"""What a characteristic roll taken as a Secondary skill is worth ('or choose a Secondary
skill': a chosen Secondary skill, +40,000)."""


@cache
def skill_table() -> SkillTable:
    return SkillTable("Season 2", skills().skills)


def result(t: Tables, player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
    spp = cost(t, player, event.kind)
    if event.kind == "characteristic" and event.characteristic is not None:
        increase = t.value_increase[event.characteristic]
        return AdvancementResult(
            spp_cost=spp, value_increase=increase, characteristic=event.characteristic
        )
    bought = INSTEAD if event.kind == "characteristic" else event.kind
    return AdvancementResult(
        spp_cost=spp, value_increase=t.value_increase[bought], skill=event.skill
    )


def problems(t: Tables, player: PlayerRow, position: Position, event: PlayerAdvanced) -> list[str]:
    if found := eligible_problems(t, player):
        return found
    if event.kind not in (*ACCESS, "characteristic"):  # refused before (problems.kind_offered)
        return [f"Season 2 has no '{event.kind}' advancement"]
    if found := spp_problems(t, player, event.kind):
        return found
    if event.kind == "characteristic":
        return characteristic_problems(t, player, position, event)
    if event.kind in ROLLED:
        return random_problems(player, position, event, ACCESS[event.kind])
    return skill_problems(skill_table(), player, position, event, ACCESS[event.kind])


def categories(position: Position, access: str) -> tuple[str, ...]:
    return position.primary if access == "primary" else position.secondary


def random_problems(
    player: PlayerRow, position: Position, event: PlayerAdvanced, access: str
) -> list[str]:
    """'roll two D6, one after the other ... (re-rolling if the player already has that
    Skill or if they roll a Skill they cannot have)': the first roll giving a skill the
    player lacks is his new skill."""
    category = event.category or ""
    if category not in categories(position, access):
        return column_problems(access, position, category)
    rolls = [d.values for d in event.dice if d.purpose == "random_skill" and len(d.values) == 2]
    gained = next(
        (
            skill.name
            for skill in (skill_table().rolled(category, roll) for roll in rolls)
            if not any(skill_base(h) == skill_base(skill.name) for h in player.skills)
        ),
        None,
    )
    if gained is None:
        return [
            f"a random skill needs a Skill table roll (random_skill, 2D6) giving a skill"
            f" {player.name} lacks, or the ledger to roll it"
        ]
    if not event.skill:
        return [f"the roll gives {gained}: name it as the skill taken, entering the same dice"]
    if skill_base(event.skill) != skill_base(gained):
        return [f"the roll gives {gained}, not {event.skill}"]
    return []


def characteristic_problems(
    t: Tables, player: PlayerRow, position: Position, event: PlayerAdvanced
) -> list[str]:
    # the edition's own die: a replay from the other edition carries that one's too
    roll = next((d for d in event.dice if d.purpose == "characteristic" and d.dice == "D16"), None)
    if roll is None:
        return [
            "a Season 2 characteristic improvement needs its D16 roll (purpose 'characteristic')"
        ]
    allowed = t.characteristic_improvement[roll.values[0]]
    if event.characteristic is None and not event.skill:
        return [
            f"name the characteristic the D16 roll of {roll.values[0]} improves"
            f" ({either(allowed)}), or a Secondary skill taken instead"
        ]
    if event.characteristic is None:
        # 'the player may instead choose a Secondary skill'
        return skill_problems(skill_table(), player, position, event, "secondary")
    if event.characteristic not in allowed:
        return [
            f"a D16 roll of {roll.values[0]} improves {either(allowed)},"
            f" not {event.characteristic.upper()}"
        ]
    return limit_problems(t, player, position, event.characteristic)
