"""The bundled cases' ask patterns on failure classes found by outside writers, pinned with
questions of our own (never the probe sets' wording): terse "X only?" asks, comparatives
("fewer moves or ..."), data-column shorthand ("col", "perf", "A vs M"), scenario verdicts
("is that a problem?"), and words that only look like a pattern's word ("responsible" is not
"respond", a capacity charge is not the battery's capacity)."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.scripted import ScriptedCustomer

CASES = Path(__file__).resolve().parents[2] / "cases"


def disclosed(slug: str, question: str) -> list[str]:
    customer = ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden")
    return customer.reply(question).disclosed


@pytest.mark.parametrize(
    ("slug", "question", "fact"),
    [
        ("warehouse-restack", "The drivers take the top one only, right?", "top_only"),
        ("warehouse-restack", "less moves or less mixed stacks - which wins?", "mixed_first"),
        (
            "warehouse-restack",
            "tier numbers: does a larger number sit lower down?",
            "tier_from_top",
        ),
        (
            "warehouse-restack",
            "Does a pallet's weight matter for the level it goes on?",
            "heavy_low_levels",
        ),
        ("warehouse-restack", "is the 800 kg limit incl. the wooden base?", "heavy_gross_weight"),
        (
            "battery-dispatch",
            "If I fill it to 100 % every afternoon, any issue with that?",
            "soc_warranty_window",
        ),
        (
            "battery-dispatch",
            "How much of the kW item on the bill is down to a single day's schedule?",
            "demand_charge_increment",
        ),
        (
            "warehouse-restack",
            "Does the WMS renumber the tiers after a pallet is lifted off a stack?",
            "tier_from_top",
        ),
        (
            "warehouse-restack",
            "Is net_weight on the same scale as the 800 kg rule, like for like?",
            "weight_in_pounds",
        ),
        (
            "warehouse-restack",
            "Is net_weight on the same scale as the 800 kg rule, like for like?",
            "heavy_gross_weight",
        ),
        (
            "warehouse-restack",
            "For the 800 kg limit, is it the goods or the whole pallet that counts?",
            "heavy_gross_weight",
        ),
        (
            "warehouse-restack",
            "Does the tier a pallet sits at decide whether a driver can pick it?",
            "top_only",
        ),
        (
            "battery-dispatch",
            "In the prise file, are the hours local or some other zone?",
            "prices_in_utc",
        ),
        (
            "battery-dispatch",
            "Any warranty terms my dispatch plan must comply with?",
            "soc_warranty_window",
        ),
        (
            "battery-dispatch",
            "How much energy can the unit realistically store and shift per day?",
            "soc_warranty_window",
        ),
        (
            "battery-dispatch",
            "Surplus battery output gets credited at spot, I take it?",
            "no_export",
        ),
        (
            "warehouse-restack",
            "May storage_class CHL pallets wait in an ambient lane for a move or two?",
            "temperature_zones",
        ),
        (
            "battery-dispatch",
            "What does a 570 kW quarter-hour tomorrow add on the demand side of the bill?",
            "demand_charge_increment",
        ),
        (
            "battery-dispatch",
            "How do I cost the peak import in a single-day schedule?",
            "demand_charge_increment",
        ),
        ("battery-dispatch", "Should I add P_grid >= 0 as a hard constraint?", "no_export"),
        ("battery-dispatch", "0.05 <= soc <= 1.0 - acceptable bounds?", "soc_warranty_window"),
        (
            "warehouse-restack",
            "A yoghurt pallet would go via lane A03 before it reaches C02 - acceptable?",
            "temperature_zones",
        ),
        (
            "warehouse-restack",
            "If a driver wants the bottom pallet of A13-07, how does that work?",
            "top_only",
        ),
        (
            "warehouse-restack",
            "Plan: three crisps pallets, then two water pallets on top. Any concerns?",
            "heavy_low_levels",
        ),
        (
            "battery-dispatch",
            "Are the price file's hours the same like the site's local time?",
            "prices_in_utc",
        ),
        (
            "battery-dispatch",
            "When PV already covers the load and I still discharge, where does that power end up?",
            "no_export",
        ),
        (
            "warehouse-restack",
            "um is it better to leave two stacks mixed if that saves many moves",
            "mixed_first",
        ),
        (
            "warehouse-restack",
            "P01234 is the bottom pallet in C04-02, under two others. "
            "Can my step 1 be P01234 from C04-02 to C01-05?",
            "top_only",
        ),
        (
            "warehouse-restack",
            "Is a 1,000 kg gross pallet fine fourth up from the floor?",
            "heavy_low_levels",
        ),
        (
            "warehouse-restack",
            "For the weight check, do I add the tare of the base?",
            "heavy_gross_weight",
        ),
        (
            "warehouse-restack",
            "Elsewhere every lot is treated as its own product. "
            "Is that your definition of a clean stack?",
            "batch_is_mixed",
        ),
        (
            "battery-dispatch",
            "Is the evening really the dearest time, or am I reading the hours wrong?",
            "prices_in_utc",
        ),
        (
            "battery-dispatch",
            "Is there another limit on discharging besides the SoC window?",
            "no_export",
        ),
        (
            "battery-dispatch",
            "and is there a battery floor, five percent or so?",
            "soc_warranty_window",
        ),
        ("credit-default", "Is the Gini the headline KPI?", "metric_auc_ks"),
        ("credit-default", "How would you score the models we hand in?", "metric_auc_ks"),
        (
            "battery-dispatch",
            "What SoC do you need once the 16th is over?",
            "end_soc_handover",
        ),
        ("warehouse-restack", "Which unit is the weight in, in the file - kg?", "weight_in_pounds"),
        (
            "credit-default",
            "Is there a reliability requirement on the PDs, like a forecast that verifies?",
            "calibration_rule",
        ),
        (
            "credit-default",
            "Which fields must I keep out of the model?",
            "collections_after_default",
        ),
        (
            "credit-default",
            "Do all rows in train.csv count as real applications?",
            "development_sample",
        ),
        (
            "credit-default",
            "Can I take raw predicted probabilities from the train-fitted model as is?",
            "development_sample",
        ),
        (
            "credit-default",
            "Did the onboarding systems change around January 2024?",
            "income_period",
        ),
        (
            "credit-default",
            "Income in test looks 12x bigger than train for some rows - what happened?",
            "income_period",
        ),
        (
            "credit-default",
            "Which products is the new scorecard meant for?",
            "secured_out_of_scope",
        ),
        ("credit-default", "how do you measure perf - is plain accuracy ok?", "metric_auc_ks"),
        ("credit-default", "label col?", "default_definition"),
        ("credit-default", "income_period A vs M?", "income_period"),
    ],
)
def test_an_outside_wording_of_a_rule_is_answered(slug: str, question: str, fact: str) -> None:
    assert fact in disclosed(slug, question)


@pytest.mark.parametrize(
    ("slug", "question"),
    [
        ("battery-dispatch", "Who is responsible for loading the schedule into the EMS?"),
        ("battery-dispatch", "Is the capacity charge billed per kW of the grid connection?"),
        ("credit-default", "Should product go in as dummies or target-encoded?"),
        ("credit-default", "income vs loan amount - which one predicts better?"),
    ],
)
def test_a_lookalike_word_does_not_answer_another_rule(slug: str, question: str) -> None:
    found = disclosed(slug, question)
    assert "power_rating" not in found
    assert "soc_warranty_window" not in found
    assert "secured_out_of_scope" not in found
    assert "income_period" not in found


def test_which_way_of_counting_mixed_is_a_definition_not_the_objective() -> None:
    found = disclosed(
        "warehouse-restack",
        "By SKU alone I count 40 mixed stacks, by SKU plus lot 44. Which count should I use?",
    )
    assert "batch_is_mixed" in found
    assert "mixed_first" not in found
    assert disclosed("warehouse-restack", "What should my objective be, fewest mixed stacks?") == [
        "mixed_first"
    ]


@pytest.mark.parametrize(
    ("slug", "question", "sibling"),
    [
        # grid import below zero is feeding in, not a negative spot price
        (
            "battery-dispatch",
            "When grid import drops below zero, do we get the spot price?",
            "negative_prices",
        ),
        # shifting energy with the battery is not the site's shift pattern
        (
            "battery-dispatch",
            "How many kWh can the battery shift from noon to evening?",
            "site_operations",
        ),
        # what the SoC must be on the next day's first stamp is the hand-over, not the start
        ("battery-dispatch", "Which SoC must the battery have at 2025-07-17 00:00?", "start_soc"),
        # leaving the SoC band is no export question
        ("battery-dispatch", "What happens if the battery goes out of range on SoC?", "no_export"),
    ],
)
def test_a_sibling_fact_is_not_answered_for_a_question_it_does_not_settle(
    slug: str, question: str, sibling: str
) -> None:
    assert sibling not in disclosed(slug, question)


def test_the_next_days_first_stamp_asks_for_the_hand_over_level() -> None:
    found = disclosed("battery-dispatch", "What SoC do you need at 2025-07-17 00:00?")
    assert "end_soc_handover" in found


@pytest.mark.parametrize(
    ("question", "fact", "sibling"),
    [
        # "consumer" lending is the model's scope, not who consumes its output
        (
            "Is the scorecard intended for all products of the consumer book?",
            "secured_out_of_scope",
            "committee_use",
        ),
        # "out of the picture" is scope wording, not the training sample's make-up
        (
            "Are mortgage applicants out of the picture entirely for this file?",
            "secured_out_of_scope",
            "development_sample",
        ),
    ],
)
def test_credit_scope_is_told_apart_from_its_neighbours(
    question: str, fact: str, sibling: str
) -> None:
    found = disclosed("credit-default", question)
    assert fact in found
    assert sibling not in found


def test_how_the_training_file_was_selected_with_a_correction_asks_the_sample_design() -> None:
    question = "Was the training data selected in some way that my PDs need to correct for?"
    assert "development_sample" in disclosed("credit-default", question)


def test_one_more_pallet_on_a_chiller_stack_asks_the_cold_height() -> None:
    question = "C02-04 is at three. Could one more chilled pallet go on top of it?"
    assert "cold_height_limit" in disclosed("warehouse-restack", question)


@pytest.mark.parametrize(
    ("slug", "question"),
    [
        # how to read a file's figures is no rule question
        (
            "battery-dispatch",
            "Import at 19:00 is 540 kW load less 120 kW PV. Am I reading the forecast file right?",
        ),
        # the level going into the day, or whether next day's prices are out, is no hand-over rule
        (
            "battery-dispatch",
            "Is it 50 % going into the 16th, or 61.8 % as the status export shows?",
        ),
        (
            "battery-dispatch",
            "Are prices for the 17th published already, so I can plan that day too?",
        ),
    ],
)
def test_a_data_or_value_question_reveals_no_rule(slug: str, question: str) -> None:
    assert not set(disclosed(slug, question)) & {"no_export", "end_soc_handover"}


@pytest.mark.parametrize(
    "question",
    [
        "How late does an account get before the finance system writes it off?",
        "After how many days in arrears is a loan passed to the collections department?",
        "The scoring file has no status column at all - normal?",
    ],
)
def test_another_teams_process_or_a_missing_column_is_no_default_definition(question: str) -> None:
    assert "default_definition" not in disclosed("credit-default", question)


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        # an ambient lane's own limit is a lookup in lanes.csv, not the chillers' rule
        ("How many tiers does lanes.csv allow in A07?", "cold_height_limit"),
        # counts and history of ambient stock in the chillers are no placement rule
        ("How many ambient pallets ended up in chiller lanes this week?", "temperature_zones"),
        ("Who put the crisps into the C lanes?", "temperature_zones"),
        # whether the export holds something, however long its description
        (
            "Are there any muesli pallets left standing in chiller lanes in today's export?",
            "temperature_zones",
        ),
        # lane positions numbered along the aisle are not tiers numbered up the stack
        ("Do lane position numbers start at the aisle end or at the wall?", "tier_from_top"),
        # a block stack is a way of stacking, not a pallet blocking another
        ("In a block stack, are the pallets shrink-wrapped together?", "top_only"),
        # the unit of the 800 is a unit question, not where heavy pallets may stand
        ("Heavy means over 800 - kg or pounds?", "heavy_low_levels"),
    ],
)
def test_a_warehouse_lookup_or_unit_question_reveals_no_rule(question: str, rule: str) -> None:
    assert rule not in disclosed("warehouse-restack", question)


def test_chillers_compared_with_ambient_lanes_still_ask_the_cold_limit() -> None:
    question = "Do the C lanes really get the same height limit as A05 in lanes.csv?"
    assert "cold_height_limit" in disclosed("warehouse-restack", question)


def test_the_site_is_not_sitting_idle() -> None:
    # "site" shares a stem with "sit", the idle-loss veto's word; it must not veto
    question = "Given the efficiency, how much energy comes off the site grid to fill 200 kWh?"
    assert "efficiency_round_trip" in disclosed("battery-dispatch", question)


def test_where_the_efficiency_figure_comes_from_is_provenance() -> None:
    question = "Where does the 90 % efficiency come from - a lab test or the catalogue?"
    assert "efficiency_round_trip" not in disclosed("battery-dispatch", question)


def test_only_kwh_against_a_spike_asks_about_the_demand_charge() -> None:
    question = "Does a short spike in grid draw cost us, or is it only kWh that matters?"
    assert "demand_charge_increment" in disclosed("battery-dispatch", question)


def test_using_the_battery_is_not_what_the_site_uses() -> None:
    question = "Should we use the battery only for the evening price peak?"
    assert "no_export" not in disclosed("battery-dispatch", question)
    question = "Can the battery put out more than the site uses at 19:00?"
    assert "no_export" in disclosed("battery-dispatch", question)


def test_the_clock_of_the_sites_own_files_is_not_the_price_file_rule() -> None:
    # "local time" is no "the times" and "stamped" no "stamps": the subject is the meter file
    question = "Are the EMS forecast rows stamped in local time or in UTC?"
    assert "prices_in_utc" not in disclosed("battery-dispatch", question)
    question = "Are the price file's timestamps UTC?"
    assert "prices_in_utc" in disclosed("battery-dispatch", question)


def test_which_pallet_type_heavy_goods_must_sit_on_is_no_tare_question() -> None:
    question = "Must the heavy water go on a specific pallet type, say plastic?"
    assert "heavy_gross_weight" not in disclosed("warehouse-restack", question)
    question = "How much does an empty CHEP pallet add to the weight?"
    assert "heavy_gross_weight" in disclosed("warehouse-restack", question)


@pytest.mark.parametrize(
    ("slug", "question", "absent"),
    [
        # how tiers are numbered is the tier rule's aspect: the top-only rule is not its answer
        ("warehouse-restack", "How are tiers numbered - is 1 the highest place?", "top_only"),
        ("warehouse-restack", "tiers: counted from which end, top or floor?", "top_only"),
        # the clock the price file runs on is the time-basis rule, whatever it is called
        ("battery-dispatch", "Do the price rows run on our site clock?", None),
    ],
)
def test_a_sibling_aspect_or_a_new_word_for_a_subject(
    slug: str, question: str, absent: str | None
) -> None:
    said = disclosed(slug, question)
    if absent is None:
        assert "prices_in_utc" in said
    else:
        assert absent not in said


@pytest.mark.parametrize(
    "question",
    [
        "Is it ok if I put a fourth chilled pallet in C02?",
        "chilled stack in C04 - fine to add a 4th?",
    ],
)
def test_a_fourth_pallet_in_a_chiller_is_the_height_rule_not_the_zones(question: str) -> None:
    assert disclosed("warehouse-restack", question) == ["cold_height_limit"]


@pytest.mark.parametrize(
    "question",
    [
        "how is the level of my predictions judged?",
        "on average my probabilities are 0.3 - does validation look at that?",
    ],
)
def test_the_level_of_the_pds_is_not_the_metric_rules_question(question: str) -> None:
    """Asked with the calibration rule unable to fire (a miss), the discrimination metric is
    not what answers a question about the PDs' level."""
    from customer_sim import probes

    customer = ScriptedCustomer.from_hidden_dir(CASES / "credit-default" / "hidden")
    missed = probes.unable_to_answer(customer, {"calibration_rule"})
    assert "metric_auc_ks" not in missed.reply(question).disclosed


