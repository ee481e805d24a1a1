"""What kind of thing an ask asks: a rule, or a fact about the data, a file or its history.

A pattern decides whether an ask names a rule's subject and the aspect the rule settles. Some
asks name both and still do not ask for the rule, because of what they ask *about* the subject:

- a count or whether something occurs in the data ("How many ambient pallets are in the
  chillers right now?", "Are there stacks in the export where a heavy pallet sits on a light
  one?"): the data answers that, not the rule;
- how to read a file's mechanics or format ("Is that the right way to read the forecast
  file?", "What precision is the probability column in?", "Is the balance to the cent?",
  "Is the id stored as a string?"); a unit or currency is not one of these, since which unit
  a column is in is often the rule itself;
- where a figure or a file comes from ("Was the 90 % measured on site?", "Which tool does
  validation use?"), or what caused something in the past ("What caused the June peak?").

Such an ask gets background, never a rule, unless it also asks for one in so many words: a
permission or obligation ("can I", "must", "allowed"), a rule noun ("any limit ..."), or an
amount of a resource in a unit ("how many hours of oven time do we have?": a budget).
The customer applies this to target facts only; context facts (background) still answer.
"""

from __future__ import annotations

import re

# An ask that also asks for a rule in so many words keeps its rule reading. "May" the month
# ("in May", "end of May", "May 2025") is not the modal.
_ASKS_RULE = re.compile(
    r"\b(?:can|could|(?<!\bin )(?<!\bof )(?<!\bfor )(?<!since )(?<!until )(?<!during )(?<!mid-)(?<!\d )"
    r"may(?!\s*\d)|must|should|shall|need to|needs to|have to|has to|allowed|allow|"
    r"permitted|permissible|ok|okay|fine|acceptable|legit|supposed to|rule|rules|limit|limits|"
    r"restrict\w*|constraint\w*|requirement\w*|required|policy|cap|max|maximum|min|minimum|"
    r"threshold|count as|counts as|counted as|treat|treated)\b",
    re.IGNORECASE,
)

# "could you tell me ...", "can I see ...": a polite request, not a permission.
_POLITE = re.compile(
    r"\b(?:(?:can|could|would|will) you|(?:can|could|may) (?:i|we) (?:see|get|have|look at))\b",
    re.IGNORECASE,
)

# "How many ... are there / are in the file / right now": a count of what the data holds.
_COUNT = re.compile(
    r"^\W*(?:(?:and|so|roughly|approximately|about|just)\s+)?"
    r"(?:(?:could|can|would) you (?:please )?(?:tell me|let me know|say)\s+|do you know\s+)?"
    r"(?:(?:roughly|approximately|about)\s+)?how many\b.*\b(?:are there|is there|"
    r"are in|are sitting|sit|sitting|right now|currently|at the moment|in the (?:file|export|"
    r"data|dataset|extract)|do (?:we|you) have|does (?:it|the \w+) (?:have|contain|hold)|"
    r"per \w+|in \w+\.(?:csv|json|xlsx?)|roughly|approximately)\b",
    re.IGNORECASE,
)
# "Are there stacks in the current export where ...", "Are there any ambient products sitting
# in the C lanes in this morning's export?", "how common is that": whether the data holds
# something. Up to eight words may describe it before the file is named.
_OCCURS = re.compile(
    r"^\W*(?:(?:and|so)\s+)?(?:are|is) there\s+(?:any\s+|some\s+)?"
    r"(?!anything|something|everything|nothing|any\b|other\b|else\b)[\w\-]+"
    r"(?:\s+[\w\-]+){0,8}?\s+(?:in|inside|within)\s+(?:the|this|that|our|your|today'?s|"
    r"this morning'?s|yesterday'?s|tonight'?s)?\s*(?:current\s+|latest\s+)?(?:file|export|"
    r"data|dataset|extract|csv|sample|\w+\.(?:csv|json))\b|\bhow (?:common|frequent|rare)\b",
    re.IGNORECASE,
)
# The mechanics of reading a file, or a column's format.
_READS = re.compile(
    r"\b(?:(?:right|correct|proper) way to (?:read|parse|load|open) (?:the|this|that|a)\s+"
    r"(?:\w+\s+)?(?:file|csv|json|export|data)|how (?:do|should|can|would) (?:i|we) "
    r"(?:parse|open|load) |delimiter|separator|encoding|numeric precision|decimal places|"
    r"what precision|which precision|to the cent|data ?type|dtype|"
    r"date format|(?:stored|saved|encoded|formatted) as (?:a |an )?(?:string|text|integer|int|"
    r"float|number|date)s?|file format|column order|order of (?:the )?columns|header row|"
    r"line endings?)\b",
    re.IGNORECASE,
)
# Where a figure or a process comes from: who measured it, with which tool.
_PROVENANCE = re.compile(
    r"^\W*(?:(?:and|so)\s+)?(?:was|were)\s+(?:the|that|this|these|those|it)\b.{0,60}?\b"
    r"(?:measured|computed|calculated|derived|taken|recorded|sourced|tested)\s+(?:by|on|at|"
    r"during|in|from)\b|\bwhich (?:tool|software|package|language|programming language)\b"
    r"|\bwho (?:measured|computed|recorded|maintains|owns)\b",
    re.IGNORECASE,
)


