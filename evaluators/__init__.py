"""Plain-Python scoring runtime and case-package tooling (never imports Django).

- ``evaluators.api``: the contract a case's ``hidden/evaluator.py`` is written against.
- ``evaluators.schema``: parse an upload against ``submission_schema.json``; ``format_check``.
- ``evaluators.runtime``: ``score_file`` (the one way a deliverable is scored), ``normalise``.
- ``evaluators.package``: ``load_package``, ``open_package``, ``package_digest``.
- ``evaluators.admission``: ``admit`` (anchor, materiality and answerability checks).
- ``python -m evaluators.check PATH...``: the same checks from a terminal.
"""
