"""Property-based fuzzing of the REST API from its own OpenAPI schema: no input gives a 5xx.

schemathesis reads ``/api/schema/`` from a live daphne and, for every operation, hypothesis
generates requests (valid and invalid bodies, odd path values, unexpected types), sent with an
agent's token. The only check is the one a public API owes everyone: never a server error.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from fdeplatform.accounts.services import agent_token_issue

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
EXAMPLES_PER_OPERATION = 25


def test_no_request_gets_a_server_error(
    live_url: str, knapsack: Any, django_user_model: Any
) -> None:
    token = agent_token_issue(user=django_user_model.objects.create_user("fuzz-agent"))
    schema = schemathesis.openapi.from_url(f"{live_url}/api/schema/")
    failures: list[str] = []
    sent: list[int] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            response = case.call(
                base_url=live_url, headers={"Authorization": f"Token {token}"}, timeout=30
            )
            sent.append(response.status_code)
            if response.status_code >= 500:
                failures.append(
                    f"{case.method} {case.formatted_path} -> {response.status_code}: "
                    f"{response.text[:200]}"
                )

        check()
    assert failures == []
    assert len(sent) >= 5 * len(operations)  # the fuzzer really exercised every operation
    print(f"{len(sent)} generated requests over {len(operations)} operations, none a 5xx")