def test_watching_for_weight_when_placing_a_pallet_asks_for_the_level_rule() -> None:
    # "watch for", "keep in mind", "think about": the same family as "consider" and "matter"
    question = "anything to watch for with weight when I choose a pallet's position?"
    assert disclosed("warehouse-restack", question) == ["heavy_low_levels"]


def test_a_lower_bound_on_grid_import_asks_for_the_export_rule() -> None:
    question = "Is there a lower limit on what we import from the grid in any quarter-hour?"
    assert disclosed("battery-dispatch", question) == ["no_export"]


def test_how_the_state_of_charge_updates_per_step_asks_for_the_efficiency() -> None:
    question = "how should the state of charge update each step when I charge at 300 kW?"
    assert disclosed("battery-dispatch", question) == ["efficiency_round_trip"]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Could the driver lift the pallet at tier 4 out of B02-03 without touching the others?",
            ["top_only"],
        ),
        ("Which SKU sits at tier 3 of A05-02?", []),
    ],
)
def test_taking_a_pallet_from_a_named_lower_tier_asks_for_the_top_only_rule(
    question: str, expected: list[str]
) -> None:
    assert disclosed("warehouse-restack", question) == expected


def test_net_or_gross_for_the_heavy_limit_is_not_the_level_rule() -> None:
    found = disclosed("warehouse-restack", "That heavy threshold - net or gross weight?")
    assert "heavy_gross_weight" in found
    assert "heavy_low_levels" not in found