# When a file or figure was last made or changed ("When was lanes.csv last updated?"): its
# history, not what applies now.
_WHEN_MADE = re.compile(
    r"^\W*(?:(?:and|so)\s+)?when (?:was|were|did|is|are)\b.{0,60}?\b(?:last\s+)?(?:updated|"
    r"surveyed|changed|modified|created|exported|extracted|pulled|generated|refreshed|produced|"
    r"revised|edited)\b",
    re.IGNORECASE,
)
# Which things the data holds now ("Which pallets are on the top tier right now?"): a lookup in
# the data, unless it asks which may be handled ("which pallets are movable right now?").
_LOOKUP = re.compile(
    r"^\W*(?:(?:and|so)\s+)?(?:which|what)\s+[\w\-]+(?:\s+[\w\-]+)?\s+(?:are|is|sit|sits)\b"
    r"(?!.*\b(?:movable|moveable|accessible|reachable|pickable|liftable|allowed|permitted|may|"
    r"can|units?|currency|"
    r"measured|scale|kg|kgs|kilos?|kilograms?|lbs?|pounds?)\b).*"
    r"\b(?:right now|currently|at the moment|today|in the (?:current )?(?:file|export|data|"
    r"dataset|extract))\b",
    re.IGNORECASE,
)
# Who does something or whom to ask ("Who at the site checks the invoices each month?", "If I
# have a question about the inverter, who is the right person to ask?", "is it you who gets
# called?"): a person, not a rule. The ask may follow a lead clause or be put as "is it X who".
_WHO_DOES = re.compile(
    r"(?:^\W*(?:(?:and|so|um|hi|hey)\b[,\s]*)?|[,;:\u2013\u2014-]\s*|\b(?:is it|it'?s|it is)"
    r"\s+\w+\s+)who\b(?:\s+[\w\-']+){0,5}?\s+(?:checks?|handles?|reviews?|approves?|signs?|"
    r"owns?|pays?(?!\s+for\b)|receives?|gets|looks after|deals with|drives|runs|manages|sends?|reads?|works?|"
    r"keeps?|holds?|stores?|files?|maintains?|knows?|would know|is responsible|are responsible|"
    r"(?:is|'s) (?:the )?(?:right|best|correct) (?:person|one|contact)|to (?:ask|contact|talk to|"
    r"speak to|call|email)|should (?:i|we) (?:ask|contact|talk to|speak to|call|email)|"
    r"do (?:i|we) (?:ask|contact|talk to|speak to|call|email)|gets? (?:called|paged|notified))\b",
    re.IGNORECASE,
)
# A past reading ("What was the peak import on 11 July?"): the data answers it.
_PAST_VALUE = re.compile(
    r"^\W*(?:(?:and|so)\s+)?what (?:was|were) (?:the |our |its )?(?:\w+ )?(?:peak|maximum|max|"
    r"highest|lowest|minimum|min|average|mean|total|price|import|load|soc|value|reading|"
    r"temperature)\b",
    re.IGNORECASE,
)
_NOW = re.compile(r"\b(?:right now|currently|at the moment)\b", re.IGNORECASE)
# A request for an artefact ("Can I see a sample of a good move list?"): an example, not a rule.
_ARTEFACT = re.compile(
    r"\b(?:see|get|have|look at|share|send)\b.{0,20}\b(?:sample|example|template|copy)\b",
    re.IGNORECASE,
)


