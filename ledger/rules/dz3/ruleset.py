"""3rd edition with Death Zone and OBERWALD, ruleset id ``dz3`` (seed 004). Skeleton."""

from __future__ import annotations

from pathlib import Path

from ledger.rules.base import BaseRuleset


class DZ3(BaseRuleset):
    id = "dz3"
    name = "3rd edition Death Zone (OBERWALD)"
    source = "seed 004 (OBERWALD Crazy Coaches Edition v2.06) on 3rd edition + Death Zone"
    aliases = ("bb3", "3rd", "deathzone", "death-zone", "oberwald")
    data_dir = Path(__file__).parent.parent / "classic3" / "data"
    value_labels = {"tr": "TR"}
    rating_key = "tr"