def test_a_gross_weight_given_as_a_fact_does_not_ask_for_the_gross_rule() -> None:
    found = disclosed(
        "warehouse-restack", "Is a 1,000 kg gross pallet fine fourth up from the floor?"
    )
    assert "heavy_gross_weight" not in found


@pytest.mark.parametrize(
    ("slug", "question"),
    [
        ("battery-dispatch", "Any clock change inside the June-July load data?"),
        ("battery-dispatch", "Who at the company receives the electricity bill every month?"),
        ("warehouse-restack", "is it better to leave two stacks mixed if that saves lots of moves"),
    ],
)
def test_a_data_range_a_person_or_lots_of_is_no_rule_of_its_own(slug: str, question: str) -> None:
    found = disclosed(slug, question)
    assert "peak_so_far_july" not in found
    assert "batch_is_mixed" not in found


def test_an_addressed_side_fact_gives_way_to_a_colleagues_rule_it_explains_less_of() -> None:
    question = (
        "Maren, you told me 558 kW is our ceiling. Has someone compared that to the meter "
        "readings recorded so far this July?"
    )
    reply = ScriptedCustomer.from_hidden_dir(CASES / "battery-dispatch" / "hidden").reply(question)
    assert "forecast_is_basis" not in reply.disclosed
    assert "Tobias" in reply.text


