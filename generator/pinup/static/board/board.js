/* pinup review board: feedback controls, drafts, submit, regenerate progress.
 * Vanilla JS, inlined into the page; no network other than the feedback API.
 * Every piece of user text goes through textContent or .value, never innerHTML. */
(function () {
  "use strict";

  var cfgEl = document.getElementById("board-config");
  var cfg = JSON.parse(cfgEl.textContent);
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var params = new URLSearchParams(location.search);

  var DRAFT_KEY = "pinup:draft:" + cfg.board + ":" + cfg.round;
  var DONE_KEY = "pinup:done:" + cfg.board + ":" + cfg.round;
  var NAME_KEY = "pinup:reviewer";
  var timeoutMs = Number(params.get("progressTimeout") || document.body.getAttribute("data-progress-timeout") || cfg.progressTimeoutMs || 300000);
  var pollMs = Number(params.get("pollInterval") || cfg.pollIntervalMs || 2000);

  var state = { ratings: {}, action: null, clientId: null, sending: false, locked: false };

  /* ---------- storage (may be unavailable, e.g. file:// in some browsers) ---------- */
  function store(kind) {
    try { var s = window[kind]; s.setItem("pinup:probe", "1"); s.removeItem("pinup:probe"); return s; }
    catch (e) { return null; }
  }
  var local = store("localStorage");
  var session = store("sessionStorage");
  function getJSON(s, key) { try { return s ? JSON.parse(s.getItem(key) || "null") : null; } catch (e) { return null; } }
  function setJSON(s, key, value) { try { if (s) { s.setItem(key, JSON.stringify(value)); } } catch (e) { /* full */ } }

  function uuid4() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /* ---------- layout: grid/large, device frames, full screen ---------- */
  var variantsEl = $("#variants");
  var HEIGHTS = { phone: 812, tablet: 1024, desktop: 900 };
  function fitFrames() {
    $$(".frame-wrap").forEach(function (wrap) {
      var frame = $("iframe", wrap);
      if (!frame) { return; }
      var width = Number(wrap.getAttribute("data-width")) || 1440;
      var avail = wrap.clientWidth || width;
      var scale = Math.min(1, avail / width);
      var zoomed = !!wrap.closest(".is-zoomed");
      var natural = HEIGHTS[wrap.getAttribute("data-device")] || 900;
      if (!zoomed) { wrap.style.height = Math.round(Math.max(320, Math.min(720, natural * scale))) + "px"; }
      else { wrap.style.height = ""; }
      var height = wrap.clientHeight || 480;
      frame.style.width = width + "px";
      frame.style.height = Math.ceil(height / scale) + "px";
      frame.style.transform = "scale(" + scale + ")";
    });
  }
  $$(".view-btn").forEach(function (btn) {
    btn.addEventListener("click", function () {
      variantsEl.setAttribute("data-view", btn.getAttribute("data-view"));
      $$(".view-btn").forEach(function (b) { b.setAttribute("aria-pressed", String(b === btn)); });
      fitFrames();
    });
  });
  var WIDTHS = { phone: 375, tablet: 768, desktop: 1440 };
  $$(".device-btn").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var id = btn.getAttribute("data-variant");
      var device = btn.getAttribute("data-device");
      var wrap = $('.frame-wrap[data-variant="' + id + '"]');
      wrap.setAttribute("data-device", device);
      wrap.setAttribute("data-width", String(WIDTHS[device]));
      var frame = $("iframe", wrap);
      if (frame) { frame.setAttribute("width", String(WIDTHS[device])); }
      $$('.device-btn[data-variant="' + id + '"]').forEach(function (b) { b.setAttribute("aria-pressed", String(b === btn)); });
      fitFrames();
    });
  });
  var backdrop = $("#zoom-backdrop");
  function unzoom() {
    $$(".variant.is-zoomed").forEach(function (v) {
      v.classList.remove("is-zoomed");
      var b = $(".zoom-btn", v); b.setAttribute("aria-pressed", "false"); b.textContent = "Full screen";
    });
    backdrop.hidden = true;
    fitFrames();
  }
  $$(".zoom-btn").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var card = btn.closest(".variant");
      var on = !card.classList.contains("is-zoomed");
      unzoom();
      if (on) {
        card.classList.add("is-zoomed");
        btn.setAttribute("aria-pressed", "true");
        btn.textContent = "Exit full screen";
        backdrop.hidden = false;
        btn.focus();
      }
      fitFrames();
    });
  });
  backdrop.addEventListener("click", unzoom);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") { unzoom(); } });
  window.addEventListener("resize", fitFrames);
  fitFrames();

  /* ---------- stars ---------- */
  function setRating(id, value) {
    if (value) { state.ratings[id] = value; } else { delete state.ratings[id]; }
    $$('.stars[data-variant="' + id + '"] .star').forEach(function (s) {
      s.setAttribute("aria-pressed", String(Number(s.getAttribute("data-value")) <= (value || 0)));
    });
    var label = $('.stars-value[data-variant="' + id + '"]');
    if (label) { label.textContent = value ? value + " of 5" : "not rated"; }
  }
  $$(".star").forEach(function (star) {
    star.addEventListener("click", function () {
      var id = star.getAttribute("data-variant");
      var value = Number(star.getAttribute("data-value"));
      setRating(id, state.ratings[id] === value ? 0 : value); /* same star again clears */
      saveDraft();
    });
    star.addEventListener("keydown", function (e) {
      var id = star.getAttribute("data-variant");
      var cur = state.ratings[id] || 0;
      var next = null;
      if (e.key === "ArrowRight" || e.key === "ArrowUp") { next = Math.min(5, cur + 1); }
      else if (e.key === "ArrowLeft" || e.key === "ArrowDown") { next = Math.max(0, cur - 1); }
      else if (e.key === "Delete" || e.key === "Backspace" || e.key === "0") { next = 0; }
      else if (/^[1-5]$/.test(e.key)) { next = Number(e.key); }
      if (next === null) { return; }
      e.preventDefault();
      setRating(id, next);
      var target = $('.stars[data-variant="' + id + '"] .star[data-value="' + Math.max(1, next) + '"]');
      if (target) { target.focus(); }
      saveDraft();
    });
  });
  $$(".star-clear").forEach(function (btn) {
    btn.addEventListener("click", function () { setRating(btn.getAttribute("data-variant"), 0); saveDraft(); });
  });

  /* ---------- regenerate choice ---------- */
  var customEl = $("#regen-custom");
  function setAction(action) {
    state.action = action;
    $$(".regen-chiclet").forEach(function (c) { c.setAttribute("aria-pressed", String(c.getAttribute("data-action") === action)); });
    $("#regen-error").hidden = true;
  }
  $$(".regen-chiclet").forEach(function (chip) {
    chip.addEventListener("click", function () {
      var action = chip.getAttribute("data-action");
      setAction(state.action === action ? null : action);
      saveDraft();
    });
  });
  $$(".remix-select").forEach(function (sel) {
    sel.addEventListener("change", function () { setAction("remix"); saveDraft(); });
  });
  customEl.addEventListener("input", function () {
    setAction(customEl.value.trim() ? "custom" : null);
    saveDraft();
  });

  /* ---------- reviewer name and drafts ---------- */
  var nameEl = $("#reviewer-name");
  var overallEl = $("#overall-feedback");
  nameEl.value = (local && local.getItem(NAME_KEY)) || "";
  nameEl.addEventListener("input", function () { try { if (local) { local.setItem(NAME_KEY, nameEl.value); } } catch (e) { /* ignore */ } });

  function preferred() {
    var r = $('input[name="preferred"]:checked');
    return r ? r.value : null;
  }
  function remixSpec() {
    var spec = {};
    $$(".remix-select").forEach(function (sel) { spec[sel.getAttribute("data-part")] = sel.value; });
    return spec;
  }
  function comments() {
    var out = {};
    $$(".feedback-input").forEach(function (t) { if (t.value.trim()) { out[t.getAttribute("data-variant")] = t.value.trim(); } });
    return out;
  }
  function saveDraft() {
    if (state.locked) { return; }
    setJSON(local, DRAFT_KEY, {
      preferred: preferred(), ratings: state.ratings, comments: comments(), overall: overallEl.value,
      action: state.action, custom: customEl.value, remix: remixSpec(), clientId: state.clientId
    });
  }
  function restoreDraft() {
    var d = getJSON(local, DRAFT_KEY);
    if (!d) { return; }
    if (d.preferred) { var r = $('input[name="preferred"][value="' + cssEscape(d.preferred) + '"]'); if (r) { r.checked = true; } }
    Object.keys(d.ratings || {}).forEach(function (id) { if (cfg.variants.indexOf(id) >= 0) { setRating(id, Number(d.ratings[id])); } });
    Object.keys(d.comments || {}).forEach(function (id) {
      var t = $('.feedback-input[data-variant="' + cssEscape(id) + '"]'); if (t) { t.value = d.comments[id]; }
    });
    overallEl.value = d.overall || "";
    customEl.value = d.custom || "";
    Object.keys(d.remix || {}).forEach(function (part) {
      var sel = $('.remix-select[data-part="' + cssEscape(part) + '"]');
      if (sel && cfg.variants.indexOf(d.remix[part]) >= 0) { sel.value = d.remix[part]; }
    });
    if (d.action) { setAction(d.action); }
    state.clientId = d.clientId || null;
  }
  function cssEscape(s) { return window.CSS && CSS.escape ? CSS.escape(s) : String(s).replace(/[^A-Za-z0-9_-]/g, ""); }
  $$('input[name="preferred"]').forEach(function (r) { r.addEventListener("change", saveDraft); });
  $$(".feedback-input").forEach(function (t) { t.addEventListener("input", saveDraft); });
  overallEl.addEventListener("input", saveDraft);

  /* ---------- the feedback body ---------- */
  function collect(regenerate) {
    if (!state.clientId) { state.clientId = uuid4(); saveDraft(); }
    var action = null;
    var spec = null;
    if (regenerate) {
      action = state.action === "custom" ? customEl.value.trim() : state.action;
      if (state.action === "remix") { spec = remixSpec(); }
    }
    var body = {
      schemaVersion: cfg.schemaVersion || 1,
      board: cfg.board,
      round: cfg.round,
      clientId: state.clientId,
      reviewer: nameEl.value.trim() || null,
      preferred: preferred(),
      ratings: Object.assign({}, state.ratings),
      comments: comments(),
      overall: overallEl.value.trim(),
      regenerated: !!regenerate,
      regenerateAction: action,
      remixSpec: spec
    };
    var hp = $("#website");
    if (hp && hp.value) { body.website = hp.value; }
    return body;
  }

  /* ---------- status for agents, messages for people ---------- */
  var statusEl = $("#status");
  var resultEl = $("#feedback-result");
  function setStatus(value, json) {
    statusEl.textContent = value;
    if (json !== undefined) { resultEl.textContent = json; }
  }
  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text) { e.textContent = text; }
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function lock() {
    state.locked = true;
    document.body.classList.add("is-locked");
    $$("#feedback-form input, #feedback-form textarea, #feedback-form select, #feedback-form button.star, " +
       "#feedback-form button.star-clear, #feedback-form .regen-chiclet, #submit-btn, #regen-btn").forEach(function (c) {
      c.disabled = true;
    });
  }
  function unlockSending() {
    state.sending = false;
    if (!state.locked) { $("#submit-btn").disabled = false; $("#regen-btn").disabled = false; }
  }
  function showError(title, detail, body) {
    var json = JSON.stringify(body, null, 2);
    $("#error-title").textContent = title;
    $("#error-detail").textContent = detail || "";
    $("#feedback-json").value = json;
    var link = $("#download-json");
    try {
      link.href = URL.createObjectURL(new Blob([json + "\n"], { type: "application/json" }));
    } catch (e) { link.href = "data:application/json;charset=utf-8," + encodeURIComponent(json); }
    $("#error-box").hidden = false;
    setStatus(statusEl.textContent, json);
    $("#error-box").scrollIntoView({ block: "start" });
  }
  $("#copy-json-btn").addEventListener("click", function () {
    var ta = $("#feedback-json");
    var done = function () { $("#copy-status").textContent = "Copied."; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(ta.value).then(done, function () { ta.select(); document.execCommand("copy"); done(); });
    } else { ta.select(); document.execCommand("copy"); done(); }
  });

  function showSuccess(body, reply) {
    var box = $("#success-msg");
    box.textContent = "";
    box.appendChild(el("h2", "Thank you, your feedback was received."));
    var next = body.preferred ? "You preferred " + body.preferred + ". " : "";
    box.appendChild(el("p", next + "This round is closed and the page is now a read-only record of what you sent."));
    if (cfg.apiUrl) {
      box.appendChild(el("p", "Next: nothing else to do. The design team collects every reviewer's feedback " +
        "and will share the next version at this address."));
    } else {
      box.appendChild(el("p", "Next: tell your designer or agent you are done. An agent running `pinup wait` already has it; " +
        "`pinup feedback handoff --board " + cfg.board + "` summarises it."));
    }
    if (reply && reply.id) { box.appendChild(el("p", "Reference: " + reply.id, { "class": "meta" })); }
    box.hidden = false;
    box.scrollIntoView({ block: "start" });
  }

  /* ---------- sending ---------- */
  function apiBase() {
    if (!cfg.apiUrl) { return ""; }
    return String(cfg.apiUrl).replace(/\/+$/, "").replace(/\/api\/feedback$/, "").replace(/\/api$/, "");
  }
  function send(body) {
    var headers = { "Content-Type": "application/json" };
    if (cfg.token) { headers["X-Pinup-Board-Token"] = cfg.token; }
    return fetch(apiBase() + "/api/feedback", {
      method: "POST", headers: headers, body: JSON.stringify(body), credentials: "omit", cache: "no-store"
    }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { data = null; }
        if (!res.ok || !data || data.received !== true) {
          var err = new Error(describe(res.status, data, text));
          err.status = res.status;
          throw err;
        }
        return data;
      });
    });
  }
  function describe(status, data, text) {
    var detail = data && (data.detail || data.error);
    if (detail && typeof detail !== "string") { detail = JSON.stringify(detail); }
    if (status === 409) { return "This round already has a final submission (HTTP 409)."; }
    if (status === 403) { return "The server refused this board (HTTP 403): " + (detail || "bad or missing board token"); }
    return "The server answered HTTP " + status + (detail ? ": " + detail : (text ? ": " + text.slice(0, 200) : ""));
  }

  function submit(regenerate) {
    if (state.sending || state.locked) { return; }
    if (regenerate && !state.action) {
      var e = $("#regen-error");
      e.textContent = "Choose what the next round should do: Totally different, More like this, Remix, or your own words.";
      e.hidden = false;
      return;
    }
    if (regenerate && state.action === "custom" && !customEl.value.trim()) { return; }
    var body = collect(regenerate);
    $("#error-box").hidden = true;
    if (location.protocol === "file:" && !cfg.apiUrl) {
      setStatus("", JSON.stringify(body, null, 2));
      showError("Opened from a file: there is no server to send to",
        "Copy this JSON and give it to your designer or agent, or open the board through `pinup serve`.", body);
      return;
    }
    state.sending = true;
    $("#submit-btn").disabled = true;
    $("#regen-btn").disabled = true;
    send(body).then(function (reply) {
      state.sending = false;
      var record = Object.assign({ id: reply.id }, body);
      var json = JSON.stringify(record, null, 2);
      try { if (local) { local.removeItem(DRAFT_KEY); } } catch (e2) { /* ignore */ }
      state.clientId = null;
      lock();
      if (regenerate) {
        setStatus("regenerate", json);
        startProgress(body);
      } else {
        setJSON(session, DONE_KEY, record);
        setStatus("submitted", json);
        showSuccess(body, reply);
      }
    }, function (err) {
      unlockSending();
      var offline = !err.status;
      showError(offline ? "Your feedback was not sent: the server could not be reached" : "Your feedback was not sent",
        offline ? "The feedback server did not answer (" + err.message + "). It may have stopped." : err.message, body);
    });
  }
  $("#feedback-form").addEventListener("submit", function (e) { e.preventDefault(); submit(false); });
  $("#regen-btn").addEventListener("click", function () { submit(true); });

  /* ---------- progress after a regenerate ---------- */
  var progress = { source: null, poll: null, timer: null, last: null, lastBody: null };
  function stopProgress() {
    if (progress.source) { progress.source.close(); progress.source = null; }
    if (progress.poll) { clearInterval(progress.poll); progress.poll = null; }
    if (progress.timer) { clearTimeout(progress.timer); progress.timer = null; }
  }
  function progressMessage(text) { $("#progress-message").textContent = text; }
  function handleEvent(data) {
    if (!data || (data.board && data.board !== cfg.board)) { return; }
    if (data.reload) {
      stopProgress();
      progressMessage("The next round is ready. Reloading…");
      setTimeout(function () { location.reload(); }, 150);
      return;
    }
    if (data.error) {
      stopProgress();
      var view = $("#progress-view");
      view.classList.add("is-error");
      progressMessage("Making the next round failed: " + String(data.error) + ". Your feedback is saved.");
      $("#retry-regen-btn").hidden = false;
      return;
    }
    if (data.message) { progressMessage(String(data.message)); }
    var bar = $("#progress-bar");
    if (typeof data.progress === "number") { bar.value = Math.max(0, Math.min(1, data.progress)); }
    else if (data.progress && data.progress.total) { bar.value = (data.progress.done || 0) / data.progress.total; }
  }
  function startPolling() {
    if (progress.poll) { return; }
    var seenRegenerating = false;
    var firstPoll = true;
    progress.poll = setInterval(function () {
      fetch(apiBase() + "/api/progress?board=" + encodeURIComponent(cfg.board), { cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (!data) { return; }
          var wasFirst = firstPoll;
          firstPoll = false;
          if (data.error && data.status !== "regenerating") { handleEvent({ error: data.error }); return; }
          if (data.status === "regenerating") { seenRegenerating = true; handleEvent({ message: data.message, progress: data.progress }); }
          else if (data.status === "serving" && (seenRegenerating || wasFirst || (data.round && data.round > cfg.round))) {
            handleEvent({ reload: true });
          }
        })
        .catch(function () { /* keep polling until the timeout */ });
    }, pollMs);
  }
  function startProgress(body) {
    progress.lastBody = body;
    var view = $("#progress-view");
    view.hidden = false;
    view.classList.remove("is-timeout", "is-error");
    $("#retry-regen-btn").hidden = true;
    progressMessage("Your request for another round was sent. Waiting for the next round…");
    view.scrollIntoView({ block: "start" });
    if (cfg.apiUrl) {
      /* hosted boards: the designer publishes the next round later */
      progressMessage("Your request for another round was sent. The next round will be published at this address.");
      $("#progress-bar").value = 1;
      return;
    }
    progress.timer = setTimeout(function () {
      stopProgress();
      view.classList.add("is-timeout");
      var mins = Math.round(timeoutMs / 60000);
      progressMessage("No new round arrived after " + (mins >= 1 ? mins + " minute" + (mins === 1 ? "" : "s") : Math.round(timeoutMs / 1000) + " seconds") +
        ". Your request is saved. Reload this page later, or ask your designer or agent to run the next round.");
    }, timeoutMs);
    if (window.EventSource && !params.has("noSSE")) {
      try {
        var es = new EventSource(apiBase() + "/api/events?board=" + encodeURIComponent(cfg.board));
        progress.source = es;
        var first = true;
        es.onmessage = function (ev) {
          var d = null;
          try { d = JSON.parse(ev.data); } catch (e) { return; }
          /* the first message is the board's state when we connected: "serving" means the
             next round was loaded before we got here, so reload now */
          if (first && d && d.status === "serving" && !d.reload && !d.error && (!d.board || d.board === cfg.board)) {
            d = { reload: true };
          }
          first = false;
          handleEvent(d);
        };
        es.onerror = function () { if (progress.source === es) { es.close(); progress.source = null; startPolling(); } };
        return;
      } catch (e) { /* fall through to polling */ }
    }
    startPolling();
  }
  $("#retry-regen-btn").addEventListener("click", function () {
    var body = Object.assign({}, progress.lastBody, { clientId: uuid4() });
    $("#retry-regen-btn").disabled = true;
    send(body).then(function () { $("#retry-regen-btn").disabled = false; startProgress(body); },
      function (err) { $("#retry-regen-btn").disabled = false; showError("The retry was not sent", err.message, body); });
  });

  /* ---------- start ---------- */
  var done = getJSON(session, DONE_KEY);
  if (done) {
    restoreRecord(done);
    lock();
    setStatus("submitted", JSON.stringify(done, null, 2));
    showSuccess(done, { id: done.id });
  } else {
    restoreDraft();
  }
  function restoreRecord(r) {
    if (r.preferred) { var p = $('input[name="preferred"][value="' + cssEscape(r.preferred) + '"]'); if (p) { p.checked = true; } }
    Object.keys(r.ratings || {}).forEach(function (id) { setRating(id, Number(r.ratings[id])); });
    Object.keys(r.comments || {}).forEach(function (id) {
      var t = $('.feedback-input[data-variant="' + cssEscape(id) + '"]'); if (t) { t.value = r.comments[id]; }
    });
    overallEl.value = r.overall || "";
  }
  window.pinupBoard = { config: cfg, collect: collect };
})();
