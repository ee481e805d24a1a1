"""Speaker labels in the transcript: each speaker once, never nested brackets (issue 28)."""

from __future__ import annotations

from fdeplatform.runs.speakers import Part, answer_parts, display_name, plain_label

BOTH = "Priya Shah (Café owner) & Tom Fletcher (PTA coordinator)"


def test_a_two_voice_answer_splits_into_one_part_per_speaker() -> None:
    text = (
        "Priya Shah (Café owner): 5 hours of oven time.\n\nOne tray at a time."
        "\n\nTom Fletcher (PTA coordinator): The school is nut-free."
    )
    assert answer_parts(BOTH, text) == [
        Part("Priya Shah (Café owner)", "5 hours of oven time.\n\nOne tray at a time."),
        Part("Tom Fletcher (PTA coordinator)", "The school is nut-free."),
    ]


def test_an_answer_not_labelled_as_the_engine_labels_it_stays_whole() -> None:
    assert answer_parts(BOTH, "We both agree: 5 hours.") == [Part(BOTH, "We both agree: 5 hours.")]
    one = "Priya Shah (Café owner)"
    assert answer_parts(one, "Tom Fletcher (PTA coordinator): hi") == [
        Part(one, "Tom Fletcher (PTA coordinator): hi")
    ]
    assert answer_parts("", "Hello.") == [Part("Customer", "Hello.")]


def test_a_role_with_brackets_of_its_own_does_not_nest_them() -> None:
    assert display_name("Tobias Reinholz", "Energy Buyer (Finance)") == (
        "Tobias Reinholz (Energy Buyer - Finance)"
    )
    # Rows recorded before the fix read the same way on the page.
    assert plain_label("Tobias Reinholz (Energy Buyer (Finance))") == (
        "Tobias Reinholz (Energy Buyer - Finance)"
    )
    assert display_name("Maren Vogt", "") == "Maren Vogt" and display_name("", "") == "Customer"
