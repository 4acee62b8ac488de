"""Property-based fuzzing of the whole OpenAPI schema (schemathesis): for every operation,
generated requests as the site's admin (who may try everything) never meet a 5xx, every
answer is documented (status, content type, body schema), and a refused request writes
nothing. Bounded: a few examples per operation, about a minute in all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.service.conftest import World, event_count

pytestmark = pytest.mark.slow

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture
def served(app: FastAPI) -> Iterator[TestClient]:
    """The app with its lifespan open (the ledger), for schemathesis' own client."""
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_no_5xx_no_undocumented_answer_and_refusals_write_nothing(
    served: TestClient, world: World
) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", served.app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 30
    for operation in operations:
        fuzz(operation, served, world)


def fuzz(operation: Any, served: TestClient, world: World) -> None:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=8,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def one(case: Any) -> None:
        before = event_count(served)
        response = case.call_and_validate(headers=world.auth("admin"), checks=CHECKS)
        if response.status_code >= 400:
            assert event_count(served) == before, f"{operation.label}: {response.text}"

    one()
