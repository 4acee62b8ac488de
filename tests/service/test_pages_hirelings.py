"""Hirelings on the pages of the demo league (BB2025): a submitted report names each
hireling's position and star as the edition prints them, not by their ids."""

from __future__ import annotations

import html

from fastapi.testclient import TestClient

from tests.service.test_pages import one_short_of_eleven, submit_friendly


def test_a_submitted_report_names_the_hirelings_position_and_star(client: TestClient) -> None:
    one_short_of_eleven(client)
    reply = submit_friendly(
        client,
        **{
            "home-h1-name": "Jo Journey",
            "home-h1-kind": "journeyman",
            "home-h1-position": "lineman",
            "home-h2-name": "Griff",
            "home-h2-kind": "star",
            "home-h2-star": "griff_oberwald",
            "home-1-player": "home-h1",
            "home-1-td": "1",
            "home-0-td": "1",
        },
    )
    assert reply.status_code == 303, reply.text[-1500:]
    shown = html.unescape(client.get(reply.headers["location"]).text)
    assert "Jo Journey (journeyman: Human Lineman)" in shown
    assert "Griff (star: Griff Oberwald" in shown
    assert "griff_oberwald" not in shown
