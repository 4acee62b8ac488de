"""Star player rolls (seeds README SPP levels; seed 004 'Characteristic increases').

A player rolls 2D6 on the Star Player Table each time his SPP reach a new level (6, 11, 26,
51, 101, 151): 2-9 a new skill from his own categories, 10 +1 MA, 11 +1 AG, 12 +1 ST. "If a
player rolls doubles any skill may be chosen, but rolls of 4/6 and 5/6 must be taken as
movement and agility increases respectively." "No characteristic may be permanently
increased by more than 2 over the starting value, or over 10. [JJ] ... If a player has
reached the limit and rolls a further characteristic increase, then the roll cannot be used
unless it is a double." SPP are not spent, and a skill adds nothing to a player's value: his
experience reaches the team rating through SPP / 5.

Worked example: a Human Blitzer reaching 6 SPP rolls 3 and 5 (8, no double): he takes a
General or Strength skill, say Mighty Blow. Rolling 5 and 5 (10, a double) he may take +1 MA
or any skill; rolling 4 and 6 (10) he must take +1 MA.
"""

from __future__ import annotations

from functools import cache

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow
from ledger.errors import suggested
from ledger.rules.dz3.rating import improvements
from ledger.rules.dz3.tables import Tables, find_skill, skills
from ledger.rules.protocol import AdvancementResult
from ledger.rules.schema import Position
from ledger.words import plural, possessive


def result(event: PlayerAdvanced) -> AdvancementResult:
    return AdvancementResult(
        spp_cost=0, value_increase=0, skill=event.skill, characteristic=event.characteristic
    )


def problems(t: Tables, player: PlayerRow, position: Position, event: PlayerAdvanced) -> list[str]:
    if player.kind == "star" or player.status != "active":
        return [f"{player.name} cannot make star player rolls ({player.kind}, {player.status})"]
    earned, taken = t.rolls_earned(player.spp_earned), len(player.advancements)
    if taken >= earned:
        return [
            f"{player.name} has {player.spp_earned} SPP ({t.level(player.spp_earned)}):"
            f" {plural(earned, 'star player roll')} earned, {taken} taken"
        ]
    roll = next((d for d in event.dice if d.purpose == "star_roll"), None)
    if roll is None or roll.dice != t.star_roll.die:
        return [f"a star player roll needs its {t.star_roll.die} (purpose 'star_roll')"]
    return roll_problems(t, player, position, event, roll.values)


def roll_problems(
    t: Tables, player: PlayerRow, position: Position, event: PlayerAdvanced, dice: tuple[int, ...]
) -> list[str]:
    total, double = sum(dice), len(set(dice)) == 1
    stat = t.star_roll.characteristics.get(total)
    if stat is None:
        if event.characteristic is not None:
            return [f"a roll of {total} is a new skill, not a characteristic increase"]
        return skill_problems(player, position, event, any_category=double)
    if event.characteristic == stat:
        return limit_problems(t, player, position, stat)
    if double and event.skill:
        return skill_problems(player, position, event, any_category=True)
    if event.characteristic is None and not event.skill and at_limit(t, player, position, stat):
        return []  # the roll cannot be used: recorded as taken, nothing gained
    return [f"a roll of {dice[0]}+{dice[1]} must be taken as +1 {stat.upper()} (no double)"]


def at_limit(t: Tables, player: PlayerRow, position: Position, stat: str) -> bool:
    return bool(limit_problems(t, player, position, stat))


def limit_problems(t: Tables, player: PlayerRow, position: Position, stat: str) -> list[str]:
    current = getattr(player, stat)
    if improvements(player, stat) >= t.star_roll.increase_limit:
        return [
            f"{possessive(player.name)} {stat.upper()} is already +{t.star_roll.increase_limit}"
        ]
    if current >= t.star_roll.characteristic_max:
        return [f"{possessive(player.name)} {stat.upper()} is already {current}"]
    return []


@cache
def unknown_skill(name: str) -> str:
    """The refusal of a name the edition lacks, with the one meant: once a name (a what-if
    asks other editions' names of every sample, and a suggestion searches every skill)."""
    sentence = f"'{name}' is not a 3rd edition skill"
    return suggested(sentence, name, (s.name for s in skills().skills))


def skill_problems(
    player: PlayerRow, position: Position, event: PlayerAdvanced, any_category: bool
) -> list[str]:
    if not event.skill:
        return ["name the skill the player takes"]
    skill = find_skill(event.skill)
    if skill is None:
        return [unknown_skill(event.skill)]
    allowed = position.primary + (position.secondary if any_category else ())
    if skill.category not in allowed:
        return [
            f"{skill.name} ({skill.category}) is not open to a {position.name} on this roll"
            f" ({''.join(allowed)}{'' if any_category else '; a double opens the rest'})"
        ]
    if any(s.casefold() == skill.name.casefold() for s in player.skills):
        return [f"{player.name} already has {skill.name}"]
    return strength_problems(player, skill.name, skill.max_st, skill.min_st)


def strength_problems(
    player: PlayerRow, name: str, max_st: int | None, min_st: int | None
) -> list[str]:
    if max_st is not None and player.st > max_st:
        return [f"{name} is only for players of ST {max_st} or less"]
    if min_st is not None and player.st < min_st:
        return [f"{name} is only for players of ST {min_st} or more"]
    return []
