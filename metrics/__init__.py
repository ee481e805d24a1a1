"""The papers' scores and statistics as pure functions, free of Django.

Everything that turns recorded runs into a number a leaderboard or a report shows lives here,
so the site, the benchmark scripts and the tests all use one definition:

- ``metrics.clarification``: question units and the FDE-Bench clarification metrics (§4.2, A.3).
- ``metrics.delivery``: Quality, DSR, pass@k / pass^k (FDE-Bench §4.2, A.3) and the FDE-Gym
  score, its task mean and "resolved" (FDE-Gym §2.3).
- ``metrics.stats``: case-bootstrap intervals, paired differences, Wilcoxon signed-rank and
  Holm correction (FDE-Bench §5.1, A.4).
"""