# What caused something in the past ("What caused the June peak?", "Why were they parked
# there in the first place?"): history, not what to do now.
_HISTORY = re.compile(
    r"\b(?:in the first place|what caused|what drove|what led to|how come)\b"
    r"|^\W*(?:(?:and|so)\s+)?(?:has|have|did)\b.{0,40}\bever\b"
    r"|\bhow did\b.{0,40}\bget\b",
    re.IGNORECASE,
)


# "How many hours of oven time do we have?", "how many kW can we draw": an amount of a
# resource in a unit, i.e. a budget or capacity, which is what a rule settles; not a count of
# things in the data ("how many pallets do we have in the chillers"). One modifier may stand
# before the unit ("how many investigator hours do we have?").
_BUDGET = re.compile(
    r"\bhow (?:many|much)\s+(?:[a-z]+\s+)?(?:hours?|hrs?|mins?|minutes?|days?|weeks?|wks?|kg|kilos?|"
    r"tonnes?|"
    r"tons?|kw|kwh|mw|mwh|litres?|liters?|metres?|meters?|euros?|eur|pounds?|gbp|dollars?|usd|budget|capacity|"
    r"time|space|room)\b",
    re.IGNORECASE,
)


def who_does(ask: str) -> str | None:
    """The verb of a "who handles X?" ask ("handles"), or None when the ask is not one. A rule
    can be the answer: "claims on the scheme are handled by Northgate" says who handles them
    (``customer_sim.stages.readings`` keeps a rule whose answer uses the verb)."""
    found = _WHO_DOES.search(ask)
    return found.group(0).split()[-1] if found else None


def background_only(ask: str) -> bool:
    """Does the ask ask about the data, a file or a figure's history rather than for a rule
    (see the module docstring)? Such an ask is answered with background only."""
    if _LOOKUP.search(ask) and _NOW.search(ask):
        return True  # what the data holds right now, even "at their max height"
    if _ASKS_RULE.search(_POLITE.sub(" ", ask)) or _BUDGET.search(ask):
        return False
    return any(
        rx.search(ask)
        for rx in (
            _COUNT,
            _OCCURS,
            _READS,
            _PROVENANCE,
            _HISTORY,
            _WHEN_MADE,
            _LOOKUP,
            _ARTEFACT,
            _WHO_DOES,
            _PAST_VALUE,
        )
    )


__all__ = ["background_only"]


# A verdict asked for a plan or an assumption ("... OK?", "any problem with that?", "can I park
# them in A01 for a few minutes?"): an answer that settles only part of it must not read as a
# yes to the rest (``ScriptedCustomer`` then says so).
_VERDICT_ASK = re.compile(
    r"\b(?:ok|okay|alright|fine|right|correct|agreed|true|plausible|acceptable|good|yes)\s*\?"
    r"|\b(?:any|an?) (?:problems?|issues?|objections?|concerns?|risks?)\b"
    r"|\bis (?:that|this|it) (?:ok|okay|fine|acceptable|enough|right|correct|plausible|allowed|"
    r"a problem)\b"
    r"|\b(?:would (?:you|that|they|the(?: \w+){1,2})|you'?d|you would) (?:accept|take|be ok|"
    r"be okay|be fine|be happy|work|sign off)\b"
    r"|\b(?:does|do) (?:that|this|it) (?:look|sound|seem) (?:right|ok|okay|fine|good|correct)\b"
    r"|\b(?:can|could|may) (?:i|we)\b(?!\s+(?:see|get|have|look at|ask)\b)"
    # "Plan: A, B, C. Sign off?", "good to go?", "happy with that?"
    r"|\b(?:sign (?:it |that |this )?off|good to go|happy with (?:that|this|it)|green light|"
    r"thumbs up|go ahead)\s*\?",
    re.IGNORECASE,
)


