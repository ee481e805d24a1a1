"""The LLM judge panel of FDE-Bench (§4.1, A.3, A.9.5) through any OpenAI-compatible endpoint.

Up to five models judge each target independently at temperature 0. Each gets the same system
message and a user message with the requirement, its trigger examples as matching hints and the
run's numbered question units (never the customer's answers), and replies with JSON
``{"covered": bool, "question_ids": [ints]}``.

Decision rule. With five models a target is covered when at least three say so, as in the
paper. With fewer models configured the quorum is a strict majority of those configured
(``n // 2 + 1``: 1 of 1, 2 of 2, 2 of 3, 3 of 4), so a lone dissent never decides. By default
every judge is asked, as in the paper: a covered target's matched questions are those cited by
*all* agreeing judges (A.3), and Precision depends on them. ``early_stop=True`` (setting
``JUDGE_EARLY_STOP``) skips the remaining judges once the outcome is settled, which saves calls
but keeps only the citations of the judges asked; the judge's name records which was used
("llm" or "llm-early-stop"), and the run's coverage stores that name.

Failures. A malformed reply is retried once with a corrective prefix; a transport error is
retried once as is. A judge that fails twice casts a failed vote (``covered=None``), which can
never help reach the quorum. If every judge asked fails, the judgment is marked ``failed`` so
the run's clarification metrics are reported as unavailable rather than as zero coverage.

A covered target's matched units are the union of the units cited by the judges that voted
"covered" (A.3); its first turn is the earliest turn among them.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

import openai
from openai.types.chat import ChatCompletionMessageParam

from judging.base import Judgment, Target, Unit, Vote, first_turn

MAX_MODELS = 5

SYSTEM_MESSAGE = """\
You audit how well an engineer clarified a business request. You are given one business \
requirement that the customer knew but did not state, some example questions that would have \
uncovered it, and the numbered list of every question the engineer asked.

Decide whether answering at least one of the engineer's questions, honestly and completely, \
would reveal this requirement. Judge the questions only: you do not see and must not guess the \
customer's answers.

- A question covers the requirement when it asks for the rule, value, convention or meaning \
the requirement states, in any wording. The example questions are hints, not a closed list.
- A question that only touches the same topic (mentions the same file, column, object or goal) \
without asking for what the requirement settles does not cover it.
- Cite every question that covers it, by its number.

Reply with one JSON object and nothing else: {"covered": true or false, "question_ids": [numbers \
of the covering questions, empty when not covered]}."""

CORRECTIVE_PREFIX = (
    "Your previous reply could not be used ({reason}). Reply with exactly one JSON object "
    'of the form {{"covered": true, "question_ids": [2, 5]}} or '
    '{{"covered": false, "question_ids": []}}, citing only numbers from the list.\n\n'
)


def user_message(target: Target, units: Sequence[Unit]) -> str:
    """The per-target prompt: requirement, hints and the complete numbered question list."""
    hints = "\n".join(f"- {t}" for t in target.triggers) or "- (none)"
    questions = "\n".join(f"{u.index}. {_one_line(u.text)}" for u in units)
    return (
        f"Requirement:\n{target.requirement}\n\n"
        f"Example questions that would cover it (hints only):\n{hints}\n\n"
        f"The engineer's questions:\n{questions}\n\n"
        "Would answering at least one of these questions reveal the requirement?"
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())


class MalformedReply(ValueError):
    """The model answered, but not with a usable verdict."""


_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def parse_reply(content: str | None, valid_ids: set[int]) -> tuple[bool, list[int]]:
    """Read ``{"covered": bool, "question_ids": [ints]}`` from a reply.

    Code fences or a sentence around the object are tolerated; anything that leaves the verdict
    in doubt is not: a non-boolean ``covered``, ids that are not integers or not in the list,
    and "covered" without a single cited question all raise ``MalformedReply``.
    """
    found = _JSON_OBJECT.search(content or "")
    if found is None:
        raise MalformedReply("no JSON object")
    try:
        data = json.loads(found.group(0))
    except json.JSONDecodeError as error:
        raise MalformedReply(f"invalid JSON: {error.msg}") from None
    if not isinstance(data, dict) or not isinstance(data.get("covered"), bool):
        raise MalformedReply('"covered" must be true or false')
    ids = data.get("question_ids", [])
    if not isinstance(ids, list) or not all(type(i) is int for i in ids):
        raise MalformedReply('"question_ids" must be a list of integers')
    unknown = sorted(set(ids) - valid_ids)
    if unknown:
        raise MalformedReply(f"question numbers not in the list: {unknown}")
    if data["covered"] and not ids:
        raise MalformedReply('"covered": true needs at least one question number')
    return data["covered"], sorted(set(ids)) if data["covered"] else []


@dataclass(frozen=True)
class PanelSettings:
    """Where the panel's models live; ``models`` holds one to five model names."""

    models: tuple[str, ...]
    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 60.0
    max_retries: int = 2
    max_tokens: int | None = 300


