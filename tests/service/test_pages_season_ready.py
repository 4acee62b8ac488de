"""The season's start page says what the league's rules ask of the teams before the
commissioner tries (ZAL 3c 'Minimum Team Requirements': eleven players and a Fan Factor);
the start itself refuses the same, beside nothing written."""

from __future__ import annotations

from pathlib import Path

from tests.service.conftest import event_count, scripted
from tests.service.test_pages import csrf_in, error_beside, page_text, post

LEAGUE = "zal"
HUMANS = "\n".join(f"team hire men lineman 'Man {n}' --number {n}" for n in range(1, 12))
SCRIPT = f"""league create {LEAGUE} --name "Alchemists" --ruleset lrb6-zal
team register men --name "The Humans" --coach Jay --roster human
team register orcs --name "The Orcs" --coach Dan --roster orc
{HUMANS}
team buy men fan_factor
team hire orcs lineman Ugluk
"""
START = f"/leagues/{LEAGUE}/season/start"


def test_the_start_page_names_the_teams_not_ready_and_the_start_refuses_them(
    tmp_path: Path,
) -> None:
    with scripted(tmp_path, LEAGUE, SCRIPT, "commissioner") as (client, _):
        shown = client.get(START)
        assert shown.status_code == 200
        said = page_text(shown.text)
        assert (
            "Not ready to start, by the league's rules: a team starting the season needs at"
            " least 11 players, Star Players aside (ZAL 3c): The Orcs 1"
            " a team starting the season needs at least 1 Fan Factor, paid for (ZAL 3c):"
            " The Orcs has none"
        ) in said
        assert "The Humans 11" not in said
        before = event_count(client)
        fields = {"csrf": csrf_in(shown.text), "division-1": "", "team-men": "1", "team-orcs": "1"}
        refused = post(client, START, fields)
        assert refused.status_code == 409
        assert error_beside(refused.text, "form").startswith(
            "a team starting the season needs at least 11 players"
        )
        assert event_count(client) == before