def seeks_approval(ask: str) -> bool:
    """Does the ask ask for a yes or no on a plan, an assumption or a permission, anywhere in
    it and at any length? (``context.asks_verdict`` is narrower: a short verdict ask that leans
    on the statements before it.) "How much can we sell of each?" is a wh-question: the "can
    we" in it asks for a figure, not for a yes."""
    found = _VERDICT_ASK.search(ask)
    if found is None:
        return False
    opening = _WH_OPENING.match(ask)
    return not (opening and found.group(0).lower().startswith(("can", "could", "may")))


# The player's own plan or assumption, stated ("so I can park them anywhere", "I'll stack them
# five high", "my plan is ..."): what a "not a yes to the rest" caveat is about. A permission
# asked as a question ("can I dump the excess to the grid?") states no plan: its answer is the
# yes or the no to exactly that, and "I wouldn't call the rest of the plan fine" then answers a
# plan nobody described (a blind rater marked it nonsense, as it was).
_STATED_PLAN = re.compile(
    r"\b(?:i'?ll|i will|i'?m going to|i am going to|i'?m gonna|we'?ll|we will|my plan|i plan|"
    r"i'?m planning|i was going to|i want to|let'?s|so i can|so we can|then i can|then we can|"
    r"here'?s (?:my plan|what i'?ll do|the plan)|"
    r"i thought i'?d|i'?m thinking|i would|i'?d (?:just |then )?(?:put|use|go|stack|leave|park|"
    r"move|take|keep|drop|schedule|assign|send|bake|run|charge|cut|score|set))\b",
    re.IGNORECASE,
)


def states_plan(message: str) -> bool:
    """Does the message state what the player means to do or assumes they may do (see
    ``_STATED_PLAN``)?"""
    return bool(_STATED_PLAN.search(message) or _PLAN_HEADING.search(message))


# "Plan: kg for weights, 4 high in chillers, mixed stacks first. Sign off?": a heading on its
# own line states a plan; its steps follow the first "plan:" or "approach:" anywhere ("Here's my
# plan: A, B, C").
_PLAN_HEADING = re.compile(r"(?:^|\n)\s*(?:my |the )?(?:plan|approach)\s*:", re.IGNORECASE)
_PLAN_STEPS_START = re.compile(r"^.*?\bplan\s*:|^.*?\bapproach\s*:", re.IGNORECASE | re.DOTALL)
_STEP_BREAK = re.compile(r"\s*(?:[,;\n]|\.\s|\band then\b|\bthen\b)\s*", re.IGNORECASE)


def plan_steps(message: str) -> list[str]:
    """The steps of a plan laid out as a list after "plan:" (each of two words or more), or []
    when the message is no such list."""
    start = _PLAN_STEPS_START.match(message)
    if start is None:
        return []
    steps = [step.strip(" .?!") for step in _STEP_BREAK.split(message[start.end() :])]
    return [step for step in steps if len(step.split()) >= 2]


_WH_OPENING = re.compile(
    r"^\s*(?:(?:ok|okay|so|and|but|thanks)[,.!]*\s+)*(?:how (?:much|many|long|far|fast|high|often|"
    r"big|soon)|what|which|when|where|who|whom|why)\b",
    re.IGNORECASE,
)


