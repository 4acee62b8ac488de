"""The API's documentation pages work on a machine with no way out: their scripts come
from the ledger itself, and the Authorize button of /docs sends the token a script would."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.service.conftest import World


def test_the_documentation_page_loads_only_what_the_ledger_serves(client: TestClient) -> None:
    html = client.get("/docs")
    assert html.status_code == 200
    assert "text/html" in html.headers["content-type"]
    assert not re.search(r"(src|href)=['\"]?(https?:)?//", html.text), "a file from elsewhere"
    loaded = re.findall(r"(?:src|href|url)[=:]\s*['\"](/[^'\"]+)['\"]", html.text)
    assert "/openapi.json" in loaded
    assert any(path.endswith(".js") for path in loaded)
    for path in loaded:
        assert client.get(path).status_code == 200, path


def test_the_openapi_document_names_the_bearer_token_and_asks_it_of_no_one(
    client: TestClient,
) -> None:
    document = client.get("/openapi.json").json()
    scheme = document["components"]["securitySchemes"]["token"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert document["security"] == [{"token": []}, {}]  # a public league reads anonymously
    assert not any(path.startswith("/docs") for path in document["paths"])


def test_a_token_sent_as_the_document_says_signs_the_caller_in(
    client: TestClient, world: World
) -> None:
    """What Swagger UI's Authorize sends: the scheme's ``Authorization: Bearer TOKEN``."""
    who = client.get("/api/session", headers={"Authorization": f"Bearer {world.tokens['jay']}"})
    assert who.status_code == 200
    assert who.json()["account"] == "jay"