def models_from_env(value: str | None = None) -> tuple[str, ...]:
    """Model names from ``JUDGE_MODELS`` (comma-separated, blanks ignored)."""
    raw = os.environ.get("JUDGE_MODELS", "") if value is None else value
    return tuple(name.strip() for name in raw.split(",") if name.strip())


def quorum(model_count: int) -> int:
    """Votes needed to accept coverage: 3 of 5, otherwise a strict majority of the models."""
    return 3 if model_count == MAX_MODELS else model_count // 2 + 1


class LLMPanelJudge:
    """Judge coverage with a panel of chat models; see the module docstring for the rules."""

    def __init__(
        self,
        *,
        models: Sequence[str] | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_tokens: int | None = 300,
        client: openai.OpenAI | None = None,
        early_stop: bool | None = None,
    ) -> None:
        if early_stop is None:
            early_stop = os.environ.get("JUDGE_EARLY_STOP", "").lower() in ("1", "true", "yes")
        self.early_stop = early_stop
        self.name = "llm-early-stop" if early_stop else "llm"
        chosen = tuple(models) if models is not None else models_from_env()
        if not 1 <= len(chosen) <= MAX_MODELS:
            raise ValueError(
                f"the judge panel needs 1 to {MAX_MODELS} models (JUDGE_MODELS), got {len(chosen)}"
            )
        self.settings = PanelSettings(
            models=chosen,
            base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or None,
            timeout=timeout,
            max_retries=max_retries,
            max_tokens=max_tokens,
        )
        self._client = client or openai.OpenAI(
            base_url=self.settings.base_url,
            # The client refuses to start without a key; local endpoints often need none.
            api_key=self.settings.api_key or "not-needed",
            timeout=timeout,
            max_retries=max_retries,
        )

    @property
    def quorum(self) -> int:
        return quorum(len(self.settings.models))

    def judge(self, target: Target, units: Sequence[Unit]) -> Judgment:
        prompt = user_message(target, units)
        valid_ids = {unit.index for unit in units}
        votes: list[Vote] = []
        for model in self.settings.models:
            votes.append(self._vote(model, prompt, valid_ids))
            if self.early_stop and self._settled(votes):
                break
        return self._decide(target, units, votes)

    def _settled(self, votes: Sequence[Vote]) -> bool:
        """Decided once the quorum is reached or enough judges said "not covered" to block it.

        Failed votes do not settle anything: the panel keeps asking, so a run of failures
        cannot pass for a "not covered" opinion.
        """
        yes = sum(1 for vote in votes if vote.covered is True)
        no = sum(1 for vote in votes if vote.covered is False)
        return yes >= self.quorum or no > len(self.settings.models) - self.quorum

    def _decide(self, target: Target, units: Sequence[Unit], votes: list[Vote]) -> Judgment:
        agreeing = [vote for vote in votes if vote.covered is True]
        covered = len(agreeing) >= self.quorum
        matched = sorted({i for vote in agreeing for i in vote.units}) if covered else []
        return Judgment(
            target=target.key,
            covered=covered,
            matched_units=matched,
            first_turn=first_turn(units, matched),
            votes=votes,
            failed=all(vote.covered is None for vote in votes),
        )

    def _vote(self, model: str, prompt: str, valid_ids: set[int]) -> Vote:
        """Ask one model, retrying once; two failures make a failed vote."""
        prefix = ""
        error = ""
        for _attempt in range(2):
            try:
                content = self._ask(model, prefix + prompt)
                covered, cited = parse_reply(content, valid_ids)
                return Vote(judge=model, covered=covered, units=cited)
            except MalformedReply as malformed:
                error = f"malformed reply: {malformed}"
                prefix = CORRECTIVE_PREFIX.format(reason=malformed)
            except openai.OpenAIError as failure:
                error = f"{type(failure).__name__}: {failure}"
                prefix = ""
        return Vote(judge=model, covered=None, units=[], error=error)

    def _ask(self, model: str, prompt: str) -> str | None:
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": SYSTEM_MESSAGE},
            {"role": "user", "content": prompt},
        ]
        response = self._client.chat.completions.create(
            model=model,
            messages=messages,
            temperature=0,
            max_tokens=self.settings.max_tokens,
        )
        if not response.choices:
            raise MalformedReply("no choices in the response")
        return response.choices[0].message.content
