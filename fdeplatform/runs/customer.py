"""Builds the simulated customer of a run from its pinned case version.

The scripted backend reads ``hidden/customer.json`` of the stored package; the LLM backend gets
the request and ``information.md`` only (the FDE-Bench boundary), never targets or evaluator;
its endpoint and model come from OPENAI_BASE_URL, OPENAI_API_KEY and CUSTOMER_MODEL.
"""

from __future__ import annotations

from collections.abc import Iterable

from customer_sim import make_customer
from customer_sim.base import Customer, Exchange
from fdeplatform.runs.models import Exchange as RunExchange
from fdeplatform.runs.models import Run


def customer_for(run: Run) -> Customer:
    root = run.case_version.package_dir
    if run.customer_backend == "llm":
        return make_customer(
            "llm",
            hidden_dir=root / "hidden",
            request_md=(root / "instruction.md").read_text(encoding="utf-8"),
            information_md=(root / "hidden" / "information.md").read_text(encoding="utf-8"),
        )
    return make_customer("scripted", hidden_dir=root / "hidden")


def history_from(exchanges: Iterable[RunExchange]) -> list[Exchange]:
    """The customer's view of recorded exchanges (in turn order)."""
    return [
        Exchange(
            question=e.question,
            answer=e.answer,
            stakeholder_id=e.stakeholder_id,
            disclosed=list(e.disclosed),
            speakers=tuple(e.speakers),
        )
        for e in exchanges
    ]
