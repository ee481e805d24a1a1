// The run workspace: chat over the run websocket, uploads over the REST API, live status.
// The server is the source of truth: every `status` frame carries the whole run snapshot and the
// page is re-rendered from it, so a reconnect after a dropped socket shows exactly what the
// server recorded. Unanswered questions are re-sent with the same id; the server answers a
// repeated id with the exchange it already recorded, so nothing is lost or asked twice.
(function () {
  "use strict";
  const snapshotEl = document.getElementById("run-snapshot");
  if (!snapshotEl) return;
  let snapshot = JSON.parse(snapshotEl.textContent);
  const runId = snapshot.run.id;
  const pending = new Map(); // id -> question text, until answered
  let socket = null;
  let retry = 0;
  let deadline = Date.now() + snapshot.run.seconds_left * 1000;

  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const csrf = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  const newId = () => (window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());

  // The log is updated in place: existing messages stay, new ones are appended, so assistive
  // technology never hears the whole conversation again; announce() speaks one new message.
  function renderChat() {
    const log = $("chat-log");
    const wanted = [];
    for (const ex of snapshot.exchanges) {
      wanted.push(["q" + ex.turn, "q", "You · round " + ex.turn, ex.question]);
      wanted.push(["a" + ex.turn, "a", ex.stakeholder, ex.text]);
    }
    for (const [id, text] of pending) wanted.push(["p" + id, "q pending", "You · sending…", text]);
    if (!wanted.length) wanted.push(["empty", "empty", "", (snapshot.run.condition === "hidden" || snapshot.run.condition === "full" || snapshot.run.condition.startsWith("oracle_")) ? "No customer under this condition." : "No questions yet. The customer only tells you what you ask for."]);
    const keys = new Set(wanted.map((w) => w[0]));
    for (const node of Array.from(log.children)) if (!keys.has(node.dataset.key)) node.remove();
    let at = log.firstElementChild;
    for (const [key, kind, who, text] of wanted) {
      let node = at && at.dataset.key === key ? at : log.querySelector('[data-key="' + CSS.escape(key) + '"]');
      if (!node) node = bubble(key, kind, who, text);
      if (node !== at) log.insertBefore(node, at);
      at = node.nextElementSibling;
    }
    log.scrollTop = log.scrollHeight;
  }
  function announce(id, text) {
    // Cleared first so the same words (a repeated non-answer) are still announced.
    const region = $(id);
    region.textContent = "";
    setTimeout(() => { region.textContent = text; }, 50);
  }
  function bubble(key, kind, who, text) {
    if (kind === "empty") {
      const li = el("li", "chat-empty", text);
      li.dataset.key = key;
      return li;
    }
    const li = el("li", "msg-" + kind.split(" ").join(" msg-"));
    li.dataset.key = key;
    const parts = kind === "a" ? answerParts(who, text) : [[who, text]];
    for (const [speaker, said] of parts) li.append(el("span", "who", speaker), el("p", "", said));
    return li;
  }
  // One part per speaker when several answered: the text already carries each voice under its
  // label, so the header must not name the first speaker again (fdeplatform/runs/speakers.py).
  function answerParts(who, text) {
    const labels = String(who || "").split(" & ");
    if (labels.length < 2) return [[plainLabel(who || "Customer"), text]];
    const escaped = labels.map((label) => label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const starts = new RegExp("(?:^|\n\n)(" + escaped.join("|") + "): ", "g");
    const found = Array.from(text.matchAll(starts));
    if (!found.length || found[0].index !== 0) return [[plainLabel(who), text]];
    return found.map((m, i) => {
      const end = i + 1 < found.length ? found[i + 1].index : text.length;
      return [plainLabel(m[1]), text.slice(m.index + m[0].length, end).trim()];
    });
  }
  function plainLabel(label) {
    let previous;
    while (previous !== label) {
      previous = label;
      label = label.replace(/\s*\(([^()]*)\)(?=[^()]*\))/g, " - $1");
    }
    return label;
  }

  function renderBudget() {
    const run = snapshot.run;
    $("rounds").textContent = run.rounds_used + " / " + run.rounds_limit;
    const status = $("run-status");
    status.dataset.status = run.status;
    status.textContent = run.status.charAt(0).toUpperCase() + run.status.slice(1);
    const open = run.status === "open";
    for (const id of ["ask-text", "ask-send", "upload-file", "upload-send", "close-run"]) {
      const node = $(id);
      if (node) node.disabled = !open;
    }
    if (!open) $("close-run").textContent = run.status === "scoring" ? "Scoring…" : "Run closed";
    // The report exists once the run has ended (closed or expired, scored): show its link live.
    const link = $("report-link");
    const ended = run.status === "closed" || run.status === "expired";
    if (link && link.hidden && ended) {
      link.hidden = false;
      announce("time-announce", "The run has ended. Its report is ready.");
    }
  }

  // The upload that counts: the last one that passed the format check (runs.closing does the
  // same when the run ends, so a later malformed upload never replaces it).
  function countingNumber() {
    let number = null;
    for (const sub of snapshot.submissions) if (sub.format && sub.format.ok && (number === null || sub.number > number)) number = sub.number;
    return number;
  }
  function renderSubmissions() {
    const list = $("submissions");
    list.replaceChildren();
    if (!snapshot.submissions.length) list.append(el("li", "muted", "Nothing submitted yet."));
    const counting = countingNumber();
    for (const sub of snapshot.submissions.slice().reverse()) list.append(submissionItem(sub, sub.number === counting));
    const used = $("upload-used");
    if (used) used.textContent = String(snapshot.submissions.length);
    const score = snapshot.score;
    let line = score === null || score === undefined ? "" : "Run score: " + score.toFixed(4);
    const final = snapshot.submissions.find((s) => s.number === counting);
    if (line && final && final.result && final.result.raw_value !== null && final.result.raw_value !== undefined) {
      line += " · " + businessValue(final.result.raw_value);
    }
    $("final-score").textContent = line;
  }
  // Figures and verdicts follow fdeplatform/runs/wording.py (the pages' server-side twin).
  function figure(value) {
    const number = Number(value);
    const size = Math.abs(number);
    if (size < 0.0005) return "0";
    const decimals = Number.isInteger(number) || size >= 10000 ? 0 : size >= 1 ? 2 : 3;
    const options = { minimumFractionDigits: size >= 1 && decimals ? 2 : 0, maximumFractionDigits: decimals };
    return number.toLocaleString("en-GB", options);
  }
  function businessValue(value) {
    const unit = $("submissions").dataset.unit;
    return figure(value) + (unit ? " " + unit : "");
  }
  const INVALID = {
    constraint: "Invalid: breaks a rule",
    schema: "Invalid: the file does not match the deliverable's format",
    execution: "Invalid: could not be scored",
    fatal: "Invalid: could not be scored",
  };
  function verdict(result) {
    if (!result.valid) return INVALID[result.error_kind] || "Invalid";
    if (result.score_band) {
      // Practice shows a band, not the exact score: exact scores beside the business value
      // would give away the reference.
      const [low, high] = result.score_band.map(Number);
      return low >= 1 ? "At or above the reference" : low.toFixed(1) + "–" + high.toFixed(1) + " of the reference";
    }
    return "Score " + Number(result.score).toFixed(4);
  }
  function countsLabel() {
    const run = snapshot.run;
    if (run.status !== "open") return "Counts: the run was scored on this upload";
    return run.mode === "ranked" ? "Counts: scored when you close the run" : "Counts if you close the run now";
  }
  function submissionItem(sub, counts) {
    const li = el("li", "sub sub-" + sub.status + (counts ? " sub-counts" : ""));
    li.dataset.number = sub.number;
    const head = el("div", "sub-head");
    head.append(el("strong", "", "#" + sub.number + " " + sub.name), el("span", "badge status", sub.status_label));
    if (counts) head.append(el("span", "badge ok counts", countsLabel()));
    if (sub.queue_position) head.append(el("span", "muted", " position " + sub.queue_position + " in queue"));
    li.append(head);
    if (!sub.format.ok && sub.format.errors.length) {
      const ul = el("ul", "format-errors");
      for (const e of sub.format.errors) ul.append(el("li", "", e));
      li.append(ul);
    } else if (sub.format.ok) {
      li.append(el("p", "ok-line", "Format check passed."));
    }
    if (sub.result) li.append(resultBlock(sub.result));
    return li;
  }
  function resultBlock(result) {
    const box = el("div", "result");
    box.append(el("p", "score-line" + (result.valid ? "" : " invalid"), verdict(result)));
    if (result.raw_value !== null && result.raw_value !== undefined) {
      box.append(el("p", "business", "Result in business terms: " + businessValue(result.raw_value)));
    }
    // The evaluator's own figures (only after a ranked run ends; practice leaves them out).
    if (result.details && Object.keys(result.details).length) {
      const dl = el("dl", "figures");
      for (const [key, value] of Object.entries(result.details)) {
        dl.append(el("dt", "", key.split("_").join(" ")), el("dd", "", typeof value === "number" ? value.toLocaleString() : String(value)));
      }
      box.append(dl);
    }
    if (result.error_message) box.append(el("p", "muted", result.error_message));
    if (result.violations && result.violations.length) {
      const ul = el("ul", "violations");
      for (const v of result.violations) ul.append(el("li", "", v.message + " (" + v.count + "×)"));
      box.append(ul);
    }
    return box;
  }

  function render() {
    renderChat();
    renderBudget();
    renderSubmissions();
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(proto + location.host + "/ws/runs/" + runId + "/");
    setConn("connecting…");
    socket.onopen = () => {
      retry = 0;
      setConn("live");
      for (const [id, text] of pending) socket.send(JSON.stringify({ type: "ask", id: id, text: text }));
    };
    socket.onmessage = (event) => handle(JSON.parse(event.data));
    socket.onclose = () => {
      setConn("reconnecting…");
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 500 * 2 ** retry);
    };
  }
  function setConn(text) {
    const node = $("conn");
    node.textContent = text;
    node.dataset.state = text;
  }

  function handle(frame) {
    if (frame.type === "status") {
      snapshot = { run: frame.run, exchanges: frame.exchanges, submissions: frame.submissions, score: frame.score };
      deadline = Date.now() + frame.run.seconds_left * 1000;
      for (const ex of frame.exchanges) if (ex.client_id) pending.delete(ex.client_id);
      render();
    } else if (frame.type === "answer") {
      pending.delete(frame.id);
      if (!snapshot.exchanges.some((ex) => ex.turn === frame.turn)) {
        snapshot.exchanges.push(frame);
        announce("chat-announce", answerParts(frame.stakeholder, frame.text).map((p) => p[0] + ": " + p[1]).join("\n"));
      }
      $("typing").hidden = true;
      renderChat();
    } else if (frame.type === "typing") {
      $("typing").hidden = false;
    } else if (frame.type === "submission" || frame.type === "score") {
      if (frame.submission) upsertSubmission(frame.submission);
      if (frame.type === "score" && frame.run_score !== undefined) snapshot.score = frame.run_score;
      renderSubmissions();
    } else if (frame.type === "error") {
      $("typing").hidden = true;
      if (frame.id) pending.delete(frame.id);
      showError("ask-error", frame.message);
      renderChat();
    }
  }
  function upsertSubmission(sub) {
    const i = snapshot.submissions.findIndex((s) => s.number === sub.number);
    if (i >= 0) snapshot.submissions[i] = sub;
    else snapshot.submissions.push(sub);
  }
  function showError(id, message) {
    const node = $(id);
    if (!node) return;
    node.textContent = message;
    node.hidden = !message;
  }

  const askForm = $("ask-form");
  if (askForm) {
    askForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const box = $("ask-text");
      const text = box.value.trim();
      if (!text) return;
      const id = newId();
      pending.set(id, text);
      showError("ask-error", "");
      box.value = "";
      renderChat();
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ask", id: id, text: text }));
    });
    $("ask-text").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) askForm.requestSubmit();
    });
  }

  $("upload-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const file = $("upload-file").files[0];
    if (!file) return;
    const data = new FormData();
    data.append("file", file);
    const xhr = new XMLHttpRequest();
    const bar = $("upload-progress");
    bar.hidden = false;
    bar.value = 0;
    showError("upload-error", "");
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) bar.value = (100 * e.loaded) / e.total; };
    xhr.onload = () => {
      bar.hidden = true;
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch (err) { body = {}; }
      if (xhr.status >= 200 && xhr.status < 300) {
        upsertSubmission(body);
        renderSubmissions();
        $("upload-file").value = "";
      } else {
        showError("upload-error", (body.error && body.error.message) || "Upload failed (" + xhr.status + ").");
      }
    };
    xhr.onerror = () => { bar.hidden = true; showError("upload-error", "Upload failed: the connection dropped. Try again."); };
    xhr.open("POST", "/api/runs/" + runId + "/submissions/");
    xhr.setRequestHeader("X-CSRFToken", csrf());
    xhr.send(data);
  });

  $("close-run").addEventListener("click", async () => {
    const ranked = snapshot.run.mode === "ranked";
    const hasValid = snapshot.submissions.some((s) => s.format && s.format.ok);
    let msg = ranked ? "Close the run? Your last upload that passed the format check will be scored and you cannot ask or upload any more." : "Close the run? You cannot ask or upload any more.";
    if (ranked && !hasValid) {
      msg = "You have no upload that passed the format check. Closing now ends this ranked run with score 0, and it still counts on the board. Close anyway?";
    }
    if (!window.confirm(msg)) return;
    const response = await fetch("/api/runs/" + runId + "/close/", { method: "POST", headers: { "X-CSRFToken": csrf() } });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) showError("upload-error", (body.error && body.error.message) || "Could not close the run.");
    else if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "status" }));
  });

  // Minutes left at which the polite region speaks once (the clock itself is silent).
  const THRESHOLDS = [10, 5, 1];
  let lastLeft = null;
  function tick() {
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    const open = snapshot.run.status === "open";
    $("time-left").textContent = open ? (h ? h + "h " : "") + String(m).padStart(2, "0") + "m " + String(s).padStart(2, "0") + "s" : "—";
    if (open && lastLeft !== null) {
      for (const minutes of THRESHOLDS) {
        if (lastLeft > minutes * 60 && left <= minutes * 60) {
          announce("time-announce", minutes === 1 ? "One minute left in this run." : minutes + " minutes left in this run.");
        }
      }
    }
    lastLeft = open ? left : null;
  }
  render();
  tick();
  setInterval(tick, 1000);
  connect();
})();
