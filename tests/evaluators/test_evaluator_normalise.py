"""normalise(): the papers' two score definitions, exactly."""

from __future__ import annotations

import pytest

from evaluators.runtime import normalise


def test_ratio_max_is_x_over_r() -> None:
    # FDE-Bench Table 4, case 06 (ion-beam uniformity): R = 0.64572, maximised.
    assert normalise(0.32286, normalisation="ratio", direction="max", reference=0.64572) == 0.5
    assert normalise(0.64572, normalisation="ratio", direction="max", reference=0.64572) == 1.0


def test_ratio_min_is_r_over_x() -> None:
    # FDE-Bench Table 4, case 02 (city delivery routing): R = 281497, minimised.
    assert normalise(562994, normalisation="ratio", direction="min", reference=281497) == 0.5
    assert normalise(281497, normalisation="ratio", direction="min", reference=281497) == 1.0


def test_ratio_can_exceed_one_when_the_reference_is_beaten() -> None:
    score = normalise(200_000, normalisation="ratio", direction="min", reference=281497)
    assert score == pytest.approx(1.407485)


def test_uplift_is_zero_for_the_baseline_and_one_for_the_reference() -> None:
    kwargs = {"normalisation": "uplift", "direction": "min", "reference": 10412.0}
    assert normalise(24810.0, baseline=24810.0, **kwargs) == 0.0
    assert normalise(10412.0, baseline=24810.0, **kwargs) == 1.0
    assert normalise(17611.0, baseline=24810.0, **kwargs) == pytest.approx(0.5)


def test_uplift_is_negative_when_worse_than_doing_nothing() -> None:
    assert normalise(
        30.0, normalisation="uplift", direction="max", reference=120.0, baseline=60.0
    ) == pytest.approx(-0.5)
    assert normalise(
        2093.0, normalisation="uplift", direction="min", reference=1378.0, baseline=2060.0
    ) == pytest.approx(-33 / 682)


def test_uplift_of_the_baseline_under_minimisation_is_positive_zero() -> None:
    score = normalise(5.0, normalisation="uplift", direction="min", reference=1.0, baseline=5.0)
    assert str(score) == "0.0"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"normalisation": "ratio", "direction": "max", "reference": 0.0}, "positive reference"),
        ({"normalisation": "ratio", "direction": "min", "reference": 5.0}, "needs x > 0"),
        (
            {"normalisation": "uplift", "direction": "max", "reference": 5.0, "baseline": 5.0},
            "baseline different",
        ),
        ({"normalisation": "uplift", "direction": "max", "reference": 5.0}, "baseline different"),
        ({"normalisation": "zscore", "direction": "max", "reference": 5.0}, "'ratio' or 'uplift'"),
        ({"normalisation": "ratio", "direction": "up", "reference": 5.0}, "'max' or 'min'"),
    ],
)
def test_it_refuses_scores_it_cannot_define(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        normalise(0.0, **kwargs)  # type: ignore[arg-type]
