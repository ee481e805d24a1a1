"""The same question typed with other spacing gets the same reply, word for word."""

from __future__ import annotations

import pytest

from customer_sim.scripted import ScriptedCustomer

QUESTIONS = [
    "What time do the vans have to be back at the bakery?",
    "Can a van carry more than the crates say? And who decides the route order?",
    "How many vans do you have?",
    "what about the weather tomorrow",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_spacing_never_changes_a_reply(customer: ScriptedCustomer, question: str) -> None:
    plain = customer.reply(question)
    for typed in (
        f"  {question}  \n",
        question.replace(" ", "  "),
        question.replace(" ", " \t"),
        f"\n\n{question}\n\n",
    ):
        again = customer.reply(typed)
        assert (again.text, again.disclosed) == (plain.text, plain.disclosed), repr(typed)
