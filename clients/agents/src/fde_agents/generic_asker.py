"""The generic-asker agent: fixed generic questions, then a literal-compliance deliverable.

It asks what any consultant could ask without reading the case (goal, limits, units, time
zones, what counts as done) and does not use the answers: its deliverable is the request read
word for word (``literal``), built from the visible data. Next to the floor it shows what asking
without reading the case buys: the coverage of generic questions, and no better delivery.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from fde_agents.context import common_options, context, say
from fde_agents.literal import literal_deliverable

QUESTIONS = (
    "What is the goal of this work: what should the result achieve for you?",
    "Are there limits or rules the result must respect that the request does not mention?",
    "Which units are the figures in the data in?",
    "Which time zone or clock do the dates and times in the data use?",
    "What counts as done: what must the file contain for you to accept it?",
)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="fde_agents generic-asker", description=__doc__)
    common_options(parser)
    args = parser.parse_args(list(argv))
    agent = context(args)
    tools = agent.toolbox()
    if agent.run.get("condition") in ("interact_req", "interact") or str(
        agent.run.get("condition", "")
    ).startswith("gym_"):
        for question in QUESTIONS:
            answer = tools.call("ask_customer", {"text": question})
            if "error" in answer:
                say(f"generic-asker: stopped asking: {answer['error']}")
                break
            say(f"generic-asker asked: {question}\n  {answer['stakeholder']}: {answer['text']}")
    content, how = literal_deliverable(agent.workspace, agent.case)
    path = agent.write_deliverable(content)
    say(f"generic-asker: wrote {path.name}: {how}")
    if args.submit:
        say(f"generic-asker: submitted: {tools.submit(path.name)}")
    return 0
