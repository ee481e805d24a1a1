"""FDE-Gym by instruction level: mean gym score per level and L0 − L3 on shared cases."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.leaderboards.tests.factories import make_case, make_run


def test_the_conditions_page_reports_scores_by_level(client: Client, bob: User) -> None:
    alpha, beta = make_case("alpha"), make_case("beta")
    # bot-a: L0 on both cases (0.9, 0.7), L3 on alpha only (0.5), L1 on beta (0.6).
    for case, condition, score in [
        (alpha, "gym_l0", 0.9),
        (beta, "gym_l0", 0.7),
        (alpha, "interact_req", 0.5),
        (beta, "gym_l1", 0.6),
    ]:
        make_run(case=case, player=bob, score=score, valid=True, agent="bot-a", condition=condition)
    # A participant who never played a level is not in the table.
    make_run(case=alpha, player=bob, score=0.4, valid=True, agent="bot-b")
    html = client.get("/leaderboard/conditions/").content.decode()
    table = html[html.index('id="levels"') :]
    table = table[: table.index("</table>")]
    assert "bot-a" in table and "bot-b" not in table
    assert "0.800" in table and "2 cases" in table  # L0 mean over alpha and beta
    assert "0.600" in table and "0.500" in table  # L1 on beta, L3 on alpha
    assert "+0.400" in table and "1 case" in table  # L0 − L3 on alpha only
