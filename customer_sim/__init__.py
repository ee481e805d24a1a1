"""The simulated customer: one interface (``Customer``), two backends.

``scripted`` (the default) answers offline and deterministically from a case's
``hidden/customer.json``; ``llm`` is FDE-Bench's LLM customer behind an OpenAI-compatible
endpoint; ``hybrid`` is the scripted customer whose wording a model smooths (it decides
nothing: ``customer_sim.hybrid``). Callers build one with ``make_customer`` and only ever call ``reply``. This package is
plain Python and never imports Django.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from customer_sim.base import Customer, CustomerUnavailable, Exchange, Reply, split_units
from customer_sim.script import ScriptError

BACKENDS = ("scripted", "llm", "hybrid")


def make_customer(
    backend: str = "scripted",
    *,
    hidden_dir: Path | str | None = None,
    request_md: str = "",
    information_md: str = "",
    **llm_settings: Any,
) -> Customer:
    """Build the customer for a run.

    ``scripted`` needs ``hidden_dir`` (the case's ``hidden/`` folder). ``llm`` needs the request
    and the business information; its model settings come from ``llm_settings`` where given and
    from the environment (OPENAI_BASE_URL, OPENAI_API_KEY, CUSTOMER_MODEL) otherwise. The LLM
    client is imported only when asked for, so the scripted path stays light.
    """
    if backend == "scripted":
        if hidden_dir is None:
            raise ValueError("the scripted customer needs the case's hidden_dir")
        from customer_sim.scripted import ScriptedCustomer

        return ScriptedCustomer.from_hidden_dir(Path(hidden_dir))
    if backend == "hybrid":
        if hidden_dir is None:
            raise ValueError("the hybrid customer needs the case's hidden_dir")
        from customer_sim.hybrid import HybridCustomer
        from customer_sim.llm import LLMCustomer
        from customer_sim.scripted import ScriptedCustomer

        # The voice knows nothing of the case: it only rewords replies it is shown.
        voice = LLMCustomer.from_env("(rewording only)", "(rewording only)", **llm_settings)
        return HybridCustomer(ScriptedCustomer.from_hidden_dir(Path(hidden_dir)), voice)
    if backend == "llm":
        if not request_md.strip() or not information_md.strip():
            raise ValueError("the llm customer needs request_md and information_md")
        from customer_sim.llm import LLMCustomer

        return LLMCustomer.from_env(request_md, information_md, **llm_settings)
    raise ValueError(f"unknown customer backend {backend!r}; choose one of {BACKENDS}")


__all__ = [
    "BACKENDS",
    "Customer",
    "CustomerUnavailable",
    "Exchange",
    "Reply",
    "ScriptError",
    "make_customer",
    "split_units",
]
