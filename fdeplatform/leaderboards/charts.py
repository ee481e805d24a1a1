"""Plotly figures for the leaderboard pages, built in Python and embedded as JSON.

Building figures server-side keeps the numbers in one place (the same rows the table shows) and
the browser only draws them with the locally served plotly.js (see ``views.plotly_js``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio
from django.utils.safestring import SafeString, mark_safe

from fdeplatform.leaderboards.case_stats import BIN_WIDTH, DomainStat, HistogramBin
from fdeplatform.leaderboards.comparisons import ConditionRow
from fdeplatform.leaderboards.configs import AGENT
from fdeplatform.leaderboards.rows import Row

INK, MUTED, LINE = "#1b2430", "#5b6878", "#dde3ea"
COLOURS = {"agent": "#1f4e79", "human": "#c98a12", "humans": "#c98a12"}
#: Short enough for four columns on a phone; the figure caption spells them out.
DOMAIN_LABELS = {
    "scoring_convention": "Scoring",
    "constraint_rule": "Rules",
    "computation_convention": "Compute",
    "data_semantics": "Data",
}
#: FDE-Bench's order of the content domains (unknown domains follow, alphabetically).
DOMAIN_ORDER = list(DOMAIN_LABELS)
CONDITION_SHORT = {"interact_req": "I-Req", "interact": "Int.", "hidden": "Hidden", "full": "Full"}
#: Characters that must not appear raw inside a <script> element (as Django's json_script does).
_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


def figure_json(figure: go.Figure) -> SafeString:
    """The figure as JSON that is safe to put inside <script type="application/json">."""
    return mark_safe(str(pio.to_json(figure, validate=False)).translate(_SCRIPT_ESCAPES))


def _layout(figure: go.Figure, *, x: str, y: str, height: int = 380) -> go.Figure:
    figure.update_layout(
        height=height,
        margin={"l": 56, "r": 16, "t": 16, "b": 56},
        font={"family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "color": INK},
        paper_bgcolor="white",
        plot_bgcolor="white",
        legend={"orientation": "h", "y": -0.22},
        hoverlabel={"bgcolor": "white"},
    )
    figure.update_xaxes(title_text=x, gridcolor=LINE, zerolinecolor=LINE)
    figure.update_yaxes(title_text=y, gridcolor=LINE, zerolinecolor=MUTED)
    return figure


def recall_quality(rows: Sequence[Row]) -> go.Figure:
    """Recall vs Quality across configurations (FDE-Bench RQ2, Figure 4)."""
    figure = go.Figure()
    for kind in sorted({row.config.kind for row in rows}):
        chosen = [
            r for r in rows if r.config.kind == kind and r.clarification["recall"] is not None
        ]
        if not chosen:
            continue
        figure.add_trace(
            go.Scatter(
                x=[r.clarification["recall"] for r in chosen],
                y=[r.quality for r in chosen],
                error_y=_errors([r.quality for r in chosen], [r.quality_ci for r in chosen]),
                mode="markers",
                name="Agents" if kind == AGENT else "Humans",
                text=[f"{r.config.display} ({r.config.condition})" for r in chosen],
                hovertemplate="%{text}<br>Recall %{x:.3f}<br>Quality %{y:.3f}<extra></extra>",
                marker={
                    "size": 11,
                    "color": COLOURS[kind],
                    "symbol": ["circle-open" if r.provisional else "circle" for r in chosen],
                    "line": {"width": 2, "color": COLOURS[kind]},
                },
            )
        )
    with_ci = [r for r in rows if r.clarification["recall"] is not None]
    figure.update_xaxes(range=list(SHARE_RANGE))
    figure.update_yaxes(range=quality_range([r.quality for r in with_ci] + _tops(with_ci)))
    return _layout(figure, x="Recall (targets covered)", y="Quality")


#: A share's axis (Recall, Ask-F1): 0 to 1 with room for a marker at either end.
SHARE_RANGE = (-0.03, 1.03)


def quality_range(values: Sequence[float | None]) -> list[float]:
    """Quality's axis: 0 to 1 (the reference) at least, further only for a plan that beats the
    reference; left to plotly, one point at 1.0 gave an axis from 0 to 2."""
    top = max([1.0, *(v for v in values if v is not None)])
    return [SHARE_RANGE[0], top + 0.03]


def _tops(rows: Sequence[Row]) -> list[float]:
    """The upper ends of the rows' Quality intervals (their error bars must fit too)."""
    return [r.quality_ci[1] for r in rows if r.quality_ci]


