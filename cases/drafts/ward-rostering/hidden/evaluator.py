"""Hidden evaluator of ward-rostering: the agency bill of a four-week nurse roster under the
ward's real rules.

The roster lists the shifts the ward's own nurses work. Every registered-nurse place a shift
is short of data/demand.csv is filled from the agency at the framework rate of that shift
(data/agency_rates.csv); that bill, in GBP, is the value (lower is better). Own nurses above
the requirement cost nothing extra: they are salaried and the hours are owed anyway.

Hard rules (violations, keyed by the clarification target that holds them), with their
parameters from hidden/params.json through ward.py:

- leave_export: no shift on a day of leave the e-roster export shows as approved or
  requested (declined rows are not leave);
- secondment: the seconded nurse works no shift on the ward from the day the secondment starts;
- rest_between_shifts: at least the policy's rest between the end of one shift and the start
  of the next (clock times from data/shifts.csv);
- max_consecutive_nights: no run of nights longer than the policy allows;
- senior_on_shift: every shift has at least one of the ward's own band 6 or 7 nurses;
- contracted_hours: each nurse's paid hours (shift length net of the unpaid break) plus the
  hours credited for leave weekdays are within the tolerance of the hours owed for the period;
- weekend_fairness: nobody works more than the allowed number of the period's weekends (a
  Friday night counts as working that weekend).

The targets paid_hours and leave_credit have no rule of their own: getting them wrong shows
as contracted_hours.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from evaluators.api import Assessment, Submission, ViolationCollector
from ward import SHIFTS, load_params, load_ward


def _parse_rows(submission: Submission, ward) -> tuple[dict[tuple[str, date], tuple[str, int]], str | None]:
    """(nurse, day) -> (shift, row index), or a reason the roster cannot be read."""
    first, last = ward.days[0], ward.days[-1]
    known = set(ward.ids)
    roster: dict[tuple[str, date], tuple[str, int]] = {}
    outside, bad_dates, unknown = [], [], []
    for i, row in enumerate(submission.rows):
        nurse = str(row.get("nurse_id", "")).strip()
        shift = str(row.get("shift", "")).strip().upper()
        raw = str(row.get("date", "")).strip()
        try:
            day = date.fromisoformat(raw)
        except ValueError:
            bad_dates.append(f"line {submission.line_of(i)} ({raw!r})")
            continue
        if nurse not in known or shift not in SHIFTS:
            unknown.append(f"line {submission.line_of(i)}")
            continue
        if not first <= day <= last:
            outside.append(f"line {submission.line_of(i)} ({raw})")
            continue
        if (nurse, day) in roster:
            return {}, f"{nurse} has two shifts starting on {raw} (line {submission.line_of(i)})."
        roster[nurse, day] = (shift, i)
    problems = []
    if bad_dates:
        problems.append(f"{len(bad_dates)} rows have a date that is not a calendar date, e.g. {bad_dates[0]}")
    if unknown:
        problems.append(f"{len(unknown)} rows name an unknown nurse or shift, e.g. {unknown[0]}")
    if outside:
        problems.append(
            f"{len(outside)} rows fall outside the roster period {first:%a %d %b} to "
            f"{last:%a %d %b %Y}, e.g. {outside[0]}")
    return roster, ("; ".join(problems) + ".") if problems else None


def _ex(submission: Submission, row: int, nurse: str, day: date, shift: str, **extra: Any) -> dict[str, Any]:
    return {"line": submission.line_of(row), "nurse_id": nurse, "date": day.isoformat(),
            "shift": shift, **extra}


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    ward = load_ward(data_dir, load_params(hidden_dir))
    roster, problem = _parse_rows(submission, ward)
    if problem is not None:
        return Assessment(fatal=f"The roster cannot be read: {problem}")
    v = ViolationCollector()
    by_nurse = {n: {} for n in ward.ids}
    for (nurse, day), (shift, row) in roster.items():
        by_nurse[nurse][day] = (shift, row)
        if day in ward.blocked.get(nurse, set()):
            v.add("leave_export", "A nurse is rostered on a day of leave booked in the e-roster.",
                  _ex(submission, row, nurse, day, shift))
        elif nurse == ward.secondee and day >= ward.secondment_from:
            v.add("secondment", "A nurse is rostered on the ward after leaving it for a secondment.",
                  _ex(submission, row, nurse, day, shift))
    _check_sequences(submission, ward, by_nurse, v)
    _check_cover_and_hours(submission, ward, roster, by_nurse, v)
    if v:
        return Assessment(violations=v.violations())
    agency_shifts, bill, by_kind = 0, 0.0, {}
    for d in ward.days:
        for s in SHIFTS:
            own = sum(1 for n in ward.ids if by_nurse[n].get(d, ("",))[0] == s)
            short = max(0, ward.required[d, s] - own)
            agency_shifts += short
            bill += short * ward.rate[d, s]
            kind = ("weekend " if d.weekday() >= 5 else "weekday ") + s
            by_kind[kind] = by_kind.get(kind, 0) + short
    return Assessment(value=round(bill, 2), details={
        "agency_shifts": agency_shifts, "agency_cost_gbp": round(bill, 2),
        "agency_shifts_by_type": by_kind, "own_shifts": len(roster)})


def _check_sequences(submission, ward, by_nurse, v: ViolationCollector) -> None:
    pairs = {(a, b, g) for a, b, g in ward.forbidden_pairs()}
    weekends = ward.weekends()
    for nurse, days in by_nurse.items():
        run = 0
        for i, d in enumerate(ward.days):
            shift, row = days.get(d, (None, -1))
            for gap in (1, 2):
                if i + gap < len(ward.days):
                    nxt = days.get(ward.days[i + gap])
                    if shift and nxt and (shift, nxt[0], gap) in pairs:
                        v.add("rest_between_shifts",
                              "A nurse does not get the minimum rest between the end of one shift "
                              "and the start of the next.",
                              _ex(submission, nxt[1], nurse, ward.days[i + gap], nxt[0],
                                  after=f"{shift} on {d.isoformat()}",
                                  rest_hours=ward.rest_hours(shift, nxt[0], gap)))
            run = run + 1 if shift == "N" else 0
            if run == ward.max_nights + 1:
                v.add("max_consecutive_nights",
                      "A nurse works more nights in a row than the rostering policy allows.",
                      _ex(submission, row, nurse, d, shift, nights_in_a_row=run))
        worked = [w for w in weekends if any(days.get(d, ("",))[0] == s for d, s in w)]
        if len(worked) > ward.max_weekends:
            v.add("weekend_fairness", "A nurse works more of the period's weekends than is fair.",
                  {"nurse_id": nurse, "weekends_worked": len(worked),
                   "weekends": ", ".join(f"{w[0][0]:%d %b}" for w in worked)})


def _check_cover_and_hours(submission, ward, roster, by_nurse, v: ViolationCollector) -> None:
    seniors = ward.seniors()
    for d in ward.days:
        for s in SHIFTS:
            if not any(by_nurse[n].get(d, ("",))[0] == s for n in seniors):
                v.add("senior_on_shift",
                      "A shift has no band 6 or band 7 nurse of the ward to take charge.",
                      {"date": d.isoformat(), "shift": s})
    if ward.hours_tolerance is None:
        return
    for nurse in ward.nurses:
        n = nurse.nurse_id
        worked = sum(ward.paid_half_hours[s] for s, _ in by_nurse[n].values()) / 2
        credit = ward.credit_half_hours.get(n, 0) / 2
        owed = ward.contract_half_hours(nurse) / 2
        if abs(worked + credit - owed) > ward.hours_tolerance + 1e-9:
            v.add("contracted_hours",
                  "A nurse's rostered hours do not match the hours of their contract for the period.",
                  {"nurse_id": n, "paid_hours_rostered": worked, "leave_hours_credited": credit,
                   "contracted_hours_for_period": owed})