# "Is there a height limit?", "any rules about nuts?", "can they go anywhere in a stack?", "can I
# use every column?", "do we pay for the oven?": whether something constrains the work, asked in
# plain words about a subject. A competent employee states the rule on that subject, if there is
# one (``ScriptedCustomer`` decides whether the subject is one rule's).
_WHETHER_RULED = re.compile(
    r"\b(?:is there|are there|is anything|are any|any)\s+(?:\w+\s+){0,3}?"
    r"(?:limits?|rules?|restrictions?|constraints?|requirements?|caps?|maximums?|minimums?|"
    r"policy|policies|conditions?|issues?|problems?|catch|gotchas?)\b"
    r"|\b(?:any|is there an?|are there)\s+(?:rules?|limits?|restrictions?|constraints?)\s+"
    r"(?:on|about|for|around|with|regarding)\b"
    r"|\b(?:can|could|may|should|must)\s+(?:i|we|they|it|you|one|these|those|the \w+)\b"
    r"|\b(?:am i|are we|is it|are they)\s+(?:allowed|permitted|ok|okay|fine|free)\b"
    r"|\b(?:do|does|did)\s+(?:i|we|they|it|you|that|this)\s+(?:have to|need to|need|pay|count|"
    r"matter|go|get|cost)\b"
    r"|\b(?:anywhere|whatever|any way i like|all of them|every|all the)\b",
    re.IGNORECASE,
)


def asks_whether_ruled(ask: str) -> bool:
    """Does the ask ask, in plain words, whether something constrains the work ("is there a
    limit", "can they go anywhere", "do we pay for it")? A question about what the data holds
    is not one (``background_only``)."""
    if _WH_QUESTION.search(ask) or _ALTERNATIVES.search(ask) or re.search(r"\d", ask):
        return False  # "how much ...", "X or Y?", "a row for 00:00?": what, not whether
    if _ABOUT_DELIVERABLE.search(ask):
        return False  # "do I need weights anywhere in the CSV I send back?": the file's format
    return bool(_WHETHER_RULED.search(ask)) and not background_only(ask)


# "what about heavy pallets?", "what's the oven situation for friday?": a subject named and
# nothing asked of it in particular. Like "is there a limit on X?", it is that subject's rule's
# question when one rule stands out. Not "tell me about the grid connection" or "anything on
# X?": those ask the customer to volunteer, which it does not (FDE-Bench A.9.2).
_ABOUT_SUBJECT = re.compile(
    r"^\s*(?:(?:ok|okay|so|and|right|hi|hey)\b[,.!]*\s+)*(?:"
    r"(?:what|how) about\b|what'?s the (?:deal|story|situation|score|position|rule|policy) "
    r"(?:with|on|for|about|around)\b|what'?s the (?:\w+ ){1,3}(?:situation|deal|story|policy)\b"
    r"|(?:what|how) do (?:you|we) (?:do|handle|deal) (?:with|about)\b)",
    re.IGNORECASE,
)


def asks_about_subject(ask: str) -> bool:
    """Does the ask name a subject and ask nothing in particular about it (see above)? Not
    when it offers alternatives or carries a figure: those ask something specific."""
    if _ALTERNATIVES.search(ask) or re.search(r"\d", ask) or _ABOUT_DELIVERABLE.search(ask):
        return False
    return bool(_ABOUT_SUBJECT.search(ask)) and not background_only(ask)


_WH_QUESTION = re.compile(
    r"\b(?:how|what|what'?s|which|when|where|who|whose|whom|why|by when)\b", re.IGNORECASE
)
_ABOUT_DELIVERABLE = re.compile(
    r"\b(?:send (?:back|you|over|in)|submit\w*|submission|deliverable|upload\w*|"
    r"(?:in|into) (?:the|my) (?:csv|file|output|schedule|plan|list) (?:i|we)\b)",
    re.IGNORECASE,
)
_ALTERNATIVES = re.compile(r"\bor\b|\bvs\.?\b|\bversus\b", re.IGNORECASE)


def offers_alternatives(text: str) -> bool:
    """ "..., or do they have to go out via the ambient side?": the message asks which of two
    things holds, so it names what it asks about; no single subject rule answers it."""
    return bool(_ALTERNATIVES.search(text))