def clarification_quality(rows: Sequence[Row]) -> go.Figure:
    """Recall and Ask-F1 against Quality, one point per configuration (FDE-Bench RQ2)."""
    figure = go.Figure()
    for metric, name, symbol, colour in (
        ("recall", "Recall", "circle", COLOURS["agent"]),
        ("ask_f1", "Ask-F1", "diamond", COLOURS["human"]),
    ):
        chosen = [r for r in rows if r.clarification[metric] is not None]
        figure.add_trace(
            go.Scatter(
                x=[r.clarification[metric] for r in chosen],
                y=[r.quality for r in chosen],
                mode="markers",
                name=name,
                text=[f"{r.config.display} ({r.config.condition})" for r in chosen],
                hovertemplate=f"%{{text}}<br>{name} %{{x:.3f}}<br>Quality %{{y:.3f}}<extra></extra>",
                marker={"size": 10, "color": colour, "symbol": symbol},
            )
        )
    figure.update_xaxes(range=list(SHARE_RANGE))
    figure.update_yaxes(range=quality_range([r.quality for r in rows]))
    return _layout(figure, x="Recall / Ask-F1", y="Quality", height=340)


def _errors(
    values: Sequence[float], intervals: Sequence[tuple[float, float] | None]
) -> dict[str, Any]:
    """Asymmetric error bars from intervals (zero length where there is none)."""
    return {
        "type": "data",
        "symmetric": False,
        "array": [ci[1] - v if ci else 0 for v, ci in zip(values, intervals, strict=True)],
        "arrayminus": [v - ci[0] if ci else 0 for v, ci in zip(values, intervals, strict=True)],
        "color": MUTED,
        "thickness": 1,
    }


def condition_deltas(table: Sequence[ConditionRow]) -> go.Figure:
    """Δreq and Δremain per participant with paired bootstrap intervals (Table 2 style)."""
    figure = go.Figure()
    for name, attr, colour in (
        ("Δreq = Interact-Req − Hidden", "req", "#1f4e79"),
        ("Δremain = Full − Interact-Req", "remain", "#c98a12"),
    ):
        shown = [(row, getattr(row, attr)) for row in table if getattr(row, attr) is not None]
        shown = [(row, c) for row, c in shown if c.difference is not None]
        if not shown:
            continue
        means = [c.difference.mean for _, c in shown]
        figure.add_trace(
            go.Bar(
                x=[row.display for row, _ in shown],
                y=means,
                name=name,
                marker_color=colour,
                error_y=_errors(means, [(c.difference.low, c.difference.high) for _, c in shown]),
                hovertemplate="%{x}<br>%{y:+.3f}<extra></extra>",
            )
        )
    # A fixed share of the slot, so one participant does not become one page-wide bar.
    figure.update_layout(barmode="group", bargap=0.45 if len(table) > 2 else 0.7)
    return _layout(figure, x="", y="Quality difference (paired by case)", height=340)


def domain_heatmap(stats: Sequence[DomainStat], rows: Sequence[Row]) -> go.Figure:
    """Share of targets covered per content domain, one line per configuration on the board."""
    order = [row.config for row in rows]
    present = {s.domain for s in stats if s.config in order}
    domains = [d for d in DOMAIN_ORDER if d in present] + sorted(present - set(DOMAIN_ORDER))
    rate = {(s.config, s.domain): s for s in stats}
    shown = [config for config in order if any((config, d) in rate for d in domains)]
    z = [[_rate(rate.get((config, d))) for d in domains] for config in shown]
    figure = go.Figure(
        go.Heatmap(
            z=z,
            x=[DOMAIN_LABELS.get(d, d) for d in domains],
            y=[
                f"{c.display[:18]} · {CONDITION_SHORT.get(c.condition, c.condition)}" for c in shown
            ],
            zmin=0,
            zmax=1,
            colorscale=[[0, "#f6f8fa"], [1, "#1f4e79"]],
            texttemplate="%{z:.0%}",
            hovertemplate="%{y}<br>%{x}: %{z:.0%} covered<extra></extra>",
            showscale=False,
        )
    )
    figure.update_yaxes(autorange="reversed", automargin=True)
    figure.update_xaxes(tickangle=0)
    figure = _layout(figure, x="", y="", height=max(240, 110 + 30 * len(shown)))
    figure.update_layout(margin={"l": 8, "r": 8, "t": 8, "b": 48})
    return figure


