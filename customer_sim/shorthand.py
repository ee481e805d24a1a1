"""Chat shorthand and common slips spelled out before a message is read.

People in a chat box type "can i dump excess to teh grid", "wen i put one down", "r u sure",
"thx". The pattern matcher forgives one typo in a content word of five letters or more, but the
small words around it ("teh", "wen", "u") are what tells a question from a statement and a
subject from its aspect, and a typo there is read as an unknown content word that blocks the
rule a plain question asks for. Only whole words that are never a case's own term are spelled
out (a one-letter "y" or "r" could be a column; they are left alone unless paired, "r u").
"""

from __future__ import annotations

import re

# Whole-word slips and chat forms, lower case. Each is unambiguous in an English chat.
_WORDS = {
    "teh": "the",
    "hte": "the",
    "th": "the",
    "wen": "when",
    "whn": "when",
    "waht": "what",
    "wat": "what",
    "wht": "what",
    "whta": "what",
    "hw": "how",
    "hwo": "how",
    "ur": "your",
    "pls": "please",
    "plz": "please",
    "plez": "please",
    "thx": "thanks",
    "thnx": "thanks",
    "thanx": "thanks",
    "tks": "thanks",
    "cud": "could",
    "shud": "should",
    "wud": "would",
    "abt": "about",
    "b4": "before",
    "bc": "because",
    "cuz": "because",
    "coz": "because",
    "gonna": "going to",
    "wanna": "want to",
    "gotta": "have to",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "cant": "can't",
    "wont": "won't",
    "isnt": "isn't",
    "arent": "aren't",
    "shouldnt": "shouldn't",
    "couldnt": "couldn't",
    "wouldnt": "wouldn't",
    "whats": "what's",
    "thats": "that's",
    "theres": "there's",
    "hows": "how's",
    "ive": "I've",
    "id": None,  # "id" is a column name far more often than "I'd": left alone
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tomorow": "tomorrow",
    "becuase": "because",
    "becasue": "because",
    "anythign": "anything",
    "somthing": "something",
    "shoudl": "should",
    "woudl": "would",
    "coudl": "could",
    "jsut": "just",
    "taht": "that",
    "adn": "and",
    "wiv": "with",
    "wif": "with",
}
_SPELLED = {word: full for word, full in _WORDS.items() if full is not None}
_WORD = re.compile(
    r"(?<![\w@'])(" + "|".join(sorted(_SPELLED, key=len, reverse=True)) + r")(?![\w'])",
    re.IGNORECASE,
)
# "u" is "you" and "r" is "are" only beside each other or a word that shows it ("can u",
# "u know", "r u sure", "what r the nights", "r there"): alone, either could be a column or an
# option letter.
_BEFORE_YOU = frozenset(
    [
        "can",
        "could",
        "do",
        "did",
        "would",
        "will",
        "are",
        "r",
        "have",
        "thank",
        "thanks",
        "if",
        "when",
        "should",
        "what",
        "how",
        "did",
    ]
)
_AFTER_YOU = frozenset(
    ["know", "mean", "need", "want", "think", "sure", "have", "guys", "ok", "okay", "said", "say"]
)
_WH = frozenset(["what", "where", "who", "how", "when", "why", "which"])
_THERE = frozenset(["there", "they", "we", "these", "those"])
_TOKEN = re.compile(r"[@\w']+|[^@\w']+")


def spelled_out(text: str) -> str:
    """``text`` with chat shorthand and common slips of small words spelled out."""
    text = _WORD.sub(lambda m: _SPELLED[m.group(1).lower()], text)
    tokens = _TOKEN.findall(text)
    words = [i for i, token in enumerate(tokens) if token[0].isalnum() or token[0] in "'_"]
    for n, i in enumerate(words):
        before = tokens[words[n - 1]].lower() if n else ""
        after = tokens[words[n + 1]].lower() if n + 1 < len(words) else ""
        low = tokens[i].lower()
        if low == "u" and (before in _BEFORE_YOU or after in _AFTER_YOU):
            tokens[i] = "you"
        elif low == "r" and (after in ("u", "you") or before in _WH or after in _THERE):
            tokens[i] = "are"
        elif low == "n" and before in _REACTIONS and after:
            tokens[i] = "and"  # "ok n any papers with set dates"
        elif low == "y" and len(words) <= 2 and (n == 0 and (after in ("", "tho", "though"))):
            tokens[i] = "why"  # "y?", "y tho"
    return "".join(tokens)


# Words after which a lone "n" is "and" ("ok n ..."); after anything else it may be a count.
_REACTIONS = frozenset(["ok", "okay", "k", "right", "yes", "yeah", "cool", "thanks", "great"])
