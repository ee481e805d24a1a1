"""Admission checks of the scripted customer: does it answer the rules, and only when asked?

Anchors prove the evaluator; these prove the instrument the player asks through (FDE-Gym §3.3,
FDE-Bench A.2 (ii)). A case's own example questions are the weakest evidence (the author wrote
them next to the patterns), so the report leads with the outside probe set's halves and treats
the examples as a floor:

- every target has an ask pattern (otherwise the old lexical matcher decides, which generalises
  poorly: a warning);
- every authored trigger of a target discloses it, and no authored ``near_misses`` question
  discloses any target (a problem: the author's own contrasts already fail);
- an answer with a blanket permission ("whatever you do during the day", "any value is fine")
  is a warning: it reads as waiving every other rule on its subject;
- an answer that opens with a verdict ("Yes, ...", "No - ...") is a warning: the same answer
  goes to every question that asks for its fact, and to a question proposing something else
  ("so 558 kW is the ceiling, yes?") the verdict reads as agreeing with it;
- a designed misconception answered with certainty is a warning: the persona may be wrong on
  purpose (FDE-Gym §3.3) but must be honestly unsure, voicing it as a belief ("as far as I
  know") or naming who or which file can confirm it, never confidently wrong;
- a pattern phrase that matches as one bare word because its other words are skipped fillers
  ("this month" matches every "month", "your drivers" every "drivers") is a warning;
- a non-target fact whose answer reads as an answer to a target's question (its text fires the
  target's pattern, e.g. "any value within +/-500 kW is fine" against a no-export rule) is
  flagged for the author to confirm it neither contradicts nor appears to waive the rule;
  ``reviewed_overlaps`` on the fact records that they did;
- a public text (case page, request, staff directory) that asks about a target is a problem
  (``public_text_checks``); the schema's text doing so is a warning (``schema_mentions``);
- the outside probe set (``hidden/probes/questions.json``): hit rate, leaks and wrong answers per
  half, and a warning when the test half misses the targets or the set is absent.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from customer_sim import probes
from customer_sim.patterns import TermIndex, collapsed_terms, strength, tokens_of
from customer_sim.placeholders import read_rendered
from customer_sim.script import ScriptError, public_summary
from customer_sim.scripted import ScriptedCustomer
from customer_sim.vocabulary import data_vocabulary
from evaluators.leak_rows import json_strings
from evaluators.public_text_checks import public_mentions


def check_customer(hidden_dir: Path) -> tuple[list[str], list[str], dict[str, Any]]:
    """``(problems, warnings, summary)`` for one package's customer (see module docstring)."""
    try:
        customer = ScriptedCustomer.from_hidden_dir(hidden_dir)
    except ScriptError as exc:
        return [f"customer script: {exc}"], [], {}
    gt = probes.gt_of(hidden_dir)
    problems: list[str] = []
    warnings: list[str] = []
    targets = [t for t in gt.get("targets", []) if isinstance(t, dict)]
    target_facts = {fact for t in targets for fact in t.get("facts", [])}
    for target in targets:
        problems += _target_examples(customer, target, target_facts)
        if target.get("match") is None:
            warnings.append(
                f"target `{target['key']}`: no `match` pattern; the lexical fallback reveals "
                "far fewer rules to questions in other words (cases/README.md, 'Ask patterns')"
            )
    problems += _matching_examples(customer, hidden_dir)
    warnings += _overlaps(customer, targets)
    warnings += _wordings(customer)
    warnings += _confident_misconceptions(customer)
    warnings += _collapsed(hidden_dir)
    warnings += schema_mentions(customer, hidden_dir.parent / "submission_schema.json")
    public_problems, public_warnings = public_mentions(customer, hidden_dir.parent, gt)
    problems += public_problems
    warnings += public_warnings
    summary, probe_warnings = _probe_summary(hidden_dir)
    return problems, warnings + probe_warnings, summary