def _rate(stat: DomainStat | None) -> float | None:
    return stat.rate if stat is not None else None


def score_distribution(bins: Sequence[HistogramBin]) -> go.Figure:
    """Runs per score bin, agents and humans stacked (score 1.0 = the accepted reference)."""
    figure = go.Figure()
    for kind, name in (("agent", "Agents"), ("human", "Humans")):
        chosen = [b for b in bins if b.kind == kind]
        if chosen:
            figure.add_trace(
                go.Bar(
                    x=[b.low + BIN_WIDTH / 2 for b in chosen],
                    y=[b.runs for b in chosen],
                    width=BIN_WIDTH * 0.95,
                    name=name,
                    marker_color=COLOURS[kind],
                    customdata=[[b.low, b.low + BIN_WIDTH] for b in chosen],
                    hovertemplate="%{customdata[0]:.1f} ≤ s < %{customdata[1]:.1f}: "
                    "%{y} runs<extra></extra>",
                )
            )
    figure.update_layout(barmode="stack", bargap=0)
    figure.update_yaxes(rangemode="tozero", tickformat="d")
    # Always show 0 (do-nothing) to just past 1 (the reference), wider if a run lies outside.
    low = min([0.0, *(b.low for b in bins)])
    high = max([1.0, *(b.low for b in bins)]) + BIN_WIDTH
    figure.update_xaxes(range=[low - 0.02, high + 0.02], dtick=0.2 if high - low <= 1.6 else 0.5)
    figure.add_vline(x=1.0, line_dash="dot", line_color=MUTED)
    return _layout(figure, x="Delivery score s (dotted: the reference)", y="Runs", height=320)


@dataclass(frozen=True)
class ProgressPoint:
    """One ended run on a player's progress chart: its series (the case), when it ended
    ("YYYY-MM-DD HH:MM", UTC), its score and what its hover label says."""

    series: str
    at: str
    score: float
    label: str


def score_progress(points: Sequence[ProgressPoint]) -> go.Figure:
    """A player's scores over time, one line per case (oldest first; 1.0 = the reference)."""
    figure = go.Figure()
    series = sorted({p.series for p in points})
    palette = ["#1f4e79", "#c98a12", "#5b2a86", "#1d7a46", "#b3261e", "#2f6fa8"]
    for index, name in enumerate(series):
        chosen = [p for p in points if p.series == name]
        figure.add_trace(
            go.Scatter(
                x=[p.at for p in chosen],
                y=[p.score for p in chosen],
                text=[p.label for p in chosen],
                name=name,
                mode="lines+markers",
                line={"color": palette[index % len(palette)], "width": 2},
                marker={"size": 8},
                hovertemplate="%{text}<br>%{x}<br>score %{y:.3f}<extra></extra>",
            )
        )
    figure.add_hline(y=1.0, line_dash="dot", line_color=MUTED)
    figure.update_yaxes(rangemode="tozero")
    figure.update_xaxes(type="date", range=_date_range([p.at for p in points]))
    return _layout(figure, x="Run ended (UTC)", y="Score (dotted: the reference)", height=320)


def _date_range(stamps: Sequence[str]) -> list[str] | None:
    """At least a day either side of the runs: one run alone would get a range of a second."""
    if not stamps:
        return None
    parsed = [datetime.strptime(s, "%Y-%m-%d %H:%M") for s in stamps]
    low, high = min(parsed), max(parsed)
    pad = max(timedelta(days=1), (high - low) / 20)
    return [(low - pad).strftime("%Y-%m-%d %H:%M"), (high + pad).strftime("%Y-%m-%d %H:%M")]


