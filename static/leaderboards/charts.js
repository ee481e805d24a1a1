// Draw every figure the server embedded as <script type="application/json" data-chart="ID">.
// The figures are built in Python (fdeplatform/leaderboards/charts.py); this only renders them
// with the locally served plotly.js, responsive to the card's width. On a phone-width card the
// heatmap's row labels are shortened (the full name stays in the hover label) so the cells keep
// room for their column labels, and the mode bar, which would cover the plot, is left out.
(function () {
  "use strict";
  var NARROW = 520;

  function shorten(label, room) {
    var parts = String(label).split(" · ");
    var name = parts[0];
    if (name.length > room) { name = name.slice(0, room - 1) + "…"; }
    return parts.length > 1 ? name + " · " + parts.slice(1).join(" · ") : name;
  }

  function forNarrow(figure) {
    var layout = Object.assign({}, figure.layout);
    layout.font = Object.assign({}, layout.font, { size: 11 });
    var data = figure.data.map(function (trace) {
      if (trace.type !== "heatmap" || !trace.y) { return trace; }
      // Numbered rows with tick texts: two names that shorten alike must stay two rows.
      var rows = trace.y.map(function (_, i) { return i; });
      layout.yaxis = Object.assign({}, layout.yaxis, {
        tickmode: "array", tickvals: rows, ticktext: trace.y.map(function (l) { return shorten(l, 10); }),
      });
      return Object.assign({}, trace, {
        y: rows,
        customdata: trace.y.map(function (label) { return (trace.x || []).map(function () { return label; }); }),
        hovertemplate: "%{customdata}<br>%{x}: %{z:.0%} covered<extra></extra>",
      });
    });
    return { data: data, layout: layout };
  }

  function draw() {
    if (!window.Plotly) { return; }
    document.querySelectorAll('script[type="application/json"][data-chart]').forEach(function (node) {
      var target = document.getElementById(node.dataset.chart);
      if (!target || !node.textContent.trim()) { return; }
      var figure = JSON.parse(node.textContent);
      var narrow = target.clientWidth < NARROW;
      if (narrow) { figure = forNarrow(figure); }
      window.Plotly.newPlot(target, figure.data, figure.layout, {
        responsive: true, displaylogo: false, displayModeBar: !narrow,
        modeBarButtonsToRemove: ["select2d", "lasso2d", "autoScale2d"],
      }).then(function () { target.dataset.ready = "true"; });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
})();
