/* Earlier feedback items (GET /api/items): each pin or comment from earlier rounds with its status
 * and the agent's summary; a reviewer can mark one to reopen with this round's submission.
 * Without an endpoint (a static copy, opened from a file) the section stays hidden and nothing is asked. */
(function () {
  "use strict";
  var B = window.pinupBoard;
  var $ = B.$, el = B.el;
  var STATUS = { open: "Open", in_progress: "In progress", resolved: "Resolved", wont_fix: "Won't fix",
                 needs_clarification: "Needs clarification" };
  var KIND = { pin: "Pin", comment: "Comment", overall: "Overall comment", regenerate: "Request for another round" };
  var reopen = [];
  var shown = [];
  var EVIDENCE_FILE = /^evidence\/[0-9a-f]{64}\.(png|jpg|html)$/;

  /* Only http(s) links are made from what an agent wrote; anything else stays text. */
  function safeUrl(value) {
    if (typeof value !== "string" || !/^https?:\/\//i.test(value)) { return null; }
    try {
      var u = new URL(value);
      return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
    } catch (e) { return null; }
  }
  /* The commit, the PR link and the evidence (a screenshot shown, a verify report linked) of the
   * item's latest resolve, served by GET /api/items/evidence only for files a resolve cites. */
  function evidence(it) {
    var box = el("div", "", { "class": "item-evidence" });
    if (typeof it.commit === "string" && it.commit) {
      var c = el("p", "Commit ", { "class": "item-commit" });
      c.appendChild(el("code", it.commit));
      box.appendChild(c);
    }
    var pr = safeUrl(it.pr);
    if (pr) {
      var p = el("p", "Pull request: ", { "class": "item-pr" });
      p.appendChild(el("a", pr, { href: pr, rel: "noopener noreferrer", target: "_blank" }));
      box.appendChild(p);
    } else if (typeof it.pr === "string" && it.pr) {
      box.appendChild(el("p", "Pull request: " + it.pr, { "class": "item-pr" }));
    }
    var ev = it.evidence;
    if (ev && typeof ev.file === "string" && EVIDENCE_FILE.test(ev.file)) {
      var url = B.apiBase() + "/api/items/evidence?board=" + encodeURIComponent(B.cfg.board) +
        "&file=" + encodeURIComponent(ev.file);
      var link = el("a", "", { href: url, rel: "noopener noreferrer", target: "_blank", "class": "item-evidence-link" });
      if (/\.html$/.test(ev.file)) {
        link.textContent = "Open the verify report" + (ev.name ? " (" + ev.name + ")" : "");
      } else {
        link.appendChild(el("img", "", { src: url, alt: "Evidence for #" + it.n + (ev.name ? ": " + ev.name : ""),
          loading: "lazy", "class": "item-evidence-img" }));
      }
      box.appendChild(link);
    }
    return box.childNodes.length ? box : null;
  }

  function toggle(n, btn) {
    var i = reopen.indexOf(n);
    if (i >= 0) { reopen.splice(i, 1); } else { reopen.push(n); }
    btn.setAttribute("aria-pressed", String(i < 0));
    btn.textContent = i < 0 ? "Will reopen #" + n + " (undo)" : "Reopen #" + n;
    B.saveDraft();
  }
  function render(items) {
    var list = $("#earlier-list");
    list.textContent = "";
    shown = items.map(function (it) { return it.n; });
    items.forEach(function (it) {
      var li = el("li", "", { "data-item": String(it.n), value: String(it.n) });
      var head = el("p", "", { "class": "item-head" });
      head.appendChild(el("strong", "#" + it.n + " " + (KIND[it.kind] || "Item") + (it.variant ? " on " + it.variant : "") +
        " (round " + it.round + ")"));
      head.appendChild(document.createTextNode(" "));
      head.appendChild(el("span", STATUS[it.status] || String(it.status), { "class": "item-status", "data-status": String(it.status) }));
      if (it.severity) { head.appendChild(document.createTextNode(" " + it.severity)); }
      li.appendChild(head);
      if (it.text) { li.appendChild(el("p", it.text, { "class": "item-text" })); }
      if (it.pin && it.pin.text) { li.appendChild(el("p", "On \u201c" + it.pin.text + "\u201d", { "class": "meta" })); }
      (Array.isArray(it.attachments) ? it.attachments : []).forEach(function (a) {
        var name = /^attachments\/([0-9a-f]{64}\.(png|jpg|webp))$/.exec(String(a && a.file));
        if (!name) { return; }
        var img = el("img", "", { "class": "item-image", alt: "Attached image " + String(a.name || ""), loading: "lazy",
          src: B.apiBase() + "/api/attachments/" + encodeURIComponent(B.cfg.board) + "/" + name[1] });
        li.appendChild(img);
      });
      if (it.summary) { li.appendChild(el("p", "What was done: " + it.summary, { "class": "item-summary" })); }
      var proof = evidence(it);
      if (proof) { li.appendChild(proof); }
      if (it.status !== "open" && it.status !== "in_progress") {
        var on = reopen.indexOf(it.n) >= 0;
        var btn = el("button", on ? "Will reopen #" + it.n + " (undo)" : "Reopen #" + it.n,
          { type: "button", "class": "reopen-btn", "data-item": String(it.n), "aria-pressed": String(on) });
        btn.addEventListener("click", function () { toggle(it.n, btn); });
        if (B.state.locked) { btn.disabled = true; }
        li.appendChild(btn);
      }
      list.appendChild(li);
    });
    $("#earlier-items").hidden = !items.length;
  }
  function load() {
    if (!B.endpoint || location.protocol === "file:") { return; }
    fetch(B.apiBase() + "/api/items?board=" + encodeURIComponent(B.cfg.board), { cache: "no-store", credentials: "omit" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || !Array.isArray(data.items)) { return; }
        document.dispatchEvent(new CustomEvent("pinup:items", { detail: data.items })); /* rounds.js shows each round's */
        render(data.items.filter(function (it) {
          return it && typeof it.n === "number" && (typeof it.round !== "number" || it.round < B.cfg.round);
        }));
      })
      .catch(function () { /* no lifecycle endpoint here: nothing to show */ });
  }
  B.parts.push({
    save: function (d) { d.reopen = reopen.slice(); },
    restore: function (d) { reopen = (d.reopen || []).filter(function (n) { return typeof n === "number" && n >= 1; }); },
    collect: function (body) {
      var mine = reopen.filter(function (n) { return !shown.length || shown.indexOf(n) >= 0; });
      if (mine.length) { body.reopen = mine; }
    },
    dirty: function () { return reopen.length > 0; },
    start: load
  });
})();
