"""Which what-if is asked for: a ruleset and its options, resolved against the league's own.

``ledger whatif LEAGUE --ruleset gold4 --option appearance_fees=monty_haul`` and
``ledger report --whatif gold4:appearance_fees=monty_haul`` name the same what-if. Under the
league's own ruleset the options given change the league's options and keep the rest
(a what-if on options, issue 6); under another ruleset they start from its defaults.

Worked example: a gold4 league created with ``appearance_fees=balanced`` and
``secret_weapons=false``, asked ``--option appearance_fees=monty_haul``, is replayed with
``{"appearance_fees": "monty_haul", "secret_weapons": false, "handicap_mvps": true}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ledger.domain.state import LeagueRow
from ledger.errors import InvalidOption
from ledger.rules import find_ruleset, ruleset_class
from ledger.rules.protocol import Ruleset
from ledger.words import words


def option_value(raw: str) -> Any:
    """``true``, ``12``, ``["income"]`` as JSON; anything else as the text itself."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def parse_options(pairs: list[str] | tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOption(f"options are KEY=VALUE, not '{pair}'")
        options[key.strip()] = option_value(raw.strip())
    return options


def parse_whatif(text: str) -> tuple[str | None, dict[str, Any]]:
    """``RULESET[:KEY=VALUE,...]`` (the ruleset may be left out: ``:bonus_points=added``).
    A piece without ``=`` goes on the value before it: a list's items, as ``ledger
    rulesets`` prints them (``forfeit_penalties=income,spp``) or as JSON (``["income",
    "spp"]``)."""
    name, _, rest = text.partition(":")
    pairs: list[str] = []
    for piece in rest.split(",") if rest else []:
        if pairs and "=" not in piece:
            pairs[-1] += f",{piece}"
        elif piece.strip():
            pairs.append(piece)
    return (name.strip() or None), parse_options(pairs)


def target_ruleset(league: LeagueRow, ruleset: str | None, options: Mapping[str, Any]) -> Ruleset:
    """The ruleset the what-if replays under (unknown ids and bad options are refused)."""
    if ruleset is None or ruleset_class(ruleset).id == league.ruleset:
        return find_ruleset(league.ruleset, {**league.options, **options})
    return find_ruleset(ruleset, options)


def label(target: Ruleset, league: LeagueRow) -> str:
    """How the what-if is named on the command line: the ruleset, and the options that
    differ from the league's (or from the ruleset's defaults under another ruleset), as
    ``-o`` takes them."""
    changed = [f"{k}={json.dumps(v)}" for k, v in changed_options(target, league)]
    return target.id + (f" ({', '.join(changed)})" if changed else "")


def said(target: Ruleset, league: LeagueRow) -> str:
    """The options changed in words, for a page: ``appearance fees: monty haul`` (empty:
    none)."""
    changed = [f"{words(k)}: {option_words(v)}" for k, v in changed_options(target, league)]
    return "; ".join(changed)


def option_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(option_words(v) for v in value) or "none"
    return words(value) if isinstance(value, str) else str(value)


def changed_options(target: Ruleset, league: LeagueRow) -> list[tuple[str, Any]]:
    """The options of ``target`` that differ from the league's (or from the ruleset's
    defaults under another ruleset), by key."""
    base = league.options if target.id == league.ruleset else find_ruleset(target.id).options
    ours = base if isinstance(base, dict) else base.model_dump(mode="json")
    chosen = target.options.model_dump(mode="json")
    return [(k, v) for k, v in sorted(chosen.items()) if ours.get(k) != v]