def test_what_an_ask_sets_aside_at_its_end_is_not_asked() -> None:
    found = disclosed(
        "battery-dispatch", "Is there another limit on discharging besides the SoC window?"
    )
    assert "soc_warranty_window" not in found


def test_how_the_bank_ranks_applicants_today_is_not_the_models_metric() -> None:
    assert disclosed("credit-default", "How do you rank applicants for manual review today?") == []


def test_how_low_at_the_close_of_the_day_is_the_hand_over_not_the_window() -> None:
    found = disclosed("battery-dispatch", "How low may the battery be when the day ends?")
    assert "end_soc_handover" in found
    assert "soc_warranty_window" not in found


@pytest.mark.parametrize(
    ("question", "sibling"),
    [
        # a target at midnight is the hand-over, never the start-of-day status
        ("required SoC at midnight, any minimum?", "start_soc"),
        # getting energy back out is the efficiency's aspect, not the overnight reserve
        ("If I load 300 kWh tonight, how much comes back out tomorrow?", "end_soc_handover"),
        # flat out is full power, not an empty battery
        ("may it run flat out at 500 kW and push the rest onto the grid?", "soc_warranty_window"),
    ],
)
def test_a_sibling_does_not_answer_on_a_shared_word(question: str, sibling: str) -> None:
    assert sibling not in disclosed("battery-dispatch", question)


