"""Star Player rolls (Death Zone) with seed 002's Big Guys and traits.

Death Zone (data/deathzone.yaml): a player rolls 2D6 on the Star Player table each time his SPP
reach a new level (Experienced 6, Veteran 11, Star Player 26, Super Star 51, Mega Star 101,
Legend 151): 2-9 a new skill from his categories, 10 +1 MA, 11 +1 AG, 12 +1 ST; a double lets
him take any skill instead. Seed 002 adds:
- "Acquiring Traits": on a double he may take a trait of his own categories instead; Physical
  only for players that can mutate, Stunty at ST 2 or less, Titchy at ST 1, never Daemonic
  (nor Regeneration: "no more players can acquire it", NEW SKILLS & TRAITS). Those are all
  its restrictions: a trait that only hinders (Stupid, Wild Animal, Take Root, Always Hungry,
  Off For A Bite - General traits in the Skills and Trait Table) may be chosen too.
- "BIG GUYS AND STAR PLAYER POINTS": Big Guys need double the SPP per roll (12, 22, ...); a
  double gives them +1 ST, +1 AV or the removal of a trait, not skills of other categories;
  "strength and armour values still can't be improved by more than 2 points over their
  starting value, or to greater than 10".
Skills are not bought with SPP in 3rd/4th edition: a roll costs no SPP and adds no value
(team rating counts SPP instead).

Worked example: an Ogre (ST 5) with 12 SPP has his first roll; 3+3 is a double, so he may take
+1 ST (6), later once more (7), but never an eighth point: 5 + 2 is his ceiling.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ledger.domain.events import PlayerAdvanced
from ledger.domain.state import PlayerRow
from ledger.errors import suggested
from ledger.rules.gold4.league_tables import deathzone, gold_rules
from ledger.rules.gold4.tables import SkillOrTrait, load_gold4_tables
from ledger.rules.protocol import AdvancementResult
from ledger.rules.schema import Position
from ledger.words import article, plural, possessive

REMOVE = "remove_trait"
BIG_GUY_STATS = ("st", "av")


@dataclass(frozen=True)
class Roll:
    """A Star Player roll as the player and his position see it."""

    player: PlayerRow
    position: Position
    total: int
    double: bool

    @property
    def big_guy(self) -> bool:
        return gold_rules().double_progression.big_guy_keyword in self.position.keywords

    @property
    def table_result(self) -> str:
        return deathzone().star_player_table.result(self.total)


# --- how many rolls a player has earned ------------------------------------------------------


def doubled(position: Position | None) -> bool:
    return position is not None and doubling(position.keywords)


@cache
def doubling(keywords: tuple[str, ...]) -> bool:
    """Whether a position of these keywords needs double the SPP per roll (asked of every
    advancement a what-if replay tries, for the few keyword sets of the lists)."""
    return any(k in keywords for k in gold_rules().double_progression.keywords)


def rolls_earned(spp: int, position: Position | None) -> int:
    """SPP levels reached after Rookie; Big Guys (and Q&A's Luc and Daemons) need double."""
    return levels_reached(spp, doubled(position))


@cache
def levels_reached(spp: int, big: bool) -> int:
    """``rolls_earned`` by SPP and doubling, counted once per pair."""
    levels = load_gold4_tables().tables.big_guy_spp.levels[1:]
    return sum(1 for lv in levels if spp >= (lv.big_guy_min_spp if big else lv.min_spp))


def next_level(spp: int, position: Position | None) -> str:
    levels = load_gold4_tables().tables.big_guy_spp.levels
    ahead = levels[rolls_earned(spp, position) + 1 :]
    if not ahead:
        return "no further level"
    need = ahead[0].big_guy_min_spp if doubled(position) else ahead[0].min_spp
    return f"{ahead[0].title} needs {need}"


# --- what the event did (applied by the fold; validated below) ------------------------------


@cache
def skill_entry(name: str) -> SkillOrTrait | None:
    """The table's entry for a skill or trait, looked up once per name: every advancement a
    what-if replay tries asks it."""
    canonical = gold_rules().trait_name(name).casefold()
    table = load_gold4_tables().tables.skills_and_traits
    return next((s for s in table if s.name.casefold() == canonical), None)


@cache
def unknown_skill(name: str) -> str:
    """The refusal of a name the table lacks, with the one meant: once a name, since a
    what-if's policies ask the names of other editions of every sample (a suggestion is
    a search of the whole table)."""
    table = load_gold4_tables().tables.skills_and_traits
    sentence = f"'{name}' is not in seed 002's Skills and Trait Table"
    return suggested(sentence, name, (s.name for s in table))


def removes_trait(player: PlayerRow, event: PlayerAdvanced) -> bool:
    """Removing a trait is recorded as category 'remove_trait', or (from the CLI, which has no
    category option) by naming a trait the player already has."""
    return event.category == REMOVE or (event.skill is not None and event.skill in player.skills)


def result(player: PlayerRow, event: PlayerAdvanced) -> AdvancementResult:
    if event.skill and removes_trait(player, event):
        return AdvancementResult(spp_cost=0, value_increase=0, skills_lost=(event.skill,))
    entry = skill_entry(event.skill) if event.skill else None
    skill = entry.name if entry else event.skill
    return AdvancementResult(
        spp_cost=0, value_increase=0, skill=skill, characteristic=event.characteristic
    )


# --- what may be taken -------------------------------------------------------------------------


def problems(player: PlayerRow, position: Position | None, event: PlayerAdvanced) -> list[str]:
    if player.status != "active" or player.kind != "regular" or position is None:
        return [f"{player.name} cannot take Star Player rolls ({player.status}, {player.kind})"]
    if "no_spp" in position.keywords:
        return [
            f"{article(position.name)} may not earn SPPs, so never rolls on the Star Player table"
        ]
    earned = rolls_earned(player.spp_earned, position)
    if len(player.advancements) >= earned:
        return [
            f"{player.name} has {player.spp_earned} SPP and has taken {len(player.advancements)}"
            f" of {plural(earned, 'Star Player roll')}; {next_level(player.spp_earned, position)}"
            + (" (double for a Big Guy)" if doubled(position) else "")
        ]
    roll = next((d for d in event.dice if d.purpose == "star_roll" and d.dice == "2D6"), None)
    if roll is None:
        return ["a Star Player roll needs its 2D6 (star_roll)"]
    return choice_problems(
        Roll(player, position, roll.total, roll.values[0] == roll.values[1]), event
    )


def choice_problems(roll: Roll, event: PlayerAdvanced) -> list[str]:
    if event.skill and removes_trait(roll.player, event):
        return removal_problems(roll, event.skill, explicit=event.category == REMOVE)
    if event.characteristic:
        return characteristic_problems(roll, event.characteristic)
    if event.skill:
        return skill_problems(roll, event.skill)
    return wasted_problems(roll)


def characteristic_options(roll: Roll) -> tuple[str, ...]:
    normal = () if roll.table_result == "skill" else (roll.table_result,)
    return normal + (BIG_GUY_STATS if roll.double and roll.big_guy else ())


def characteristic_problems(roll: Roll, stat: str) -> list[str]:
    options = characteristic_options(roll)
    if stat not in options:
        allowed = " or ".join(o.upper() for o in options) or "no characteristic"
        return [
            f"a Star Player roll of {roll.total}{' (double)' if roll.double else ''}"
            f" gives {allowed}, not +1 {stat.upper()}"
        ]
    return cap_problems(roll, stat)


def ceiling(position: Position, stat: str) -> int:
    rule = load_gold4_tables().tables.big_guy_spp
    return min(int(getattr(position, stat)) + rule.max_characteristic_gain, rule.max_characteristic)


def at_ceiling(roll: Roll, stat: str) -> bool:
    return int(getattr(roll.player, stat)) >= ceiling(roll.position, stat)


def cap_problems(roll: Roll, stat: str) -> list[str]:
    if at_ceiling(roll, stat):
        return [
            f"{possessive(roll.player.name)} {stat.upper()} is {getattr(roll.player, stat)}:"
            " never more than"
            f" 2 over the starting {getattr(roll.position, stat)}, nor above 10"
        ]
    return []


def skill_problems(roll: Roll, name: str) -> list[str]:
    entry = skill_entry(name)
    if entry is None:
        return [unknown_skill(name)]
    if roll.table_result != "skill" and not roll.double:
        return [f"a roll of {roll.total} must be taken as +1 {roll.table_result.upper()}"]
    if entry.kind == "trait":
        return trait_problems(roll, entry)
    allowed = skill_categories(roll)
    code = gold_rules().category_codes.get(entry.category)
    if code not in allowed:
        return [
            f"{entry.name} ({entry.category}) is not open to {roll.player.name}"
            f" ({roll.position.name}: {''.join(allowed) or 'none'}) on a roll of {roll.total}"
            f"{' (double)' if roll.double else ''}"
        ]
    return []


def skill_categories(roll: Roll) -> tuple[str, ...]:
    """A skill of his own categories; on a double any skill, Physical only for mutants -
    except Big Guys, who never leave their own categories (BIG GUYS AND STAR PLAYER POINTS)."""
    position = roll.position
    if not roll.double or roll.big_guy:
        return position.primary
    others = tuple(c for c in position.secondary if c != "M")
    return position.primary + others


def trait_problems(roll: Roll, entry: SkillOrTrait) -> list[str]:
    rules = gold_rules().traits
    if not roll.double:
        return [f"{entry.name} is a trait: traits are only acquired on a double (Acquiring Traits)"]
    if entry.category in rules.never_categories or entry.name in rules.never_acquired:
        return [f"{entry.name} may not be chosen as a new trait"]
    if gold_rules().category_codes.get(entry.category) not in roll.position.primary:
        return [
            f"{entry.name} is a {entry.category} trait; {roll.player.name} may take only"
            f" traits of his own categories ({''.join(roll.position.primary)})"
        ]
    strongest = rules.max_strength.get(entry.name)
    if strongest is not None and roll.player.st > strongest:
        return [f"{entry.name} may only be taken by players of strength {strongest} or less"]
    return []


def removal_problems(roll: Roll, trait: str, explicit: bool) -> list[str]:
    if not (roll.big_guy and roll.double):
        if not explicit:
            return [f"{roll.player.name} already has {trait}"]
        return ["only a Big Guy rolling a double may remove a trait"]
    entry = skill_entry(trait)
    if trait not in roll.player.skills:
        return [f"{roll.player.name} has no trait '{trait}' to remove"]
    if entry is None or entry.kind != "trait":
        return [f"{trait} is a skill, not a trait: a Big Guy's double removes traits only"]
    return []


def wasted_problems(roll: Roll) -> list[str]:
    """A characteristic roll at its ceiling is lost unless it is a double (seed 004 [JJ])."""
    stat = roll.table_result
    if stat != "skill" and not roll.double and at_ceiling(roll, stat):
        return []
    return ["name the skill or the characteristic the roll gives"]
