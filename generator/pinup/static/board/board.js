/* pinup review board: feedback controls, drafts, submit, live updates from the server.
 * Vanilla JS, inlined into the page; no network other than the feedback API.
 * Every piece of user text goes through textContent or .value, never innerHTML.
 * layout.js, pins.js, tweaks.js and items.js follow in the same script and plug in through
 * window.pinupBoard (B): each adds a "part" that contributes to the draft and the body. */
(function () {
  "use strict";

  var cfg = JSON.parse(document.getElementById("board-config").textContent);
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var params = new URLSearchParams(location.search);
  var limits = cfg.limits || {};

  var DRAFT_KEY = "pinup:draft:" + cfg.board + ":" + cfg.round;
  var DONE_KEY = "pinup:done:" + cfg.board + ":" + cfg.round;
  var SCROLL_KEY = "pinup:scroll:" + cfg.board;
  var NAME_KEY = "pinup:reviewer";
  var timeoutMs = Number(params.get("progressTimeout") || cfg.progressTimeoutMs || 300000);
  var pollMs = Number(params.get("pollInterval") || cfg.pollIntervalMs || 2000);
  /* Where feedback goes: the endpoint the build recorded (a hosted board), or this origin when
     `pinup serve` serves the page (it marks board pages with <meta name="pinup-serve">). A static
     copy has neither: it never asks for an API that is not there, and offers the JSON instead. */
  var served = !!document.querySelector('meta[name="pinup-serve"]');
  var endpoint = !!cfg.apiUrl || served;
  var local = !cfg.apiUrl && served;

  var state = { ratings: {}, action: null, clientId: null, sending: false, locked: false };
  var B = { cfg: cfg, $: $, $$: $$, params: params, limits: limits, state: state, parts: [], endpoint: endpoint };
  window.pinupBoard = B;

  /* ---------- storage (may be unavailable, e.g. file:// in some browsers) ---------- */
  function store(kind) {
    try { var s = window[kind]; s.setItem("pinup:probe", "1"); s.removeItem("pinup:probe"); return s; }
    catch (e) { return null; }
  }
  var localStore = store("localStorage");
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
  function cssEscape(s) { return window.CSS && CSS.escape ? CSS.escape(s) : String(s).replace(/[^A-Za-z0-9_-]/g, ""); }
  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text) { e.textContent = text; }
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  B.el = el; B.cssEscape = cssEscape; B.uuid4 = uuid4;

  /* ---------- rating: one radio group per variant (one Tab stop, arrow keys) ---------- */
  function setRating(id, value) {
    if (value) { state.ratings[id] = value; } else { delete state.ratings[id]; }
    var stars = $$('.stars[data-variant="' + cssEscape(id) + '"] .star');
    stars.forEach(function (s) {
      var n = Number(s.getAttribute("data-value"));
      s.setAttribute("aria-checked", String(n === value));
      s.classList.toggle("is-on", n <= (value || 0));
      s.tabIndex = n === (value || 1) ? 0 : -1;
    });
    var label = $('.stars-value[data-variant="' + cssEscape(id) + '"]');
    if (label) { label.textContent = value ? value + " of 5" : "not rated"; }
  }
  B.setRating = setRating;
  $$(".star").forEach(function (star) {
    star.addEventListener("click", function () {
      var id = star.getAttribute("data-variant");
      var value = Number(star.getAttribute("data-value"));
      setRating(id, state.ratings[id] === value ? 0 : value); /* the same star again clears */
      saveDraft();
    });
    star.addEventListener("keydown", function (e) {
      var id = star.getAttribute("data-variant");
      var cur = state.ratings[id] || 0;
      var next = null;
      if (e.key === "ArrowRight" || e.key === "ArrowUp") { next = Math.min(5, cur + 1); }
      else if (e.key === "ArrowLeft" || e.key === "ArrowDown") { next = Math.max(1, cur - 1); }
      else if (e.key === "Home") { next = 1; }
      else if (e.key === "End") { next = 5; }
      else if (e.key === "Delete" || e.key === "Backspace" || e.key === "0") { next = 0; }
      else if (/^[1-5]$/.test(e.key)) { next = Number(e.key); }
      else if (e.key === " " || e.key === "Enter") { next = Number(star.getAttribute("data-value")); }
      if (next === null) { return; }
      e.preventDefault();
      setRating(id, next);
      var target = $('.stars[data-variant="' + cssEscape(id) + '"] .star[data-value="' + Math.max(1, next) + '"]');
      if (target) { target.focus(); }
      saveDraft();
    });
  });
  $$(".star-clear").forEach(function (btn) {
    btn.addEventListener("click", function () { setRating(btn.getAttribute("data-variant"), 0); saveDraft(); });
  });

  /* ---------- another round: a chosen action, or the reviewer's own words (a separate field) ---------- */
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
    if (customEl.value.trim()) { setAction("custom"); } else if (state.action === "custom") { setAction(null); }
    saveDraft();
  });

  /* ---------- reviewer name and drafts ---------- */
  var nameEl = $("#reviewer-name");
  var overallEl = $("#overall-feedback");
  nameEl.value = (localStore && localStore.getItem(NAME_KEY)) || "";
  nameEl.addEventListener("input", function () { try { if (localStore) { localStore.setItem(NAME_KEY, nameEl.value); } } catch (e) { /* ignore */ } });

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
    var d = {
      preferred: preferred(), ratings: state.ratings, comments: comments(), overall: overallEl.value,
      action: state.action, custom: customEl.value, remix: remixSpec(), clientId: state.clientId
    };
    B.parts.forEach(function (p) { if (p.save) { p.save(d); } });
    setJSON(localStore, DRAFT_KEY, d);
  }
  B.saveDraft = saveDraft;
  /* true when the reviewer has written or chosen something a reload onto a new round would lose */
  function hasDraft() {
    if (state.locked) { return false; }
    if (preferred() || Object.keys(state.ratings).length || Object.keys(comments()).length ||
        overallEl.value.trim() || customEl.value.trim() || state.action) { return true; }
    return B.parts.some(function (p) { return p.dirty && p.dirty(); });
  }
  B.hasDraft = hasDraft;
  function restoreDraft() {
    var d = getJSON(localStore, DRAFT_KEY);
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
    B.parts.forEach(function (p) { if (p.restore) { p.restore(d); } });
  }
  $$('input[name="preferred"]').forEach(function (r) { r.addEventListener("change", saveDraft); });
  $$(".feedback-input").forEach(function (t) { t.addEventListener("input", saveDraft); });
  overallEl.addEventListener("input", saveDraft);

  /* ---------- the feedback body ---------- */
  function collect(regenerate) {
    if (!state.clientId) { state.clientId = uuid4(); saveDraft(); }
    var action = null;
    var spec = null;
    if (regenerate) {
      action = state.action === "custom" ? "custom" : state.action;
      if (state.action === "remix") { spec = remixSpec(); }
    }
    var body = {
      schemaVersion: 1,
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
    if (regenerate && state.action === "custom") {
      var words = customEl.value.trim();
      if ((cfg.v2Fields || []).indexOf("regenerateText") >= 0) {
        /* the reviewer's own words travel in their own field; the action code says only "custom" */
        body.regenerateText = words;
      } else {
        /* an endpoint without that field reads regenerateAction as the request: quote words that
           would otherwise look like an action code, so they stay the reviewer's words */
        body.regenerateAction = /^(different|remix|custom|more_like_.*)$/i.test(words) ? "\u201c" + words + "\u201d" : words;
      }
    }
    var extra = {};
    B.parts.forEach(function (p) { if (p.collect) { p.collect(extra); } });
    Object.keys(extra).forEach(function (k) { body[k] = extra[k]; });
    if (extra.pins || extra.tweaks || extra.reopen || body.regenerateText !== undefined) { body.schemaVersion = 2; }
    var hp = $("#website");
    if (hp && hp.value) { body.website = hp.value; }
    return body;
  }
  B.collect = collect;

  /* ---------- status for agents, messages for people ---------- */
  var statusEl = $("#status");
  var resultEl = $("#feedback-result");
  function setStatus(value, json) {
    statusEl.textContent = value;
    if (json !== undefined) { resultEl.textContent = json; }
  }
  function lock() {
    state.locked = true;
    document.body.classList.add("is-locked");
    $$("#feedback-form input, #feedback-form textarea, #feedback-form select, #feedback-form button.star, " +
       "#feedback-form button.star-clear, #feedback-form .regen-chiclet, #feedback-form .pin-mode-btn, " +
       "#feedback-form .pin-add-btn, #feedback-form .pin-list button, #feedback-form #tweaks-reset, " +
       "#earlier-list button, #submit-btn, #regen-btn").forEach(function (c) {
      c.disabled = true;
    });
    B.parts.forEach(function (p) { if (p.lock) { p.lock(); } });
  }
  B.lock = lock;
  function unlockSending() {
    state.sending = false;
    if (!state.locked) { $("#submit-btn").disabled = false; $("#regen-btn").disabled = false; }
  }
  function showError(title, detail, body, items) {
    var json = JSON.stringify(body, null, 2);
    $("#error-title").textContent = title;
    $("#error-detail").textContent = detail || "";
    var list = $("#error-list");
    list.textContent = "";
    (items || []).forEach(function (text) { list.appendChild(el("li", text)); });
    list.hidden = !(items && items.length);
    $("#feedback-json").value = json;
    var link = $("#download-json");
    try {
      link.href = URL.createObjectURL(new Blob([json + "\n"], { type: "application/json" }));
    } catch (e) { link.href = "data:application/json;charset=utf-8," + encodeURIComponent(json); }
    $("#error-box").hidden = false;
    setStatus(statusEl.textContent, json);
    $("#error-box").scrollIntoView({ block: "start" });
  }
  ["focus", "click"].forEach(function (ev) { /* one click selects it all, ready to copy */
    $("#feedback-json").addEventListener(ev, function () { this.select(); });
  });
  $("#copy-json-btn").addEventListener("click", function () {
    var ta = $("#feedback-json");
    var done = function () { $("#copy-status").textContent = "Copied."; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(ta.value).then(done, function () { ta.select(); document.execCommand("copy"); done(); });
    } else { ta.select(); document.execCommand("copy"); done(); }
  });

  function showSuccess(body, reply, moveFocus) {
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
    if (moveFocus) { box.focus(); }
  }

  /* ---------- errors a person can read ---------- */
  var FIELD = { reviewer: ["Your name", "reviewer"], overall: ["Your overall feedback", "overall"],
    regenerateAction: ["Your request for another round", "custom"], regenerateText: ["Your request for another round", "custom"],
    preferred: ["Your preferred variant"], clientId: ["This browser's id"], round: ["The round"] };
  function fieldName(path) {
    var p = String(path || "").split(".");
    if (p[0] === "comments") { return ["Your comment on " + (p[1] || "a variant"), "comment"]; }
    if (p[0] === "ratings") { return ["Your rating for " + (p[1] || "a variant")]; }
    if (p[0] === "pins") {
      var n = p.length > 1 && /^\d+$/.test(p[1]) ? " " + (Number(p[1]) + 1) : "s";
      if (p[2] === "note") { return ["The note of pin" + n, "pinNote"]; }
      return ["Pin" + n, "pins"];
    }
    if (p[0] === "tweaks") { return ["The tweak " + (p.slice(1).join(".") || ""), "tweaks"]; }
    if (p[0] === "reopen") { return ["Reopened items", "reopen"]; }
    if (p[0] === "remixSpec") { return ["The remix choice"]; }
    return FIELD[p[0]] || ["Your feedback"];
  }
  function humanError(e) {
    var f = fieldName(e.path);
    var said = /at most (\d+)/.exec(String(e.msg || "")); /* the server's own number wins */
    var max = said ? Number(said[1]) : (f[1] && limits[f[1]]);
    var type = String(e.type || "");
    if (type === "string_too_long") { return f[0] + " is too long: " + (max ? max + " characters at most." : "please shorten it."); }
    if (type === "too_long") { return f[0] + ": too many" + (max ? ", " + max + " at most." : "."); }
    if (type === "string_too_short" || type === "missing") { return f[0] + " is missing."; }
    if (type === "round_mismatch") { return "This board has moved on to a newer round. Reload the page to see it; your draft is kept."; }
    if (type === "unknown_variant") { return f[0] + " names a variant that is not on this board any more. Reload the page."; }
    if (type === "schema_version") { return "This feedback server does not accept pins, tweaks or reopened items yet. Remove them and send again."; }
    var msg = String(e.msg || "is not valid").replace(/^Value error, /, "");
    return f[0] + ": " + msg.charAt(0).toLowerCase() + msg.slice(1) + (/[.!?]$/.test(msg) ? "" : ".");
  }
  B.humanError = humanError;
  function describe(status, data) {
    var detail = data && data.detail;
    if (status === 422 && Array.isArray(detail)) {
      return { text: "Some of what you wrote does not fit (HTTP 422):", items: detail.map(humanError) };
    }
    var text;
    if (status === 409) { text = "This round is already closed: a final choice was already sent for it (HTTP 409)."; }
    else if (status === 403) { text = "This board may not send feedback to this server (HTTP 403). Ask whoever shared the board for a fresh link."; }
    else if (status === 413) { text = "Your feedback is too large to send (HTTP 413). Shorten the longest comments and try again."; }
    else if (status === 429) { text = "Too many submissions from here in a short time (HTTP 429). Wait a minute and try again."; }
    else if (status === 503) { text = "Your feedback could not be saved: the feedback store is unavailable right now. Nothing was stored (HTTP 503). Try again in a minute."; }
    else if (data && data.error === "store_failed") {
      text = "Your feedback could not be saved: the feedback server cannot write to its storage " +
        "(its disk may be full or read-only). Nothing was stored (HTTP " + status + "). Tell your designer or agent.";
    }
    else if (status >= 500) { text = "The feedback server had a problem and stored nothing (HTTP " + status + "). Try again, or send the JSON below."; }
    else if (status === 400 || status === 415) { text = "The server could not read what this page sent (HTTP " + status + "). Reload the page and try again."; }
    else { text = "The server refused the feedback (HTTP " + status + ")."; }
    return { text: text, items: [] };
  }

  /* ---------- sending ---------- */
  function apiBase() {
    if (!cfg.apiUrl) { return ""; }
    return String(cfg.apiUrl).replace(/\/+$/, "").replace(/\/api\/feedback$/, "").replace(/\/api$/, "");
  }
  B.apiBase = apiBase;
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
          var d = describe(res.status, data);
          var err = new Error(d.text);
          err.status = res.status;
          err.items = d.items;
          throw err;
        }
        return data;
      });
    });
  }
  /* checks the page can make before sending, with the same limits the server enforces */
  function localProblems(body) {
    var out = [];
    function check(path, value) {
      var f = fieldName(path);
      var max = f[1] && limits[f[1]];
      if (max && typeof value === "string" && value.length > max) { out.push(humanError({ path: path, type: "string_too_long" })); }
    }
    check("reviewer", body.reviewer);
    check("overall", body.overall);
    Object.keys(body.comments).forEach(function (k) { check("comments." + k, body.comments[k]); });
    if (body.regenerateText !== undefined) { check("regenerateText", body.regenerateText); }
    (body.pins || []).forEach(function (p, i) { check("pins." + i + ".note", p.note); });
    return out;
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
    var problems = localProblems(body);
    if (problems.length) {
      showError("Your feedback was not sent", "Some of what you wrote does not fit:", body, problems);
      return;
    }
    if (!endpoint) {
      setStatus("", JSON.stringify(body, null, 2));
      showError("Feedback cannot be sent from this copy of the board",
        "This copy is not connected to a feedback server, so nothing was sent.", body);
      return;
    }
    state.sending = true;
    $("#submit-btn").disabled = true;
    $("#regen-btn").disabled = true;
    (B.beforeSend ? B.beforeSend(body) : Promise.resolve(body)).then(send).then(function (reply) {
      state.sending = false;
      live.closedWhileSending = false;
      var record = Object.assign({ id: reply.id }, body);
      var json = JSON.stringify(record, null, 2);
      try { if (localStore) { localStore.removeItem(DRAFT_KEY); } } catch (e2) { /* ignore */ }
      state.clientId = null;
      lock();
      if (regenerate) {
        setStatus("regenerate", json);
        startProgress(body);
      } else {
        setJSON(session, DONE_KEY, record);
        setStatus("submitted", json);
        showSuccess(body, reply, true);
      }
    }, function (err) {
      unlockSending();
      var offline = !err.status;
      showError(offline ? "Your feedback was not sent: the server could not be reached" :
        err.status >= 500 ? "Your feedback was not saved" : "Your feedback was not sent",
        offline ? "The feedback server did not answer. It may have stopped; your draft is kept on this device." : err.message,
        body, err.items);
      if (live.closedWhileSending) { live.closedWhileSending = false; showClosed(); } /* someone else's choice closed it */
    });
  }
  $("#feedback-form").addEventListener("submit", function (e) { e.preventDefault(); submit(false); });
  $("#regen-btn").addEventListener("click", function () { submit(true); });

  /* ---------- live updates: one event stream for the page's whole life ---------- */
  var live = { source: null, poll: null, timer: null, waiting: false, lastBody: null, closedShown: false,
               failures: 0, seenRegenerating: false, buildError: false, closedWhileSending: false,
               /* the site build this page came from, then the one a poll last reported: the next poll names it, to hear what changed since */
               siteVersion: ($('meta[name="pinup-build"]') || { content: "" }).content,
               epoch: 0 /* one more each time the board starts waiting for a round (this tab's request, its retry, or another reviewer's request the server reports): polls asked before are stale */ };
  function progressMessage(text) { $("#progress-message").textContent = text; }
  function reloadKeepingScroll() {
    setJSON(session, SCROLL_KEY, { x: window.scrollX, y: window.scrollY });
    location.reload();
  }
  /* a newer build or round: reload unless that would lose a draft, else offer a button */
  function newVersion(reason) {
    if (live.reloading) { return; }
    if (live.waiting || !hasDraft()) {
      live.reloading = true;
      if (live.poll) { clearInterval(live.poll); live.poll = null; }
      if (live.source) { live.source.close(); live.source = null; }
      progressMessage("The next round is ready. Reloading…");
      setTimeout(reloadKeepingScroll, 150);
      return;
    }
    $("#update-text").textContent = reason || "A new version is ready.";
    $("#update-banner").hidden = false;
  }
  $("#update-reload").addEventListener("click", function () { saveDraft(); reloadKeepingScroll(); });

  /* the page's styles and token values changed, nothing else (the server checked): take them in
     place, keeping the draft, scroll and pins; anything unexpected falls back to a new version */
  function restyle() {
    var fallback = function () { newVersion("A new version of this board is ready."); };
    fetch(location.pathname, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { if (!r.ok) { throw new Error(String(r.status)); } return r.text(); })
      .then(function (html) {
        /* only the head and the config are read: parsing the whole page (its variants) costs more */
        var end = html.indexOf("\u003c/head>");
        var fresh = new DOMParser().parseFromString(end > 0 ? html.slice(0, end) : "", "text/html").querySelectorAll("head > style");
        var now = $$("head > style");
        /* "\u003c": this script is inlined in the page, where a closing script tag would end it */
        var mark = '\u003cscript type="application/json" id="board-config">';
        var at = html.indexOf(mark);
        var stop = at < 0 ? -1 : html.indexOf("\u003c/script>", at);
        var next = stop < 0 ? null : JSON.parse(html.slice(at + mark.length, stop));
        if (!next || next.board !== cfg.board || next.round !== cfg.round || fresh.length !== now.length ||
            !(B.retoken ? B.retoken(next.tweakables || []) : !(next.tweakables || []).length)) {
          fallback();
          return;
        }
        now.forEach(function (style, i) {
          if (style.textContent !== fresh[i].textContent) { style.textContent = fresh[i].textContent; }
        });
        cfg.build = next.build;
        cfg.tweakables = next.tweakables;
      })
      .catch(fallback);
  }

  function showClosed() {
    if (state.locked || live.closedShown) { return; }
    live.closedShown = true;
    live.buildError = false; /* the banner says "closed" now: a later rebuild must not hide that */
    var banner = $("#banner");
    banner.textContent = "This round is closed: a final choice was already sent for it (from this or another browser). " +
      "The page is a read-only record now.";
    banner.hidden = false;
    setStatus("closed");
    lock();
  }
  function showPending(data) {
    if (live.waiting) { return; }
    lock();
    setStatus("regenerate");
    startProgress(null, (data && data.message) ? String(data.message) :
      "Another round was requested for this board and is on its way. This page reloads itself when it is ready.");
  }
  function pendingOf(data) {
    return !!(data.pending || data.status === "regenerating");
  }
  function handleState(data) {
    if (!data || (data.board && data.board !== cfg.board)) { return; }
    if (data.type === "rebuilt") {
      if (live.buildError) { live.buildError = false; $("#banner").hidden = true; } /* the build works again */
      var mine = !data.pages || !data.pages.length || data.pages.some(function (p) {
        return String(p).indexOf("boards/" + cfg.board + "/") >= 0;
      });
      var page = "boards/" + cfg.board + "/index.html";
      var others = (data.pages || []).some(function (p) { /* a variant or another file of this board */
        return String(p).indexOf("boards/" + cfg.board + "/") >= 0 && p !== page;
      });
      if (mine && !others && !live.waiting && Array.isArray(data.restyled) && data.restyled.indexOf(page) >= 0) {
        restyle();
      } else if (mine) { newVersion("A new version of this board is ready."); }
      return;
    }
    if (data.type === "build_error") {
      var b = $("#banner");
      b.textContent = "The latest edit did not build: " + String(data.message || "unknown error") +
        ". This page still shows the last good version.";
      b.hidden = false;
      live.buildError = true;
      return;
    }
    /* a reload naming the build this page already shows changes nothing here (an agent's
       `pinup build` reloads the board, and a reload_board after it must not reload it again) */
    if (data.reload && data.build && data.build === cfg.build && !live.waiting && !live.seenRegenerating) { return; }
    /* a newer round in the manifest while the server still says "regenerating" is not ready yet */
    if (data.reload || (data.round && data.round > cfg.round && !pendingOf(data))) {
      newVersion("Round " + (data.round || "") + " is ready.");
      return;
    }
    if (data.error && live.waiting) {
      stopTimer();
      $("#progress-view").classList.add("is-error");
      progressMessage("Making the next round failed: " + String(data.error) + ". Your feedback is saved.");
      $("#retry-regen-btn").hidden = !live.lastBody;
      return;
    }
    if (pendingOf(data)) {
      live.seenRegenerating = true;
      if (!live.waiting && !state.locked) { showPending(data); }
      if (data.message) { progressMessage(String(data.message)); }
      var bar = $("#progress-bar");
      if (typeof data.progress === "number") { bar.value = Math.max(0, Math.min(1, data.progress)); }
      else if (data.progress && data.progress.total) { bar.value = (data.progress.done || 0) / data.progress.total; }
      return;
    }
    if (data.closed || data.status === "done") {
      /* the server tells every page before it answers the POST that closed the round: while this
         tab's own submit is under way, its answer decides between the thank-you and "closed" */
      if (state.sending) { live.closedWhileSending = true; return; }
      if (!live.waiting && statusEl.textContent !== "submitted") { showClosed(); }
      return;
    }
    if (data.status === "serving" && live.waiting && live.seenRegenerating) { newVersion(); }
  }
  B.handleState = handleState;

  function stopTimer() { if (live.timer) { clearTimeout(live.timer); live.timer = null; } }
  function startPolling() {
    if (live.poll) { return; }
    live.poll = setInterval(pollOnce, pollMs);
    pollOnce();
  }
  function pollOnce() {
    var asked = live.epoch; /* an answer to a poll asked before the board last started waiting is stale */
    fetch(apiBase() + "/api/progress?board=" + encodeURIComponent(cfg.board) + "&since=" + encodeURIComponent(live.siteVersion),
      { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || asked !== live.epoch) { return; }
        /* the rebuilds since the last poll, as the event stream tells them (styles only: in place) */
        if (data.rebuilt && live.siteVersion) { handleState(data.rebuilt); }
        if (typeof data.version === "string") { live.siteVersion = data.version; }
        handleState(data);
        if (live.failures && !live.source && !params.has("noSSE")) { connect(); } /* the server is back: try the stream again */
      })
      .catch(function () { live.failures += 1; });
  }
  function connect() {
    if (!window.EventSource || params.has("noSSE")) { startPolling(); return; }
    var es;
    try { es = new EventSource(apiBase() + "/api/events?board=" + encodeURIComponent(cfg.board)); }
    catch (e) { startPolling(); return; }
    live.source = es;
    var errors = 0;
    es.onopen = function () {
      errors = 0; live.failures = 0;
      if (live.poll) { clearInterval(live.poll); live.poll = null; }
    };
    es.onmessage = function (ev) {
      var d = null;
      try { d = JSON.parse(ev.data); } catch (e) { return; }
      handleState(d);
    };
    es.onerror = function () {
      errors += 1;
      /* the browser retries by itself (the server sends retry:); after a few failures, poll instead */
      if (es.readyState === EventSource.CLOSED || errors >= 3) {
        es.close();
        if (live.source === es) { live.source = null; }
        live.failures += 1;
        startPolling();
      }
    };
  }

  function startProgress(body, message) {
    if (live.waiting && body && !message) { live.lastBody = body; return; } /* the server's event came first */
    live.waiting = true;
    live.lastBody = body;
    live.epoch += 1;
    var view = $("#progress-view");
    view.hidden = false;
    view.classList.remove("is-timeout", "is-error");
    $("#retry-regen-btn").hidden = true;
    progressMessage(message || "Your request for another round was sent. Waiting for the next round…");
    view.scrollIntoView({ block: "start" });
    if (!local) {
      /* hosted boards: the designer publishes the next round later */
      progressMessage("Your request for another round was sent. The next round will be published at this address.");
      $("#progress-bar").value = 1;
      return;
    }
    stopTimer();
    live.timer = setTimeout(function () {
      view.classList.add("is-timeout");
      var mins = Math.round(timeoutMs / 60000);
      progressMessage("No new round arrived after " + (mins >= 1 ? mins + " minute" + (mins === 1 ? "" : "s") : Math.round(timeoutMs / 1000) + " seconds") +
        ". Your request is saved. Reload this page later, or ask your designer or agent to run the next round.");
    }, timeoutMs);
    if (!live.source && !live.poll) { connect(); }
  }
  $("#retry-regen-btn").addEventListener("click", function () {
    var body = Object.assign({}, live.lastBody, { clientId: uuid4() });
    $("#retry-regen-btn").disabled = true;
    send(body).then(function () { $("#retry-regen-btn").disabled = false; live.waiting = false; startProgress(body); },
      function (err) { $("#retry-regen-btn").disabled = false; showError("The retry was not sent", err.message, body, err.items); });
  });

  function restoreRecord(r) {
    if (r.preferred) { var p = $('input[name="preferred"][value="' + cssEscape(r.preferred) + '"]'); if (p) { p.checked = true; } }
    Object.keys(r.ratings || {}).forEach(function (id) { setRating(id, Number(r.ratings[id])); });
    Object.keys(r.comments || {}).forEach(function (id) {
      var t = $('.feedback-input[data-variant="' + cssEscape(id) + '"]'); if (t) { t.value = r.comments[id]; }
    });
    overallEl.value = r.overall || "";
    B.parts.forEach(function (p) { if (p.restore) { p.restore(r); } });
  }

  /* ---------- start (called once every part has registered) ---------- */
  B._start = function () {
    var done = getJSON(session, DONE_KEY);
    if (done) {
      restoreRecord(done);
      lock();
      setStatus("submitted", JSON.stringify(done, null, 2));
      showSuccess(done, { id: done.id }, false);
    } else {
      restoreDraft();
    }
    var scroll = getJSON(session, SCROLL_KEY);
    if (scroll) {
      try { session.removeItem(SCROLL_KEY); } catch (e) { /* ignore */ }
      window.scrollTo(scroll.x || 0, scroll.y || 0);
    }
    if (local) { connect(); }
    if (!endpoint) { $("#no-endpoint").hidden = false; }
    B.parts.forEach(function (p) { if (p.start) { p.start(); } });
  };
})();