def test_a_move_between_two_ambient_stacks_is_no_temperature_question() -> None:
    # a lane id names its zone, but a move inside one zone asks nothing about zones
    assert "temperature_zones" not in disclosed(
        "warehouse-restack", "May I move P00777 from A04-02 to A09-15?"
    )
    assert "temperature_zones" in disclosed(
        "warehouse-restack", "May I move P00777 from C03-02 to A09-15?"
    )
    assert "temperature_zones" in disclosed(
        "warehouse-restack", "Can I put the dairy pallets in A09?"
    )


@pytest.mark.parametrize(
    "question",
    [
        "Which columns are in test.csv?",
        "Is income skewed in the train data?",
        "Which products does the bank sell?",
        "How reliable is the bureau_score data?",
        "Which application dates does train.csv cover?",
    ],
)
def test_credit_data_questions_name_no_rule(question: str) -> None:
    customer = ScriptedCustomer.from_hidden_dir(CASES / "credit-default" / "hidden")
    facts = {fact.key: fact for fact in customer.script.facts}
    assert not [k for k in customer.reply(question).disclosed if facts[k].target is not None]


@pytest.mark.parametrize(
    ("slug", "question"),
    [
        ("battery-dispatch", "How often does the EMS refresh and update the SoC value?"),
        ("battery-dispatch", "Does the 9.20 EUR/kW include VAT?"),
        ("warehouse-restack", "Is the lanes file current for the ambient lanes?"),
    ],
)
def test_a_frequency_a_tax_or_the_other_zone_names_no_rule(slug: str, question: str) -> None:
    customer = ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden")
    facts = {fact.key: fact for fact in customer.script.facts}
    assert not [k for k in customer.reply(question).disclosed if facts[k].target is not None]


@pytest.mark.parametrize(
    "message",
    [
        "Say my plan peaks at 540 kW on the 16th. How much demand charge do I pay for the day?",
        "Let's say tomorrow's highest import is 530 kW. What does the demand charge add?",
    ],
)
def test_a_question_after_a_supposition_asks_about_that_scenario(message: str) -> None:
    # "Say X. Q?" is read as "If X, Q?": the scenario's peak asks the July-peak rule too.
    facts = disclosed("battery-dispatch", message)
    assert {"peak_so_far_july", "demand_charge_increment"} <= set(facts)


@pytest.mark.parametrize(
    "message",
    [
        "Please confirm the unit of net_weight and which way the tier numbers run.",
        "Two quick checks on the pallet file: the unit of net_weight, and which way the tier "
        "numbers run.",
    ],
)
def test_asks_without_a_question_mark_are_each_asked(message: str) -> None:
    # An imperative ask or a lead-in naming its checks asks, full stop and all: each item is
    # matched on its own, not as one statement whose words veto each other's rule.
    assert disclosed("warehouse-restack", message) == ["weight_in_pounds", "tier_from_top"]