def domain_shares(shares: Sequence[tuple[str, int, int]]) -> go.Figure:
    """Share of targets covered per content domain, from (domain, covered, judged)."""
    known = {name for name, _, _ in shares}
    order = [d for d in DOMAIN_ORDER if d in known] + sorted(known - set(DOMAIN_ORDER))
    by_name = {name: (covered, judged) for name, covered, judged in shares}
    figure = go.Figure(
        go.Bar(
            x=[DOMAIN_LABELS.get(d, d) for d in order],
            y=[by_name[d][0] / by_name[d][1] if by_name[d][1] else 0.0 for d in order],
            hovertext=[f"{by_name[d][0]} of {by_name[d][1]} targets" for d in order],
            name="Share covered",
            marker={"color": COLOURS["agent"]},
            hovertemplate="%{x}: %{y:.0%} (%{hovertext})<extra></extra>",
        )
    )
    figure.update_yaxes(range=[0, 1], tickformat=".0%")
    return _layout(figure, x="Content domain", y="Share of targets covered", height=300)


@dataclass(frozen=True)
class ChartTable:
    """A chart's numbers as a table: its text alternative for screen readers and no-JS pages."""

    headers: list[str]
    rows: list[list[str]]


def figure_table(figure: dict[str, Any]) -> ChartTable:
    """The table behind a figure (as embedded JSON): a heatmap's grid, one row per scatter point,
    one row per bar category with a column per series."""
    traces = figure.get("data") or []
    layout = figure.get("layout") or {}
    if any(t.get("type") == "heatmap" for t in traces):
        return _heatmap_table(next(t for t in traces if t.get("type") == "heatmap"))
    if any(t.get("type") == "bar" for t in traces):
        return _bar_table([t for t in traces if t.get("type") == "bar"], layout)
    return _scatter_table(traces, layout)


def _axis_title(layout: dict[str, Any], axis: str, default: str) -> str:
    title = (layout.get(axis) or {}).get("title") or {}
    text = title.get("text") if isinstance(title, dict) else title
    return str(text) if text else default


def _number(value: Any, *, percent: bool = False) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value  # a date on a time axis
    if percent:
        return f"{100 * float(value):.0f}%"
    if float(value).is_integer() and abs(float(value)) >= 1:
        return f"{int(value)}"
    return f"{float(value):.3f}"


def _heatmap_table(trace: dict[str, Any]) -> ChartTable:
    columns = [str(x) for x in trace.get("x") or []]
    rows = [
        [str(label), *(_number(v, percent=True) for v in values)]
        for label, values in zip(trace.get("y") or [], trace.get("z") or [], strict=False)
    ]
    return ChartTable(headers=["", *columns], rows=rows)


def _bar_table(traces: list[dict[str, Any]], layout: dict[str, Any]) -> ChartTable:
    labels: dict[str, dict[str, Any]] = {}
    for trace in traces:
        custom = trace.get("customdata") or []
        for i, (x, y) in enumerate(zip(trace.get("x") or [], trace.get("y") or [], strict=False)):
            bounds = custom[i] if i < len(custom) else None
            label = f"{bounds[0]:.1f} to {bounds[1]:.1f}" if bounds else str(x)
            labels.setdefault(label, {})[str(trace.get("name") or "")] = y
    names = [str(t.get("name") or "") for t in traces]
    return ChartTable(
        headers=[_axis_title(layout, "xaxis", "Category") or "Category", *names],
        rows=[[label, *(_number(v.get(n)) for n in names)] for label, v in labels.items()],
    )


def _scatter_table(traces: list[dict[str, Any]], layout: dict[str, Any]) -> ChartTable:
    rows = []
    for trace in traces:
        texts = trace.get("text") or []
        for i, (x, y) in enumerate(zip(trace.get("x") or [], trace.get("y") or [], strict=False)):
            label = texts[i] if isinstance(texts, list) and i < len(texts) else ""
            rows.append([str(label), str(trace.get("name") or ""), _number(x), _number(y)])
    return ChartTable(
        headers=[
            "Point",
            "Series",
            _axis_title(layout, "xaxis", "x"),
            _axis_title(layout, "yaxis", "y"),
        ],
        rows=rows,
    )