def _matching_examples(customer: ScriptedCustomer, hidden_dir: Path) -> list[str]:
    """The author's own examples (``matching.json``) that do not get what they expect: a fact
    key (or list of them) must be disclosed, ``null`` must disclose no rule. Examples are the
    floor a customer must clear on its author's wording; one it misses is a bug. Only facts
    decided by a ``match`` pattern are held to them: the lexical fallback of older packages is
    a similarity, measured by its examples (``bench/matching.py``), not bound by each."""
    try:
        document = json.loads(read_rendered(hidden_dir, "matching.json"))
    except (OSError, ValueError):
        return []  # a missing or unreadable file is the format checks' to report
    patterned = {fact.key for fact in customer.script.facts if fact.pattern is not None}
    rules = {fact.key for fact in customer.script.facts if fact.target is not None} & patterned
    problems = []
    for item in document.get("questions", []) if isinstance(document, dict) else []:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        expect = item.get("expect")
        wanted = [expect] if isinstance(expect, str) else list(expect or [])
        disclosed = customer.reply(item["text"]).disclosed
        missing = [key for key in wanted if key not in disclosed and key in patterned]
        if missing:
            problems.append(
                f"matching.json: {item['text']!r} expects {missing} but discloses {disclosed}"
            )
        elif not wanted and rules & set(disclosed):
            problems.append(
                f"matching.json: {item['text']!r} expects no rule but discloses "
                f"{sorted(rules & set(disclosed))}"
            )
    return problems


def _collapsed(hidden_dir: Path) -> list[str]:
    """Pattern phrases that match as one bare word (``patterns.collapsed_terms``)."""
    warnings = []
    for name in ("gt.json", "customer.json"):
        path = hidden_dir / name
        try:
            document = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        except (OSError, json.JSONDecodeError):
            continue  # unreadable files are reported by the script checks
        warnings += [
            f"{name}: {line} (articles and possessives are skipped inside a phrase; write the "
            "bare word if that is meant, or a phrase that names the thing)"
            for line in collapsed_terms(document)
        ]
    return warnings


def _target_examples(
    customer: ScriptedCustomer, target: dict[str, Any], target_facts: set[str]
) -> list[str]:
    facts = set(target.get("facts", []))
    problems = [
        f"target `{target['key']}`: its example {question!r} does not disclose it"
        for question in target.get("triggers", [])
        if not facts & set(customer.reply(question).disclosed)
    ]
    for question in target.get("near_misses", []):
        leaked = sorted(target_facts & set(customer.reply(question).disclosed))
        if leaked:
            problems.append(
                f"target `{target['key']}`: its near miss {question!r} discloses {leaked}"
            )
    return problems


def _overlaps(customer: ScriptedCustomer, targets: list[dict[str, Any]]) -> list[str]:
    """Non-target answers whose text fires a target's pattern."""
    by_fact = {fact.key: fact for fact in customer.script.facts}
    warnings: list[str] = []
    for fact in customer.script.facts:
        # Target facts state rules; a misconception contradicts one on purpose (and says so).
        if fact.target is not None or fact.misconception is not None:
            continue
        reviewed = set(fact.reviewed_overlaps)
        for target in targets:
            key = str(target["key"])
            owner = next((by_fact[f] for f in target.get("facts", []) if f in by_fact), None)
            if key in reviewed or owner is None or owner.pattern is None:
                continue
            index = TermIndex(owner.pattern.terms())
            if strength(owner.pattern, index.present(tokens_of(fact.answer))):
                warnings.append(
                    f"fact `{fact.key}`: its answer reads as an answer to target `{key}`; make "
                    "sure it neither contradicts nor appears to waive that rule, then list "
                    f"`{key}` in the fact's `reviewed_overlaps`"
                )
    return warnings


# Blanket permissions: in any answer they read as waiving every other rule on the subject ("So
# end of day at least 50 %, whatever you do during the day" waived the daytime SoC window).
_BLANKET = re.compile(
    r"\b(?:whatever you (?:do|like|want)|however you (?:like|want)|anything goes|"
    r"(?:any|every) value (?:is|will be) (?:fine|ok|okay)|do what(?:ever)? you (?:like|want)|"
    r"no (?:other )?(?:limits?|restrictions?|constraints?|rules?) (?:at all|whatsoever)|"
    r"doesn'?t matter what)\b",
    re.IGNORECASE,
)

