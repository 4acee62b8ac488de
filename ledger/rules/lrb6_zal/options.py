"""What the ZAL Season 5 text (seed 000) leaves to the league: the named options of ``lrb6-zal``.

Each option is a reading of a passage the text leaves open; the default is the reading
docs/rulesets/lrb6-zal.md argues for, with the seed passage quoted. Worked example: a
league that pays the winnings as 2D6 plus the table's modifier is created with
``{"winnings_roll": "2D6"}``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, StrictBool


class Options(BaseModel):
    """Named options of an lrb6-zal league, recorded in its creation event."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    winnings_roll: Literal["D6", "2D6", "none"] = "D6"
    """Match Winnings Table: the roll the table's modifier (and +1 for the win) is added
    to, times 10,000. 'D6' as in the 3rd edition table ZAL copies; 'none' pays the
    modifier alone."""
    fame_in_winnings: StrictBool = False
    """Add the match's FAME to the winnings roll, as LRB6's own winnings did."""
    tr_counts_spp: StrictBool = True
    """ZAL 8a: the Team Rating counts the players' earned SPP (SPP / 5)."""
    tr_counts_treasury: StrictBool = False
    """Count the treasury in the Team Rating (3rd edition did; LRB6 team value does not)."""
    hirelings_in_match_tr: Literal["journeymen", "all"] = "all"
    """Pre-match step 1: journeymen always count in the match's Team Rating; 'all' also
    counts mercenaries and freebooted Star Players at their list value."""
    all_casualties_count: StrictBool = True
    """ZAL 16b: the Fan Factor roll and the league table count every casualty the
    opponents suffered; False counts only the SPP-earning ones."""
    ageing_by: Literal["title", "roll_number"] = "title"
    """ZAL 19: the ageing hurdle of a Star Player Roll is that of the title reached
    ('title': Mega-Star 8+ is never used) or the n-th printed hurdle for the n-th roll
    ('roll_number': the sixth roll is aged at Mega-Star 8+)."""
    value_modifiers: StrictBool = False
    """Apply LRB6's Value Modifiers Table to improved players (ZAL 18 does not)."""
