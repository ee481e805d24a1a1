"""The LLM customer: FDE-Bench's simulated customer behind any OpenAI-compatible endpoint.

The information boundary is the point of this backend. The model sees only what the real
customer knows - the request and the complete business information (``information.md``) - plus
the dialogue so far. The clarification targets and the evaluator never enter a prompt, so the
customer cannot steer the player toward what is scored.

A failed call is retried with exponential back-off and then reported as
``CustomerUnavailable``; the player is never handed an invented or empty answer.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import openai
from openai.types.chat import ChatCompletionMessageParam

from customer_sim.base import CustomerUnavailable, Exchange, Reply, split_units

logger = logging.getLogger(__name__)

UNAVAILABLE_MESSAGE = "The customer is not reachable right now. Please ask again in a moment."

_ANSWERING_STYLE = """\
## How to answer
- You are this customer. Answer in the first person, in plain business language, as someone
  who runs this business rather than as an engineer.
- Answer only what the question asks. Do not volunteer other rules, numbers or advice.
- Be brief: one to three sentences.
- Never contradict the request or the business information above.
{unsupported}
- Do not write code, plans or solutions for the engineer.
"""

# FDE-Bench's default answering style (A.9.2) lets the customer fall back on a business default
# when its information does not settle a question; the paper notes that such answers are not
# guaranteed to follow from the case (A.8). ``business_defaults=False`` is the stricter option.
_WITH_DEFAULTS = (
    "- If they do not settle the question, answer as a sensible person in this business would,\n"
    "  with a reasonable business default, and say that it is your working assumption."
)
_WITHOUT_DEFAULTS = (
    "- Use only the request and the business information above. If they do not answer the\n"
    "  question, say that you do not know or that it does not matter to you; never invent\n"
    "  rules, numbers or data."
)
# The paper's customer requests at most 10,000 output tokens and leaves temperature unset.
PAPER_MAX_OUTPUT_TOKENS = 10_000


@dataclass(frozen=True)
class LLMSettings:
    """Where and how to call the model; ``retry_base_delay`` doubles after every failure."""

    model: str
    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 60.0
    max_retries: int = 3
    retry_base_delay: float = 1.0
    max_output_tokens: int | None = PAPER_MAX_OUTPUT_TOKENS
    business_defaults: bool = True


class _Retryable(Exception):
    """A failure worth another attempt (timeout, 5xx, rate limit, malformed reply)."""


def build_system_prompt(
    request_md: str, information_md: str, *, business_defaults: bool = True
) -> str:
    """The customer's whole knowledge: request, business information and answering style."""
    style = _ANSWERING_STYLE.format(
        unsupported=_WITH_DEFAULTS if business_defaults else _WITHOUT_DEFAULTS
    )
    return (
        "You are the customer who sent the request below to a forward-deployed engineer. "
        "The engineer is asking you clarification questions in a chat.\n\n"
        f"## Your request\n\n{request_md.strip()}\n\n"
        f"## What you know about your business\n\n{information_md.strip()}\n\n"
        f"{style}"
    )