# An answer opening with a yes or a no ("Yes, the demand charge is ...").
_VERDICT = re.compile(
    r"^\W*(?:yes|no|yeah|yep|nope|correct|right|exactly|absolutely|definitely|"
    r"that'?s (?:right|correct))\s*[,.!:;\u2013\u2014-]",
    re.IGNORECASE,
)


# Wordings an answer must not have, whatever question it answers: what finds it, the warning, and
# whether a designed misconception (wrong on purpose, and hedged) is held to it too.
_WORDINGS: tuple[tuple[Callable[[str], re.Match[str] | None], str, bool], ...] = (
    (
        _BLANKET.search,
        "its answer says {!r}, which reads as waiving every other rule on its subject; say what "
        "is allowed instead",
        False,
    ),
    (
        _VERDICT.match,
        "its answer opens with a verdict ({!r}); it is given to every question that asks for "
        "the fact, and to one proposing something else the verdict reads as agreeing with it: "
        "open with the fact itself",
        True,
    ),
)


def _wordings(customer: ScriptedCustomer) -> list[str]:
    """Blanket permissions and verdict openers (see the module docstring)."""
    return [
        f"fact `{fact.key}`: " + message.format(match.group(0).strip())
        for find, message, misconceptions in _WORDINGS
        for fact in customer.script.facts
        if (misconceptions or fact.misconception is None) and (match := find(fact.answer))
    ]


# How a person voices a belief they are not the authority on: a hedge, or a pointer to someone
# who can confirm it (the owner's name and data files are added per misconception).
_HEDGES = (
    r"as far as i know|i think|i believe|i'?m (?:fairly |pretty )?sure|if i remember|"
    r"last i (?:heard|checked|looked)|from what i|in my experience|i'?d (?:check|ask)|"
    r"check (?:with|that with|the details with)|worth (?:checking|asking)|to be sure|"
    r"if you need it (?:confirmed|exact)|ask "
)


def _confident_misconceptions(customer: ScriptedCustomer) -> list[str]:
    """Designed misconceptions stated as certainties (see the module docstring)."""
    by_fact = {fact.key: fact for fact in customer.script.facts}
    names = {person.id: person.name for person in customer.script.stakeholders}
    warnings = []
    for fact in customer.script.facts:
        if fact.misconception is None:
            continue
        pointers = [_HEDGES]
        for source in fact.misconception.contradicted_by:
            if source in by_fact:
                owner = names.get(by_fact[source].stakeholder, "")
                pointers += [re.escape(part) for part in owner.split()[:1]]
            else:
                pointers.append(re.escape(Path(source).name))
        if not re.search(rf"\b(?:{'|'.join(pointers)})", fact.answer, re.IGNORECASE):
            warnings.append(
                f"fact `{fact.key}`: a designed misconception stated as certain; voice it as the "
                "person's belief or name who (or which file) can confirm it, so the customer is "
                "honestly unsure rather than confidently wrong"
            )
    return warnings


def schema_mentions(customer: ScriptedCustomer, schema_path: Path) -> list[str]:
    """Schema texts that name a target's subject together with the aspect its rule settles, i.e.
    that fire its pattern (FDE-Bench §3.1: agents see the request and the data; the schema only
    replaces the paper's extractor, so it must not hint at hidden rules). Naming the subject
    alone ("battery schedule" in a battery case) is not a hint."""
    try:
        texts = list(_strings(json.loads(schema_path.read_text(encoding="utf-8"))))
    except (OSError, ValueError):
        return []
    warnings = []
    for fact in customer.script.facts:
        if fact.target is None or fact.pattern is None:
            continue
        index = TermIndex(fact.pattern.terms())
        for text in texts:
            found = index.present(tokens_of(text))
            if strength(fact.pattern, found):
                named = ", ".join(sorted(str(term) for term in found))
                warnings.append(
                    f"submission_schema.json: {text[:80]!r} reads as stating target "
                    f"`{fact.target}` ({named}); schema text must not hint at hidden rules"
                )
                break
    return warnings


