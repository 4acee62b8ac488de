"""LRB6 with the ZAL Season 5 house rules, ruleset id ``lrb6-zal`` (seed 000). Skeleton."""

from __future__ import annotations

from pathlib import Path

from ledger.rules.base import BaseRuleset


class LRB6ZAL(BaseRuleset):
    id = "lrb6-zal"
    name = "LRB6 with ZAL Season 5 rules"
    source = "seed 000 (Zürchheim Alchemists' League, Season 5) on LRB6 (2010)"
    aliases = ("lrb6", "zal", "lrb6zal")
    data_dir = Path(__file__).parent / "data"
    value_labels = {"tr": "TR"}
    rating_key = "tr"