class LLMCustomer:
    """Answers with a chat model; see the module docstring for the information boundary."""

    def __init__(
        self,
        request_md: str,
        information_md: str,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 3,
        retry_base_delay: float = 1.0,
        max_output_tokens: int | None = PAPER_MAX_OUTPUT_TOKENS,
        business_defaults: bool = True,
        stakeholder_name: str = "Customer",
    ) -> None:
        self.settings = LLMSettings(
            model=model,
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            retry_base_delay=retry_base_delay,
            max_output_tokens=max_output_tokens,
            business_defaults=business_defaults,
        )
        self.system_prompt = build_system_prompt(
            request_md, information_md, business_defaults=business_defaults
        )
        self.stakeholder_name = stakeholder_name
        # Retries are ours (with back-off and a clear final error), so the client makes one try.
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key, timeout=timeout, max_retries=0
        )

    @classmethod
    def from_env(
        cls,
        request_md: str,
        information_md: str,
        *,
        environ: Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> LLMCustomer:
        """Settings from OPENAI_BASE_URL, OPENAI_API_KEY, CUSTOMER_MODEL and
        CUSTOMER_BUSINESS_DEFAULTS (true unless "false": the paper's style); keyword arguments
        win over the environment. Fails fast when no model is configured."""
        env = os.environ if environ is None else environ
        settings: dict[str, Any] = {
            "model": env.get("CUSTOMER_MODEL") or None,
            "base_url": env.get("OPENAI_BASE_URL") or None,
            "api_key": env.get("OPENAI_API_KEY") or None,
            "business_defaults": env.get("CUSTOMER_BUSINESS_DEFAULTS", "true").lower()
            not in ("false", "0", "no", "off"),
        }
        settings.update({k: v for k, v in overrides.items() if v is not None})
        if not settings["model"]:
            raise ValueError("the llm customer needs a model: set CUSTOMER_MODEL")
        if not settings["api_key"]:
            raise ValueError("the llm customer needs an API key: set OPENAI_API_KEY")
        return cls(request_md, information_md, **settings)

    def messages(
        self, question: str, history: Sequence[Exchange]
    ) -> list[ChatCompletionMessageParam]:
        """System prompt, then the dialogue as user/assistant turns, then the new question."""
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": self.system_prompt}
        ]
        for exchange in history:
            messages.append({"role": "user", "content": exchange.question})
            messages.append({"role": "assistant", "content": exchange.answer})
        messages.append({"role": "user", "content": question})
        return messages

    def reply(self, question: str, history: Sequence[Exchange] = ()) -> Reply:
        text = self._complete(self.messages(question, history))
        return Reply(
            text=text,
            stakeholder_id="customer",
            stakeholder_name=self.stakeholder_name,
            stakeholder_role="Customer",
            disclosed=[],
            units=split_units(question),
        )

    def complete(self, messages: list[ChatCompletionMessageParam]) -> str:
        """One chat completion with this customer's settings, retries and failure handling
        (``CustomerUnavailable``); the hybrid customer words scripted replies with it."""
        return self._complete(messages)

    def _complete(self, messages: list[ChatCompletionMessageParam]) -> str:
        attempts = self.settings.max_retries + 1
        for attempt in range(attempts):
            try:
                return self._call_once(messages)
            except _Retryable as exc:
                logger.warning("customer model call failed (%s), attempt %d", exc, attempt + 1)
                if attempt + 1 < attempts:
                    time.sleep(self.settings.retry_base_delay * 2**attempt)
        raise CustomerUnavailable(UNAVAILABLE_MESSAGE)

    def _call_once(self, messages: list[ChatCompletionMessageParam]) -> str:
        extra: dict[str, Any] = {}
        if self.settings.max_output_tokens is not None:
            extra["max_tokens"] = self.settings.max_output_tokens
        try:
            completion = self._client.chat.completions.create(
                model=self.settings.model, messages=messages, **extra
            )
        except (openai.APIConnectionError, openai.RateLimitError) as exc:
            raise _Retryable(type(exc).__name__) from exc
        except openai.APIStatusError as exc:
            if exc.status_code >= 500 or exc.status_code in (408, 409):
                raise _Retryable(f"HTTP {exc.status_code}") from exc
            # 4xx means our settings are wrong (key, model): retrying cannot help.
            logger.error("customer model rejected the request: HTTP %d", exc.status_code)
            raise CustomerUnavailable(UNAVAILABLE_MESSAGE) from exc
        except (openai.APIResponseValidationError, ValueError) as exc:
            raise _Retryable(f"unreadable response ({type(exc).__name__})") from exc
        return _answer_text(completion)


def _answer_text(completion: Any) -> str:
    """The assistant's text, or ``_Retryable`` when the response does not carry one."""
    try:
        content = completion.choices[0].message.content
    except (AttributeError, IndexError, KeyError, TypeError) as exc:
        raise _Retryable("response without a message") from exc
    if not isinstance(content, str) or not content.strip():
        raise _Retryable("empty answer")
    return content.strip()
