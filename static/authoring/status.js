// Live status on the authoring pages: poll a small JSON endpoint until the background job is
// done, then load the finished page (a version page after an upload, the report after a
// validation). No framework; stops polling when the tab is hidden for long or on error bursts.
(function () {
  const box = document.querySelector("[data-poll-url]");
  if (!box) return;
  const url = box.dataset.pollUrl;
  const label = box.querySelector("[data-poll-label]");
  let failures = 0;
  async function tick() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      failures = 0;
      if (label) label.textContent = data.validation || data.status || "";
      if (data.finished) {
        window.location.assign(data.version_url || window.location.href);
        return;
      }
    } catch (err) {
      failures += 1;
      if (failures > 20) { if (label) label.textContent = "lost contact; reload the page"; return; }
    }
    window.setTimeout(tick, 1000);
  }
  window.setTimeout(tick, 700);
})();
