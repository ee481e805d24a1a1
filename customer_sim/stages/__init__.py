"""The scripted customer's reply, one stage after another (``ScriptedCustomer.walk``).

Each stage is one module: it takes the previous stage's result, adds what it decides, and hands
its own result on; no stage calls back into an earlier one. In order:

1. ``dialogue``: the message's pieces, their addressees and dialogue acts (courtesies, sweeps,
   meta follow-ups), and who answers a message that asks no fact;
2. ``asks``: which pieces ask, and which may be matched for facts;
3. ``readings``: what each ask asks once read with the sentences around it, and the message
   read as a follow-up of the last exchange;
4. ``candidates``: the facts each ask stands for (a plain "is there a limit on X?" is that
   rule's question; an addressee's side fact never stands in for a colleague's rule) and what
   it touches near a miss;
5. ``decision`` (per ask: ``voices``): what kind of reply the message gets, who says what;
6. ``wording``: the reply as the player reads it, and the bookkeeping.

A new rule belongs to the stage that decides what it is about: a new way of greeting in
``customer_sim.acts`` (stage 1), a new reading in ``customer_sim.context`` (stage 3, shared
with the judge), a new reason to point on or ask back in ``voices``. Every stage sees the case
through ``case.Case``, built once per customer.
"""

STAGES = ("dialogue", "asks", "readings", "candidates", "decision", "wording")
