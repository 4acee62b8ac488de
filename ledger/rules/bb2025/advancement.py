"""Spending SPP (seed 001, 'Spending Star Player Points', 'Characteristic Improvements',
'Value Increase').

Worked example ('Re-draft Team'): Skweek, a Gutter Runner (85,000) with three Primary
skills, has a Current Value of 85,000 + 3 x 20,000 = 145,000.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow
from ledger.errors import InvalidAdvancement, suggested
from ledger.rules.bb2025.tables import Tables, skills
from ledger.rules.protocol import AdvancementResult
from ledger.rules.schema import Position, Skill, category_said
from ledger.words import one_of, possessive

SKILL_KINDS = {
    "random_primary": "primary",
    "chosen_primary": "primary",
    "chosen_secondary": "secondary",
}


def skill_base(name: str) -> str:
    """'Mighty Blow (+1)' and 'Mighty Blow (+X)' are the same skill."""
    return re.sub(r"\s*\(.*\)\s*$", "", name).strip().lower()


@dataclass(frozen=True)
class SkillTable:
    """An edition's skills: found by name whatever the bracket says, rolled by column of
    the Skill Table (skills.yaml holds each category in the table's order); ``book`` names
    the edition in a refusal. bb2020 builds its own from its own skills.yaml."""

    book: str
    skills: tuple[Skill, ...]

    @cached_property
    def by_base(self) -> dict[str, Skill]:
        return {skill_base(s.name): s for s in self.skills}

    def find(self, name: str) -> Skill | None:
        return self.by_base.get(skill_base(name))

    @cached_property
    def refusals(self) -> dict[str, str]:
        return {}

    def unknown(self, name: str) -> str:
        """The refusal of a name the table lacks, with the one meant: once a name (a
        what-if asks other editions' names of every sample, and a suggestion searches
        every skill)."""
        if name not in self.refusals:
            sentence = f"'{name}' is not a {self.book} skill"
            self.refusals[name] = suggested(sentence, name, (s.name for s in self.skills))
        return self.refusals[name]

    def rolled(self, category: str, roll: tuple[int, ...]) -> Skill:
        """'New Skills': two D6 one after the other: the first picks the half of the
        column (1-3 or 4-6), the second the skill."""
        column = [s for s in self.skills if s.category == category]
        return column[(0 if roll[0] <= 3 else 6) + roll[1] - 1]


@cache
def skill_table() -> SkillTable:
    return SkillTable("BB2025", skills().skills)


def cost(t: Tables, player: PlayerRow, kind: str) -> int:
    row = t.advancement_costs[min(len(player.advancements), len(t.advancement_costs) - 1)]
    return int(getattr(row, kind))


def result(
    t: Tables, player: PlayerRow, position: Position, event: PlayerAdvanced
) -> AdvancementResult:
    if sentence := unknown_kind(event.kind):  # an imported or translated event: a fault
        raise InvalidAdvancement(sentence)
    spp = cost(t, player, event.kind)
    if event.characteristic is not None and event.kind == "characteristic":
        increase = t.value_increase[event.characteristic]
        return AdvancementResult(
            spp_cost=spp, value_increase=increase, characteristic=event.characteristic
        )
    skill = skill_table().find(event.skill or "")
    access = "primary" if skill and skill.category in position.primary else "secondary"
    increase = t.value_increase[access] + (
        t.value_increase["elite"] if skill and skill.elite else 0
    )
    return AdvancementResult(spp_cost=spp, value_increase=increase, skill=event.skill)


def problems(t: Tables, player: PlayerRow, position: Position, event: PlayerAdvanced) -> list[str]:
    if found := eligible_problems(t, player):
        return found
    if sentence := unknown_kind(event.kind):  # refused before (problems.kind_offered): no cost
        return [sentence]
    if found := spp_problems(t, player, event.kind):
        return found
    if event.kind == "characteristic":
        return characteristic_problems(t, player, position, event)
    if event.kind == "random_primary":
        return random_problems(player, position, event)
    return skill_problems(skill_table(), player, position, event, SKILL_KINDS[event.kind])


def unknown_kind(kind: str) -> str | None:
    """Random secondary skills (BB2020's) and Star Player Rolls (the older editions') are
    not on BB2025's Advancement Table."""
    if kind in (*SKILL_KINDS, "characteristic"):
        return None
    kinds = ", ".join((*SKILL_KINDS, "characteristic"))
    words = {"random_secondary": "random secondary skill", "star_roll": "Star Player Roll"}
    named = words.get(kind, kind.replace("_", " "))
    return f"BB2025's Advancement Table has no {named} (its kinds: {kinds})"


def eligible_problems(t: Tables, player: PlayerRow) -> list[str]:
    """Only a regular player on the roster advances, and no further than a Legend."""
    if player.status != "active" or player.kind != "regular":
        return [f"{player.name} cannot take advancements ({player.status}, {player.kind})"]
    if len(player.advancements) >= len(t.advancement_costs):
        return [f"{player.name} already has {len(player.advancements)} advancements (Legend)"]
    return []


def spp_problems(t: Tables, player: PlayerRow, kind: str) -> list[str]:
    """The player holds the SPP this advancement costs as his next one."""
    spp = cost(t, player, kind)
    if player.spp >= spp:
        return []
    return [
        f"{player.name} has {player.spp} SPP; {kind.replace('_', ' ')}"
        f" costs {spp} as advancement {len(player.advancements) + 1}"
    ]


def column_problems(access: str, position: Position, category: str) -> list[str]:
    """A random skill's category that is not a Skill Table column the position may roll
    on for its kind (``access``, primary or secondary): none said, or another."""
    columns = position.primary if access == "primary" else position.secondary
    offered = one_of([category_said(c) for c in columns])
    if not category:
        rolled = f"a random {access} skill is rolled on a Skill Table column"
        return [f"{rolled}: name its category, {offered}"]
    said = category_said(category)
    return [f"a {position.name}'s random {access} skill is rolled on {offered}, not on {said}"]


def random_problems(player: PlayerRow, position: Position, event: PlayerAdvanced) -> list[str]:
    """'Do this twice, and then choose which of the two randomly rolled Skills you wish your
    player to receive.' A roll giving a skill the player has already is rolled again, so the
    first two rolls giving a skill he lacks are the ones offered."""
    category = event.category or ""
    if category not in position.primary:
        return column_problems("primary", position, category)
    rolls = [d.values for d in event.dice if d.purpose == "random_skill" and len(d.values) == 2]
    offered = [
        skill.name
        for skill in (skill_table().rolled(category, roll) for roll in rolls)
        if not any(skill_base(h) == skill_base(skill.name) for h in player.skills)
    ][:2]
    if len(offered) < 2:
        does = "does" if len(offered) == 1 else "do"
        return [
            f"a random skill needs two Skill Table rolls (random_skill, 2D6 each) giving"
            f" skills {player.name} lacks, or the ledger to roll them: {len(offered)} of the"
            f" {len(rolls)} given {does} (a roll giving a skill he has is rolled again)"
        ]
    if not event.skill:
        dice = " and ".join(f"{r[0]},{r[1]}" for r in rolls)
        return [
            f"the rolls give {' or '.join(dict.fromkeys(offered))}: choose one as the skill"
            f" taken, entering the same dice (random_skill {dice})"
        ]
    if event.skill not in offered:
        return [f"the rolls give {' or '.join(offered)}, not {event.skill}"]
    return []


def either(stats: Iterable[str]) -> str:
    """The characteristics a roll allows, as the book prints them: 'AV or MA'."""
    return " or ".join(stat.upper() for stat in stats)


def characteristic_problems(
    t: Tables, player: PlayerRow, position: Position, event: PlayerAdvanced
) -> list[str]:
    # the edition's own die: a replay from the other edition carries that one's too
    roll = next((d for d in event.dice if d.purpose == "characteristic" and d.dice == "D8"), None)
    if roll is None:
        return ["a characteristic improvement needs its D8 roll (purpose 'characteristic')"]
    allowed = t.characteristic_improvement[roll.values[0]]
    if event.characteristic is None and not event.skill:
        return [
            f"name the characteristic the D8 roll of {roll.values[0]} improves"
            f" ({either(allowed)}), or a skill taken instead"
        ]
    if event.characteristic is None:
        # 'they can choose to select a Primary or Secondary Skill instead'
        return skill_problems(skill_table(), player, position, event, "any")
    if event.characteristic not in allowed:
        return [
            f"a D8 roll of {roll.values[0]} improves {either(allowed)},"
            f" not {event.characteristic.upper()}"
        ]
    return limit_problems(t, player, position, event.characteristic)


def limit_problems(t: Tables, player: PlayerRow, position: Position, stat: str) -> list[str]:
    done = sum(1 for a in player.advancements if a.get("characteristic") == stat)
    if done >= t.max_improvements:
        return [
            f"{possessive(player.name)} {stat.upper()} has already been improved {done} times"
            f" (at most {t.max_improvements})"
        ]
    current = getattr(player, stat)
    if current is None:
        return [f"{player.name} has no {stat.upper()} to improve"]
    limit = t.characteristic_limits[stat]  # type: ignore[index]
    better_is_lower = stat in ("ag", "pa")
    at_limit = current <= limit if better_is_lower else current >= limit
    if at_limit:
        return [f"{possessive(player.name)} {stat.upper()} is already at its maximum"]
    return []


def skill_problems(
    table: SkillTable, player: PlayerRow, position: Position, event: PlayerAdvanced, access: str
) -> list[str]:
    """A chosen skill: the edition's, of the ``access`` (primary, secondary or any) the
    player's position gives, and one he lacks."""
    if not event.skill:
        return ["name the skill the player takes"]
    skill = table.find(event.skill)
    if skill is None:
        return [table.unknown(event.skill)]
    categories = {
        "primary": position.primary,
        "secondary": position.secondary,
        "any": position.primary + position.secondary,
    }[access]
    if skill.category not in categories:
        return [
            f"{skill.name} ({skill.category}) is not a {access} skill for a"
            f" {position.name} ({''.join(categories) or 'none'})"
        ]
    if any(skill_base(s) == skill_base(skill.name) for s in player.skills):
        return [f"{player.name} already has {skill.name}"]
    return []
