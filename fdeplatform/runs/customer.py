"""Builds the simulated customer of a run from its pinned case version.

The scripted backend reads ``hidden/customer.json`` of the stored package; the LLM backend gets
the request and ``information.md`` only (the FDE-Bench boundary), never targets or evaluator;
its endpoint and model come from OPENAI_BASE_URL, OPENAI_API_KEY and CUSTOMER_MODEL. The hybrid
backend is the scripted customer whose replies that model rewords (``customer_sim.hybrid``).

A scripted customer is built once per stored package and process and then shared: a stored
version never changes, building one (even from ``customer_sim``'s fitted cache) cost 0.4 ms per
question, and the very first build of a process imports the matcher's libraries for seconds,
which every thread asking at that moment used to repeat side by side.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from customer_sim import make_customer
from customer_sim.base import Customer, Exchange, Reply
from customer_sim.hybrid import HybridCustomer
from customer_sim.placeholders import read_rendered
from fdeplatform.runs.models import Exchange as RunExchange
from fdeplatform.runs.models import Run

if TYPE_CHECKING:
    from customer_sim.llm import LLMCustomer
    from customer_sim.scripted import ScriptedCustomer
    from fdeplatform.runs.question_sql import ExchangeRow

log = logging.getLogger(__name__)
_built: dict[str, tuple[Customer, threading.Lock]] = {}
_building = threading.Lock()


def customer_for(run: Run) -> Customer:
    if run.customer_backend == "llm":
        return _llm(run)
    scripted = _scripted(run)[0]
    if run.customer_backend == "hybrid":
        return HybridCustomer(cast("ScriptedCustomer", scripted), _voice())
    return scripted


def preload_in_background() -> None:
    """Import the scripted customer's matcher (scikit-learn, seconds) on a thread, now.

    Called as a web process starts, so that cost is paid beside start-up instead of inside
    the first question (or socket) that needs a customer.
    """
    threading.Thread(
        target=importlib.import_module,
        args=("customer_sim.scripted",),
        name="customer-preload",
        daemon=True,
    ).start()


def is_warm(run: Run) -> bool:
    """Has this process built the run's customer already (nothing to warm)?"""
    if run.customer_backend == "llm" or not run.has_customer:
        return True
    return _key(run) in _built


def _key(run: Run) -> str:
    """One shared customer per stored version and variant. Computed without touching the
    disk: the consumer asks ``is_warm`` on its event loop, and the first look at a variant
    may materialise it (``cases.variants``), which belongs on a thread."""
    return f"{run.case_version.storage_dir}#{run.variant}"


def warm_customer(run: Run) -> None:
    """Build the run's scripted customer now if this process has not yet (a socket opened).

    A package that cannot be built is only logged here: the first question reports it.
    """
    if run.customer_backend == "llm" or not run.has_customer:
        return
    try:
        _scripted(run)
    except Exception:
        log.exception("could not build the customer of %s", run.package_dir)


def customer_reply(run: Run, question: str, history: Sequence[Exchange]) -> Reply:
    """The customer's reply to ``question``, one reply at a time per shared customer.

    The scripted matcher is plain Python (it holds the interpreter lock while it works, so
    threads gain nothing by running it side by side) and keeps a per-text cache that is not
    safe to fill from two threads at once; the lock costs nothing and rules that out.
    """
    if run.customer_backend == "llm":
        return _llm(run).reply(question, history)
    customer, lock = _scripted(run)
    with lock:
        decided = customer.reply(question, history)
    if run.customer_backend == "hybrid":  # the model's call outside the lock: it is slow
        return HybridCustomer(cast("ScriptedCustomer", customer), _voice()).word(
            decided, question, history
        )
    return decided


def _scripted(run: Run) -> tuple[Customer, threading.Lock]:
    key = _key(run)  # the stored copy's path names its digest: one package, one key
    built = _built.get(key)
    if built is None:
        with _building:  # one build at a time: the others wait for it instead of repeating it
            built = _built.get(key)
            if built is None:
                hidden = run.package_dir / "hidden"
                built = (make_customer("scripted", hidden_dir=hidden), threading.Lock())
                if len(_built) >= 64:
                    _built.clear()
                _built[key] = built
    return built


def _voice() -> LLMCustomer:
    """The hybrid customer's wording model; it is shown only the replies it rewords."""
    from customer_sim.llm import LLMCustomer  # openai: imported only when a run needs it

    return LLMCustomer.from_env("(rewording only)", "(rewording only)")


def _llm(run: Run) -> Customer:
    root = run.package_dir
    return make_customer(
        "llm",
        hidden_dir=root / "hidden",
        request_md=(root / "instruction.md").read_text(encoding="utf-8"),
        information_md=read_rendered(root / "hidden", "information.md"),
    )


def history_from(exchanges: Iterable[RunExchange | ExchangeRow]) -> list[Exchange]:
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
