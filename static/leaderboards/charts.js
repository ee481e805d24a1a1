// Draw every figure the server embedded as <script type="application/json" data-chart="ID">.
// The figures are built in Python (fdeplatform/leaderboards/charts.py); this only renders them
// with the locally served plotly.js, responsive to the card's width.
(function () {
  "use strict";
  function draw() {
    if (!window.Plotly) { return; }
    document.querySelectorAll('script[type="application/json"][data-chart]').forEach(function (node) {
      var target = document.getElementById(node.dataset.chart);
      if (!target || !node.textContent.trim()) { return; }
      var figure = JSON.parse(node.textContent);
      window.Plotly.newPlot(target, figure.data, figure.layout, {
        responsive: true, displaylogo: false,
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