def _strings(value: Any) -> Iterator[str]:
    # prose, not a column name or a type
    return (text for text in json_strings(value) if len(text.split()) >= 2)


# Probe measurements by the fingerprint of what decides them (``_measured_by``): a case's
# variants share the scenario's probe sets and usually its patterns, so a variant whose texts
# differ only in the figures its answers state is measured once, not once per variant (the
# measurement is most of admission's time). Bounded: a long-lived site process admits many.
_MEASURED: dict[str, tuple[dict[str, Any], list[str]]] = {}
_MEASURED_MAX = 64
_MEASURING = threading.Lock()


def _measured_by(hidden_dir: Path) -> str:
    """A digest of everything a probe measurement reads except what no single-question reply
    depends on: the facts' answers, reasons and stated values (a fresh customer's disclosures
    and non-answers come from patterns, examples, people and the case's nouns alone; the
    targets' requirements are for the judge and the report)."""

    def document(name: str) -> Any:
        path = hidden_dir / name
        try:
            return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        except (OSError, json.JSONDecodeError):
            return path.read_bytes().hex() if path.exists() else None

    def without(value: Any, listed: str, prose: tuple[str, ...]) -> Any:
        if not isinstance(value, dict) or not isinstance(value.get(listed), list):
            return value
        kept = [
            {k: v for k, v in item.items() if k not in prose} if isinstance(item, dict) else item
            for item in value[listed]
        ]
        return {**value, listed: kept}

    script = without(document("customer.json"), "facts", ("answer", "why", "plain", "values"))
    if isinstance(script, dict):  # a misconception's note is for authors only
        for fact in script.get("facts", []):
            if isinstance(fact, dict) and isinstance(fact.get("misconception"), dict):
                fact["misconception"] = {
                    k: v for k, v in fact["misconception"].items() if k != "note"
                }
    package = hidden_dir.parent
    fingerprint = {
        "customer": script,
        "gt": without(document("gt.json"), "targets", ("requirement", "description")),
        "probes": {
            path.name: path.read_bytes().hex()
            for path in sorted((hidden_dir / "probes").glob("*.json"))
        },
        "vocabulary": sorted(data_vocabulary(package)),
        "summary": public_summary(package),
        "schema": (package / "submission_schema.json").read_bytes().hex()
        if (package / "submission_schema.json").is_file()
        else None,
    }
    encoded = json.dumps(fingerprint, sort_keys=True, default=str).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


def _probe_summary(hidden_dir: Path) -> tuple[dict[str, Any], list[str]]:
    """The probe halves' summary and warnings, measured once per fingerprint."""
    with _MEASURING:  # the measurement is CPU-bound Python: threads gain nothing by overlap
        key = _measured_by(hidden_dir)
        if key not in _MEASURED:
            if len(_MEASURED) >= _MEASURED_MAX:
                _MEASURED.clear()
            _MEASURED[key] = _measure_probes(hidden_dir)
        summary, warnings = _MEASURED[key]
    return copy.deepcopy(summary), list(warnings)


def _measure_probes(hidden_dir: Path) -> tuple[dict[str, Any], list[str]]:
    halves = probes.measure(hidden_dir)
    if halves is None:
        return {}, [
            "no outside probe set (hidden/probes/questions.json): the customer's quality is "
            "unmeasured (cases/README.md, 'Probe sets')"
        ]
    summary = {
        name: {
            "messages": half.messages,
            "hit_rate": round(half.hit_rate, 4),
            "near_miss_leak_rate": round(half.near_leak_rate, 4),
            "other_leaks": half.other_leaks,
            "wrong_answers": half.wrong,
        }
        for name, half in halves.items()
    }
    test = halves["test"]
    warnings = []
    if test.messages and not test.passed:
        warnings.append(
            f"probe set, test half: hit rate {test.hit_rate:.1%}, near-miss leaks "
            f"{test.near_leak_rate:.1%}, wrong answers {test.wrong} (targets: hit >= "
            f"{probes.MIN_HIT_RATE:.0%}, leaks <= {probes.MAX_NEAR_LEAK:.0%}, none wrong)"
        )
    return summary, warnings
