"""Stage 1 of a reply: the dialogue act of each piece of a message, before any fact matching.

People in a chat greet, thank, say "ok", apologise, chat, ask what to deliver or "anything
else?", and ask "why?" about the last answer. None of that asks for a business rule, and
matching it against the facts only produces non-answers that quote the message back ("That:
can you be more specific?"). This stage decides, for each piece, whether it is a courtesy and
which one, and for the message as a whole whether it is a sweep, a question about the
engagement itself or a meta follow-up on the last answer, so that later stages match only what
asks for information and the wording stage can answer the rest in the speaker's voice.

A piece is a courtesy when nothing is left of it once its courtesy phrases, the people's names
and filler words are taken away: "Hello both, thanks for having me." and "hm. ok." are; "Hi, is
there a height limit?" is not (its question goes on to the fact finder, the greeting does not).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

GREETING = "greeting"
THANKS = "thanks"
ACK = "ack"
FAREWELL = "farewell"
APOLOGY = "apology"
SMALLTALK = "smalltalk"
SYMPATHY = "sympathy"
# Chat about nothing in the case, recognised with the case's help (``customer_sim.chat``).
CHAT = "chat"
COMPLIMENT = "compliment"
# Asking about the person ("how long have you had the café?") and wishing well ("hope nobody got
# ill"), also recognised with the case's help.
ABOUT_THEM = "about_them"
WELL_WISH = "well_wish"
COURTESIES = (
    GREETING,
    THANKS,
    ACK,
    FAREWELL,
    APOLOGY,
    SMALLTALK,
    SYMPATHY,
    CHAT,
    COMPLIMENT,
    ABOUT_THEM,
    WELL_WISH,
)

# Phrases by act, tried in this order; each is removed from the piece where it stands.
_PHRASES: tuple[tuple[str, str], ...] = (
    (
        FAREWELL,
        r"bye+|goodbye|see (?:you|ya)|talk (?:to you )?(?:soon|later)|speak soon|ciao"
        r"|have a (?:good|nice|great) (?:one|day|weekend|evening)|take care|later|all the best"
        r"|that'?s (?:all|everything|it)(?: for now| from me)?|(?:that|this) covers (?:it|my list)"
        r"|i'?m (?:all )?(?:done|set|good)(?: for now)?|done|signing off"
        # leaving to do the work: "thanks so much Maren, I'll get going!"
        r"|(?:i'?ll|i will|let me|time to|better) (?:get going|get started|make a start"
        r"|get (?:on with it|to work|cracking)|crack on|start (?:now|on it))|off i go"
        r"|back to (?:work|it)|ttyl|ttfn|best wishes|kind regards|best regards|warm regards"
        r"|i'?ll be in touch(?: (?:with|about) (?:the|my) [a-z]+)?|speak (?:to you )?later"
        # "I'll send it over once it's ready": the player leaves to do the work
        r"|(?:i'?ll|i will) (?:send|share|upload|submit|get) (?:it|this|that|the [a-z]+|my [a-z]+)"
        r"(?: (?:over|across|back|in))?(?: to (?:you|u))? (?:once|when|as soon as) "
        r"(?:it'?s|it is|i'?m|i am|i have|i'?ve) (?:ready|done|finished|it ready)"
        r"|(?:i'?ll|i will) (?:send|share|upload|submit) (?:it|this|that|the [a-z]+|my [a-z]+)"
        r"(?: (?:over|across|in))?(?: to (?:you|u))? (?:shortly|soon|later|in a bit|asap|tonight"
        r"|tomorrow|by the end of the day|in a while)"
        # "Will send the list.", "I'll upload it": the whole piece says the work is on its way
        r"|(?:i'?ll|i will|will) (?:send|share|upload|submit) (?:it|this|that|the [a-z]+|my [a-z]+)"
        r"(?: (?:over|across|in|through))?(?: to (?:you|u))?",
    ),
    (
        SYMPATHY,
        r"(?:oh )?(?:sorry|sad) to hear (?:that|it|about that)|oh no|that'?s a shame"
        r"|what a pain|ouch|poor (?:you|thing)|that sounds (?:rough|tough|hard|scary|stressful)",
    ),
    (
        SMALLTALK,
        r"how (?:are|r) (?:you|things|u|ya)(?: all)?(?: doing| going| keeping)?(?: today| this (?:morning|week)"
        r"| at the moment)?|how'?s it going(?: today)?|how'?s your day(?: going)?"
        r"|hope (?:you'?re|you are|all is|everything'?s?) (?:well|good|fine)"
        r"|(?:lovely|nice|great) (?:weather|day)|busy (?:day|week|morning)|happy (?:friday|monday)"
        r"|long time no see|i'?m (?:doing )?(?:good|fine|well)(?: thanks)?"
        r"|how'?s (?:your|the|everyone'?s|everybody'?s|the team'?s) (?:week|weekend|morning|day"
        r"|afternoon)(?: going| been)?(?: so far)?"
        r"|how (?:is|are) (?:everyone|everybody|you all|the team)(?: doing)?(?: today| this week)?"
        r"|how was (?:your|the) (?:weekend|week|holiday|trip)"
        r"|hope (?:you'?re|you are) having a (?:good|nice|great|quiet) (?:week|day|morning)"
        r"|hope (?:you|u) (?:had|have) a (?:good|nice|great|lovely) [a-z]+"
        # weather and the day's mood: "hope the heat isn't too bad up there in Bremen?"
        r"|hope (?:the|your) [a-z ]{0,30}(?:is|isn'?t|is not|wasn'?t|was not|are|aren'?t) "
        r"(?:too )?(?:bad|hot|busy|cold|wet|crazy|hectic|mad|rough|good|fine|ok)"
        r"(?: (?:up|down|over|out) there)?(?: (?:in|at) [a-z]+)?"
        r"|(?:sounds|looks|seems) like [a-z' ]{0,30}(?:a scorcher|a hot one|hot|scorching|"
        r"a (?:long|busy|big|hectic) (?:day|week|one))"
        r"|(?:it'?s|it is|so) (?:really |very |so )?(?:hot|cold|warm|wet|rainy|sunny|grey)"
        r"(?: (?:today|here|out|outside|again))?"
        r"|(?:lovely|nice|great|terrible|awful|crazy|mad) (?:weather|heat|rain)"
        # "is the café busy this week?", "Is it a busy time of year for you?"
        r"|(?:is|are) (?:it|things|you|work|the [^\W\d_]+|your [^\W\d_]+) (?:a |very |so |really )?"
        r"(?:busy|quiet|hectic|crazy|mad|calm)(?: (?:time|period|week|day|season))?"
        r"(?: of (?:the )?year)?(?: (?:for you|for you all|this week|today|at the moment|right now|"
        r"these days|lately))?"
        r"|(?:sounds|looks) like (?:a lot of|lots of|plenty of) [a-z]+"
        # "Lovely weather we're having, isn't it? Hopefully it holds for the weekend."
        r"|(?:weather|sunshine|rain) (?:we'?re|we are) having(?:,? isn'?t it)?"
        r"|hop(?:e|efully) it (?:holds|lasts|stays)(?: (?:for|over|until) the weekend)?"
        r"|did (?:you|anyone|u) (?:catch|see|watch) the (?:cricket|football|match|game|rugby|race"
        r"|tennis)(?: (?:at|over|on) the weekend| last night| yesterday)?",
    ),
    (
        GREETING,
        r"good (?:morning|afternoon|evening|day)|hi+|hello+|hey+|hiya|howdy|greetings|yo"
        r"|(?:nice|pleased|good|great|lovely) to (?:meet|e-?meet) (?:you|u)(?: all| both)?"
        r"|morning|afternoon|evening|dear (?:all|team)|(?:first time|new) (?:here|doing this)"
        # "I'm Sam", not "I'm reading net_weight as kg" or "I'm not sure": a name is no verb
        r"|(?:i'?m|i am|this is|my name is) (?!(?:not|so|sure|unsure|still|just|also|only|"
        r"really|pretty|quite|afraid|gonna|about|confused|stuck|lost|happy|fine|ok|okay|done|"
        r"correct|right|wrong|weird|odd|strange|it|that|what|why|how|sorry|glad|worried|nervous|"
        r"keen|excited|looking|thinking|wondering|planning|trying|going)\b)(?![a-z]+(?:ing|ed)\b)"
        r"[a-z]+(?:,? (?:i|and i)'?(?:m| am) (?:the |your )?"
        r"(?:new |)(?:analyst|engineer|consultant|contractor|helping|here)[a-z ]*)?"
        r"|thanks for having me|(?:a )?(?:couple|few|quick|some) (?:of )?(?:qs|questions?)"
        r"(?: for you)?|i have (?:a )?(?:few |some |couple of )?questions?",
    ),
    (
        APOLOGY,
        r"(?:so )?sorry(?: to bother you| for (?:the |my )?(?:delay|typos?|confusion|"
        r"english|spelling|questions?|late reply|many questions)| about that"
        r"| my bad)?|apologies(?: for [a-z ]+)?|my bad|excuse me|pardon|sry|soz"
        # "sry that was a dumb q", "ignore that, silly question"
        r"|(?:that was|that'?s|probably|maybe|it'?s|this is) (?:a )?(?:dumb|silly|stupid|basic|"
        r"daft|obvious) (?:q|qs|question)(?: (?:lol|haha))?|(?:ignore|scratch|forget) (?:that|my last"
        r"(?: (?:one|question|message))?)|(?:a )?(?:dumb|silly|stupid|daft) (?:q|question)",
    ),
    (
        THANKS,
        r"thanks?(?: you)?(?: (?:so|very) much)?(?: (?:again|a lot|a bunch|heaps|loads))?"
        r"|thank u|thx|ty|tnx|cheers|much appreciated|appreciate(?:d| it| that| the help)?"
        r"|that'?s (?:really )?(?:helpful|useful|great|perfect)|very helpful|super helpful"
        r"|merci|danke|gracias|grazie",
    ),
    (
        ACK,
        # longest first: "good to know" before "good" ("Oh good to know, I'd have got that wrong.")
        r"(?:that'?s |that is )?(?:good|useful|handy|important) to know|glad i asked"
        r"|(?:i'?d|i would) have (?:got(?:ten)?|done) (?:that|it) wrong|fair point|point taken"
        r"|that explains (?:it|a lot)|(?:that|this) changes things"
        r"|ok(?:ay)?|k|kk|alright|all right|right|sure|great|good|perfect|excellent|brilliant"
        r"|awesome|nice|lovely|cool|fine|noted|understood|got it|gotcha|makes sense|fair enough"
        r"|i see|ah+|oh+|hm+|hmm+|mhm|uh huh|yes|yeah|yep|yup|no worries|sounds good|clear"
        r"|crystal clear|that makes sense|that helps|will do|roger|wonderful|amazing|super"
        r"|lol|haha+|wow|interesting|acknowledged|ta",
    ),
)
_FILLER = re.compile(
    r"\b(?:and|so|well|then|also|again|both|all|everyone|everybody|team|guys|folks|there|"
    r"you|u|too|very|really|just|a lot|a|an|indeed|now|ok|the|again|for that|for this|for the info|"
    r"for the help|for your help|for the answer|for clarifying|for explaining|for confirming)\b"
)
_COMPILED = tuple((act, re.compile(rf"\b(?:{pattern})\b")) for act, pattern in _PHRASES)


def _bare(text: str, names: Iterable[str]) -> str:
    folded = text.lower().replace("\u2019", "'")
    folded = re.sub(r"@\w+", " ", folded)
    for name in names:
        folded = re.sub(rf"\b{re.escape(name)}\b", " ", folded)
    return folded


_PRECEDENCE = (
    FAREWELL,
    THANKS,
    SYMPATHY,
    APOLOGY,
    COMPLIMENT,
    WELL_WISH,
    ABOUT_THEM,
    CHAT,
    SMALLTALK,
    GREETING,
    ACK,
)
_VERDICT_WORD = re.compile(r"\b(?:ok|okay|right|correct|fine|yes|alright|agreed)\b", re.I)


def courtesy(text: str, names: Iterable[str] = ()) -> str | None:
    """The courtesy a piece is made of ("greeting", "thanks", ...), or None when anything is
    left that may ask or say something (see the module docstring)."""
    rest = _bare(text, names)
    # "OK?", "Right?", "fine?" after a plan asks for a verdict: only a greeting or small talk
    # ("How are you?") is a courtesy with a question mark.
    asks_verdict = text.rstrip().endswith("?")
    found: list[tuple[int, str]] = []
    for act, pattern in _COMPILED:
        for match in pattern.finditer(rest):
            found.append((match.start(), act))
        rest = pattern.sub(" ", rest)
    rest = _FILLER.sub(" ", rest)
    if not found or re.search(r"[a-z0-9]", rest):
        return None
    if asks_verdict and not {act for _, act in found} & {GREETING, SMALLTALK}:
        return None
    if asks_verdict and _VERDICT_WORD.search(text):
        return None  # "This is ok yes?" after a plan is a verdict asked, not "this is Marco"
    # The act a reader answers: thanks and farewells over the "ok" beside them.
    acts = {act for _, act in found}
    for act in _PRECEDENCE:
        if act in acts:
            return act
    return None  # pragma: no cover - every phrase has an act


# --- acts of the whole message ----------------------------------------------------------------

WHY = "why"
SURE = "sure"
MEAN = "mean"
SWEEP = "sweep"

_META = (
    (
        WHY,
        re.compile(
            r"^(?:(?:but|and|so|ok|okay|hm+)[, ]+)?(?:why(?: (?:is|was) that| so| not"
            r"| though| exactly)?|how come|what'?s the reason(?: for that)?|reason\??"
            r"|why does (?:that|it) matter|what'?s that for|what for)[?!. ]*$"
        ),
    ),
    (
        SURE,
        re.compile(
            r"^(?:(?:but|and|so|ok|okay|hm+|wait)[, ]+)?(?:are you sure|really|"
            r"(?:is that|that'?s) (?:right|correct|true|definite|certain|final)"
            r"|you sure|definitely|for sure|certain|no exceptions|always"
            r"|even (?:then|so))[?!. ]*$"
        ),
    ),
    (
        MEAN,
        re.compile(
            r"^(?:(?:sorry|but|and|so|ok|okay|hm+|wait)[, ]+)?(?:what (?:do |did )?you mean(?: by (?:that|"
            r"this|it))?(?: exactly)?|what does that mean(?: exactly)?|meaning|huh|come again|sorry"
            r"|pardon|say (?:that )?again|i don'?t (?:get|follow|understand)(?: that| it| you)?"
            r"|(?:i'?m )?not sure i (?:follow|understand|get it)|(?:you )?lost me|i'?m (?:lost|"
            r"confused)|can you (?:explain|clarify)(?: that)?(?: again)?(?: please)?"
            r"|in plain (?:english|words)|(?:could|can) you rephrase(?: that)?"
            r"|(?:could|can) you (?:say|put|explain) (?:that|it|this) (?:more )?(?:simply|"
            r"differently|another way|in simpler (?:terms|words))(?: please)?"
            r"|in simpler (?:terms|words)|simpler(?: please)?|(?:say|explain) (?:that|it) "
            r"(?:more )?simply(?: please)?)[?!. ]*$"
        ),
    ),
)
_SWEEP = re.compile(
    r"\b(?:anything|something) (?:[a-z]+ )?(?:else|more|i'?ve? missed|i (?:have )?missed|"
    r"i haven'?t (?:asked|covered|mentioned)"
    r"|i didn'?t ask|i (?:should|need to|ought to|must) know|(?:that )?(?:i|we) should be aware of"
    r"|important i'?m missing|worth knowing|that would change)"
    r"|\bwhat else\b|\bany (?:other|more|further) (?:things?|info(?:rmation)?|details|rules|"
    r"constraints|requirements|points|issues|surprises|gotchas)\b|\bany (?:gotchas|surprises|"
    r"pitfalls|catches)\b"
    r"|\bis that (?:all|everything|it)\b|\banything i'?m (?:missing|forgetting)\b"
    r"|\bdid i miss anything\b|\bam i missing anything\b|\banything (?:further|not on my list)\b"
)


_SHORT_WHY = re.compile(r"^(?:(?:but|and|so|ok|okay)[, ]+)?(?:why|how come)\b")
# A longer "why" about the answer just given names it by a pointer, not by its subject.
_WHY_POINTING_BACK = re.compile(
    r"^(?:(?:but|and|so|ok|okay|hm+|sorry)[, ]+)*(?:why|how come)\b(?: (?:is|does|do|would|"
    r"should|must|can'?t|isn'?t|doesn'?t|are|was))? (?:this|that|it|they|those|these)\b"
)
# "file says 4 tho?", "but the sheet says four?": doubting the answer just given.
_PUSHBACK = re.compile(
    r"\b(?:tho|though)\b|^(?:but|hm+|really)\b.*\?$|\b(?:the )?(?:file|sheet|request|data|"
    r"spreadsheet|invoice|datasheet) (?:says|said|shows)\b"
)
# "what means 'delegated authority'?", "what is the meaning of X?": a learner's English asks the
# same as "what do you mean by X?"
_LEARNERS_MEAN = r"|what means\b|what is (?:the )?meaning of\b|what (?:it|this|that) means\b"
_SHORT_MEAN = re.compile(
    r"^(?:(?:sorry|but|and|so|ok|okay)[, ]+)?(?:what (?:do |did )?you mean\b" + _LEARNERS_MEAN + ")"
)


# "can you say that more simply, is level 1 the same as tier 1?", "what do you mean the small one
# is broken?": asking for the last answer again in other words, whatever follows.
_PLAINER = re.compile(
    r"^(?:(?:sorry|sry|but|and|so|ok|okay|hm+|wait)[, ]+)?(?:what (?:do |did )?(?:you|u) mean\b"
    r"|(?:could|can) (?:you|u) (?:say|put|explain) (?:that|it|this) (?:more )?(?:simply|"
    r"differently|another way|in (?:simpler|plain|other) (?:terms|words|english))"
    r"|(?:in )?(?:simpler|plain|other) (?:terms|words|english)\b|what does that mean\b"
    r"|i don'?t (?:get|follow|understand)\b" + _LEARNERS_MEAN + ")"
)


def asks_plainer(text: str) -> bool:
    """Whether a piece asks for the last answer in other words ("what do you mean ...?")."""
    folded = " ".join(text.lower().replace("\u2019", "'").split())
    return bool(_PLAINER.match(folded))


def meta_follow_up(text: str, *, loose: bool = False) -> str | None:
    """``why`` / ``sure`` / ``mean`` for a short follow-up on the last answer, else None.

    ``loose`` (used only once no fact answered the message) also takes a short question that
    opens with "why" or "what do you mean" ("Why it is different?", "what do you mean by
    splitting it?")."""
    folded = " ".join(text.lower().replace("\u2019", "'").split())
    if loose and _PLAINER.match(folded) and not _SHORT_WHY.match(folded):
        return MEAN  # "what do you mean the small one is broken, so it's less than the email said?"
    if loose and len(folded.split()) <= 16 and _WHY_POINTING_BACK.match(folded):
        return WHY  # "why is this a hard rule and not just a cost trade-off?"
    if len(folded.split()) > 10:
        return None
    for act, pattern in _META:
        if pattern.match(folded):  # whole-message patterns: their own length is their bound
            return act
    if len(folded.split()) > 7:
        return None
    if loose and _SHORT_WHY.match(folded):
        return WHY
    if loose and _PUSHBACK.search(folded):
        return SURE
    if loose and _SHORT_MEAN.match(folded):
        return MEAN
    return None


def mentions_courtesy(text: str) -> str | None:
    """The first courtesy a message contains anywhere ("hi! first time doing one of these"),
    or None; for replying to a message no fact answers and that asks nothing."""
    folded = _bare(text, ())
    found = [(m.start(), act) for act, pattern in _COMPILED for m in pattern.finditer(folded)]
    return min(found)[1] if found else None


def leading_greeting(text: str) -> str | None:
    """A greeting that opens a message inside its first piece ("Hi, I've built scorecards
    before, so ..."), or None: with nothing asked after it, the message is a hello and a
    statement, never a question for facts."""
    folded = _bare(text, ())
    for act, pattern in _COMPILED:
        if act == GREETING and (match := pattern.search(folded)) and match.start() < 3:
            return act
    return None


def is_sweep(text: str) -> bool:
    """ "Anything else I should know?": a request to volunteer, which the customer does not do
    (FDE-Bench A.9.2); it is answered with what each person can speak to instead. "..., or
    something else?" offers an alternative and is no sweep."""
    folded = text.lower().replace("\u2019", "'")
    folded = re.sub(r"\bor (?:something|anything) else\b", " ", folded)
    return bool(_SWEEP.search(folded))


# --- questions about the engagement itself ----------------------------------------------------

DEADLINE = "deadline"
DELIVERABLE = "deliverable"
WHO = "who"
GOAL = "goal"
SEND_TO = "send_to"
SIGN_OFF = "sign_off"
JUDGED = "judged"
DATA = "data"

_ENGAGEMENT = (
    (
        DEADLINE,
        re.compile(
            r"\b(?:deadline|by when (?:do|would|should) (?:you|u) need|need (?:it|this|the [a-z]+) by|when (?:do|does|should|must|would) (?:you|u|it|"
            r"this|the (?:plan|file|deliverable))[a-z ]* (?:need|be due|due|done|"
            r"ready|delivered|in)|when is (?:it|this|the [a-z]+) due|how long do i"
            r" have|how much time"
            # "when you need the file?", "it's due with Workforce on Friday, yes?", "... by half
            # four today?": the deadline asked or checked in a learner's or a chat's words
            r"|when (?:you|u) need (?:it|this|the [a-z]+)|(?:it'?s|it is|is it) due\b"
            # "When's it due and who signs off?", "What should I hand in, and by when?"
            r"|when'?s (?:it|this|that|the [a-z]+) due|(?:,|\band)\s*(?:and\s+)?by when(?=\W*$)"
            r"|\bby (?:(?:this |next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
            r"(?: (?:lunchtime|morning|afternoon|evening|noon|midday|night))?|tomorrow(?: morning)?"
            r"|tonight|end of (?:the )?(?:day|week)|eod|cob|half (?:one|two|three|four|five|six)"
            r"(?: today)?)(?=\W*\?\W*$))\b"
        ),
    ),
    (
        DELIVERABLE,
        re.compile(
            r"\b(?:deliverables?|what (?:do|should|must|shall) (?:i|we) (?:(?:need|have) to )?"
            r"(?:deliver|submit|send|hand in|upload|produce|give you)|what "
            r"(?:format|file)|which format|what (?:exactly )?(?:do|would) you "
            r"(?:need|want|expect) (?:from me|me to (?:deliver|send|submit))"
            r"|what should the (?:final |finished )?(?:output|file|csv|list|submission) look like"
            r"|what (?:exactly |actually )?(?:am i|are we) (?:actually |exactly )?(?:supposed|meant"
            r"|expected) to "
            r"(?:hand in|deliver|submit|produce|make|be making|send|build|upload)"
            r"|what (?:i|we) (?:must|should|have to|need to) (?:deliver|submit|hand in|send|upload)"
            r"|what (?:exactly )?(?:do|should|must) (?:i|we) (?:hand in|hand over)"
            # "so just to check: you want a CSV of lead_ids, best first ...?"
            r"|(?:you|u) (?:want|need|expect|'?re after|are after) (?:a|one|the) (?:csv|file|list"
            r"|spreadsheet|table)(?: of| with| listing)?|\bone row (?:per|for each|for every))\b"
            # "should I include a row for every store?", "do I need a row per shift?"
            r"|\b(?:should|do|must|shall) (?:i|we) (?:(?:need|have) to )?(?:include|put|have|add|"
            r"need|give|write) (?:a |one )?(?:row|line|entry) (?:per|for each|for every|for all)\b"
        ),
    ),
    (
        SEND_TO,
        re.compile(
            r"\b(?:who|where) (?:should|do|can|shall) i (?:send|give|hand|email|upload|submit|"
            r"deliver)\b|\bwhere does (?:it|the [a-z]+) go\b"
        ),
    ),
    (
        JUDGED,
        re.compile(
            r"\bhow (?:will|would|do|are) (?:you|u|we|they) (?:going to )?(?:judge|evaluate|assess"
            r"|score|grade|rate|check|decide) (?:whether |if |how good |how well )?(?:the|my|it|this|"
            r"our|your)\b|\bhow (?:will|would) (?:it|this|the [a-z]+|my [a-z]+) be (?:judged|"
            r"evaluated|assessed|scored|graded|marked)\b"
            # "what do you check at sign-off?", "what will you look at first?"
            r"|\bwhat (?:do|will|would) (?:you|u|they) (?:check|look at|look for)"
            r"(?: (?:at|before|when|first|in))?(?: (?:sign-?off|signing off|the end|review))?\W*$"
            r"|\bwhat (?:does|would) (?:a )?good "
            r"(?:result|answer|solution|submission|plan|list) look like\b"
        ),
    ),
    (
        SIGN_OFF,
        re.compile(
            r"\bwho (?:signs (?:off|it off)|approves|accepts)\b"
            # "Deadline and sign-off?": the sign-off listed beside the deadline
            r"|\b(?:deadline|due date|timing) and sign-?off\b"
            r"|\bwho (?:signs|checks|reviews|okays|decides on) (?:it|this|that|the "
            r"[a-z]+|my [a-z]+)(?: off)?\b|\bwho (?:has|gets) the (?:final|last) (?:say|word)\b"
            r"|\bwho (?:will|would|is going to) (?:sign|approve|accept) (?:it|this|the [a-z]+|my "
            r"[a-z]+)\b"
        ),
    ),
    (
        WHO,
        re.compile(
            r"\b(?:who (?:should|do|can|would) i (?:ask|talk to|speak to|go to)|who (?:i|we) "
            r"(?:should|can|do|must|need to) ask|who'?s "
            r"the (?:right |best |correct |main )?(?:person|one|contact)|who "
            r"(?:knows|handles|owns|is responsible|decides)|who are you"
            r"|who (?:i|we) (?:must|should|need to|have to) (?:talk to|speak to|contact)"
            r"|who (?:else )?(?:is|are) (?:on|in) (?:this|the team)"
            r"|who else (?:should|could|can|do|would|might) i (?:ask|talk to|speak to|contact|"
            r"check with|go to)|who else (?:is|'s) involved|(?:is there )?any(?:one|body) else i "
            r"(?:should|could|can|need to) (?:ask|talk to|speak to|contact|check with)"
            r"|who (?:should|do|can) i (?:contact|check with|reach out to)"
            r"|who (?:would|might|will|could) (?:have|know)(?: about)?"
            # "who can tell me about the battery?", "who could explain the tariff?"
            r"|who (?:can|could|would|will|might) (?:tell|help|explain|show|talk)(?: (?:me|us))?)\b"
        ),
    ),
    (
        DATA,
        re.compile(
            r"^\W*(?:(?:ok|okay|so|and|hi|hello)[,.!]*\s+)*(?:what(?:'?s| is| are) (?:the|my|our) "
            r"(?:data|files?|inputs?)|what (?:data|files?|inputs?) (?:do|did|will|can) (?:i|we) "
            r"(?:get|have|got|use|work with)|what (?:data|files?) (?:have|has) (?:you|i|we) "
            r"(?:got|given|sent|shared)(?: me| us)?|which (?:data|files?)(?: (?:do|did) (?:i|we) "
            r"(?:get|have))?|where (?:is|are) (?:the|my) (?:data|files?))\W*$"
        ),
    ),
    (
        GOAL,
        re.compile(
            r"\b(?:what'?s|what is|what are) (?:the |your )?(?:main |overall |big )?"
            r"(?:goal|aim|objective|point|purpose|priority|priorities)\b"
            r"|\bwhat are (?:we|you) trying to (?:do|achieve)\b"
            r"|\bwhat(?:'?s| is) (?:this|it|the (?:project|case|task|job|engagement|request)) "
            r"(?:all |really )?about\b|\bwhat(?:'?s| is) the (?:task|ask|job|brief)\b"
            r"|\bwhat (?:do|would) you (?:want|need) me to (?:do|build|make|work on)\b"
            # "what's the model for?", "what will you use the scores for?" (not a column's use)
            r"|\bwhat(?:'?s| is| are) (?:it|this|the (?:model|schedule|plan|forecast|list|scores?|"
            r"roster|timetable|output|deliverable|work|project|analysis|result))(?: really| even)?"
            r" for\W*$|\bwhat (?:will|would|do|does) (?:you|they|the (?:bank|team|business|site|"
            r"company)) (?:use|do with|need) (?:it|this|that|the (?:model|schedule|plan|forecast|"
            r"list|scores?|output|results?|file))(?: for)?\W*$"
            # "hi, um, I'm not sure where to start"
            r"|\b(?:not sure|no idea|don'?t know) (?:where|how) to (?:start|begin)\b"
            r"|\bwhere (?:do|should|shall) i (?:start|begin)\b"
            # "is the main aim to cut waste?" ("what should I optimise for?" is left to the
            # facts: it asks what the objective counts, often a rule)
            r"|^\W*(?:so |and |ok |okay )?is the (?:main |overall |real |big )?"
            r"(?:goal|aim|objective|priority|point) (?:here )?(?:to|just|about)\b"
        ),
    ),
)


def engagements(text: str) -> list[str]:
    """Every question about the engagement a message asks, in this module's order
    ("Could you confirm the expected deliverable and the deadline?" asks two)."""
    folded = text.lower().replace("\u2019", "'")
    found = [(m.start(), act) for act, pattern in _ENGAGEMENT if (m := pattern.search(folded))]
    if not any(act == GOAL for _, act in found) and is_goal_check(folded):
        found.append((0, GOAL))
    return [act for _, act in sorted(found)]


# "so the goal is just fewer mixed stacks, yeah?", "just to check I get the goal - ...",
# "Let me start with the goal: you want ..., correct?": the player puts the request's aim in
# their own words and asks whether they have it. That is a question about the engagement, not
# a rule's question, even when its words are a rule's subject ("the most money" is the profit
# rule's subject): the customer confirms the request, and a rule waits for its own question.
_GOAL_WORD = r"(?:goal|aim|objective|purpose|main thing|whole point|the point|the task|the brief)"
_GOAL_CHECK = re.compile(
    r"\b(?:(?:the|your|our|my|main|overall|real|big) (?:main |overall |real |big |whole )?"
    r"(?:goal|aim|objective|purpose|point|task|brief|idea|job) (?:here |then |really |basically "
    r")?(?:is|=|:|being)"
    r"|(?:check|confirm|make sure|be sure|sure about|understand|clear on|straight)\b"
    r"[^.?!]{0,40}\b"
    + _GOAL_WORD
    + r"|start with (?:the |your )?"
    + _GOAL_WORD
    + r"|"
    + _GOAL_WORD
    + r"\b[^.?!]{0,15}\bjust\b)"
)
_CONFIRMING = re.compile(
    r"(?:right|correct|yeah|yes|yep|ok|okay|true|is that (?:it|right|correct)|am i right|"
    r"i (?:take|assume) it|no|isn'?t it|aren'?t (?:we|you)|is it|that'?s it)\W*$"
    r"|^\W*(?:so|just to check|to check|just checking|ok so|okay so|let me)\b"
    r"|\bjust (?:the|a|to|fewer|more|less|lowest|highest|most|least|minimi[sz]e|maximi[sz]e)\b"
)
# A goal check that asks how the aim is counted is that rule's question after all.
_HOW_COUNTED = re.compile(
    r"\b(?:or|vs\.?|versus|rather than|instead of|which matters|what counts|count(?:s|ed)? as|"
    r"include|including|minus|subtract|net|gross|profits?|revenue|margins?|turnover|takings|"
    r"after (?:\w+ )?(?:costs?|tax|expenses)|how (?:do|will|would) you "
    r"(?:count|measure|score|compare|judge|weigh|rank)|trade-?off|more important|priority between)\b"
)


_GOAL_FILLER = frozenset(
    [
        "here",
        "then",
        "of",
        "this",
        "the",
        "it",
        "all",
        "for",
        "you",
        "your",
        "we",
        "our",
        "exactly",
        "actually",
        "really",
        "so",
        "ok",
        "okay",
        "and",
        "hi",
        "hey",
        "again",
        "project",
        "case",
        "task",
        "engagement",
        "work",
        "job",
        "exercise",
        "request",
        "whole",
        "overall",
        "main",
        "big",
        "basically",
        "in",
        "short",
        "one",
        "line",
        "sentence",
        "simple",
        "simply",
        "terms",
        "words",
        "plain",
    ]
)


def asks_goal(text: str) -> bool:
    """Does ``text`` ask for the aim ("what's the goal?", "what do you want me to do?") rather
    than put the player's own version of it up for a check?"""
    return bool(dict(_ENGAGEMENT)[GOAL].search(text.lower().replace("\u2019", "'")))


def is_goal_check(text: str) -> bool:
    """Does ``text`` put the request's aim in the player's words and ask if that is it, or ask
    for the aim and nothing else ("what's the goal here?")?"""
    folded = text.lower().replace("\u2019", "'")
    goal = dict(_ENGAGEMENT)[GOAL].search(folded)
    if goal is not None:
        rest = re.findall(r"[a-z']+", folded[: goal.start()] + " " + folded[goal.end() :])
        if all(word in _GOAL_FILLER for word in rest):
            return True
    return bool(
        _GOAL_CHECK.search(folded)
        and _CONFIRMING.search(folded)
        and not _HOW_COUNTED.search(folded)
    )


def engagement(text: str) -> str | None:
    """Which question about the engagement a message asks (deadline, deliverable, who to ask,
    the goal), or None. Used only when no fact answers the message: "what's the goal - lowest
    bill or lowest energy?" may be a scoring rule's question, and the fact finder decides first.
    """
    folded = text.lower().replace("\u2019", "'")
    for act, pattern in _ENGAGEMENT:
        if pattern.search(folded):
            return act
    return None


@dataclass(frozen=True)
class MessageActs:
    """What stage 1 decided about a message: the courtesy of each piece (None where a piece
    may ask or say something), and the act of the message as a whole."""

    courtesies: tuple[str | None, ...]
    meta: str | None
    sweep: bool

    @property
    def only_courtesy(self) -> bool:
        return bool(self.courtesies) and all(c is not None for c in self.courtesies)

    @property
    def first_courtesy(self) -> str | None:
        return next((c for c in self.courtesies if c is not None), None)

    @property
    def main_courtesy(self) -> str | None:
        """The courtesy a reader answers when a message holds several ("Acknowledged.
        Goodbye."): farewells and thanks over the "ok" beside them, as within one piece."""
        present = {c for c in self.courtesies if c is not None}
        return next((act for act in _PRECEDENCE if act in present), None)


def read(
    pieces: list[str], names: Iterable[str], chat: Callable[[str], str | None] | None = None
) -> MessageActs:
    """Stage 1 for a message cut into ``pieces`` (``customer_sim.segments``). ``chat`` names
    the act of a piece no courtesy phrase covers, when the case can tell it is chat
    (``customer_sim.chat``)."""
    names = tuple(names)
    kinds = tuple(courtesy(piece, names) or (chat(piece) if chat else None) for piece in pieces)
    rest = " ".join(p for p, k in zip(pieces, kinds, strict=True) if k is None)
    return MessageActs(
        courtesies=kinds,
        meta=meta_follow_up(_bare(rest, names)) if rest else None,
        sweep=bool(rest) and is_sweep(rest),
    )
