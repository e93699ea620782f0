/* pinup variant agent: added to each HTML variant at build time so the board can pin elements
 * and apply token tweaks without opening the iframe sandbox. It only talks to window.parent,
 * only after the board's "init" message, and echoes the board's per-page nonce in every reply.
 * Served as `pinup review`'s overlay, PINUP_PARENT names the review page's origin: then it answers
 * that origin only and takes messages only from it. */
(function () {
  "use strict";
  if (window.__pinupAgent) { return; }
  window.__pinupAgent = true;
  var nonce = null;
  var pinning = false;
  var watched = [];   /* [{id, selector}] the board wants positions for */
  var hover = null;
  var originals = {}; /* custom property -> its value before any tweak */
  var TEXT_MAX = 200, HTML_MAX = 800, SELECTOR_MAX = 1024;
  var parentOrigin = typeof PINUP_PARENT === "string" ? PINUP_PARENT : "*";

  function post(msg) {
    msg.pinup = 1;
    msg.nonce = nonce;
    msg.path = location.pathname + location.search;
    window.parent.postMessage(msg, parentOrigin); /* a sandboxed board frame has no origin of its own to name */
  }
  function cssEscape(s) { return window.CSS && CSS.escape ? CSS.escape(s) : String(s).replace(/[^A-Za-z0-9_-]/g, "\\$&"); }
  function attrSel(name, value) { return "[" + name + '="' + String(value).replace(/["\\]/g, "\\$&") + '"]'; }

  /* data-pin / data-id -> #id -> a structural path from the nearest anchored ancestor */
  function anchor(el) {
    if (el.getAttribute("data-pin")) { return attrSel("data-pin", el.getAttribute("data-pin")); }
    if (el.getAttribute("data-id")) { return attrSel("data-id", el.getAttribute("data-id")); }
    if (el.id && document.querySelectorAll("#" + cssEscape(el.id)).length === 1) { return "#" + cssEscape(el.id); }
    return null;
  }
  function selectorFor(el) {
    var parts = [];
    var node = el;
    while (node && node.nodeType === 1) {
      var a = anchor(node);
      if (a) { parts.unshift(a); break; }
      if (node === document.documentElement) { parts.unshift("html"); break; }
      var tag = node.tagName.toLowerCase();
      var n = 1, sib = node;
      while ((sib = sib.previousElementSibling)) { if (sib.tagName === node.tagName) { n += 1; } }
      parts.unshift(tag + ":nth-of-type(" + n + ")");
      node = node.parentElement;
    }
    return parts.join(" > ").slice(0, SELECTOR_MAX);
  }
  function rectOf(el) {
    var r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  }
  function view() { return { w: window.innerWidth, h: window.innerHeight }; }
  function report() {
    if (!nonce || !watched.length) { return; }
    var rects = {};
    watched.forEach(function (p) {
      var el = null;
      try { el = p.selector ? document.querySelector(p.selector) : null; } catch (e) { el = null; }
      rects[p.id] = el ? rectOf(el) : null;
    });
    post({ type: "rects", rects: rects, view: view() });
  }
  var queued = false;
  function reportSoon() {
    if (queued) { return; }
    queued = true;
    requestAnimationFrame(function () { queued = false; report(); });
  }
  function pick(el) {
    var text = (el.innerText || el.textContent || "").replace(/\s+/g, " ").trim().slice(0, TEXT_MAX);
    var html = (el.outerHTML || "").slice(0, HTML_MAX);
    post({ type: "picked", selector: selectorFor(el), text: text, html: html, rect: rectOf(el), view: view() });
  }
  function outline(el) {
    if (hover) {
      hover.style.outline = hover.__pinupOutline || "";
      if (!hover.getAttribute("style")) { hover.removeAttribute("style"); } /* the excerpt shows the page's own markup */
    }
    hover = el;
    if (el) { el.__pinupOutline = el.style.outline; el.style.outline = "3px solid #b3261e"; }
  }

  /* ---------- tweaks: CSS custom properties on the root ---------- */
  function norm(v) { return String(v || "").trim().toLowerCase().replace(/["']/g, "").replace(/\s+/g, " ").replace(/\s*,\s*/g, ","); }
  function rootProps() {
    var names = [];
    Array.prototype.forEach.call(document.styleSheets, function (sheet) {
      var rules;
      try { rules = sheet.cssRules; } catch (e) { return; }
      Array.prototype.forEach.call(rules || [], function (rule) {
        if (!rule.style || !/(^|,)\s*(:root|html)\s*(,|$)/.test(rule.selectorText || "")) { return; }
        for (var i = 0; i < rule.style.length; i++) {
          if (rule.style[i].indexOf("--") === 0) { names.push(rule.style[i]); }
        }
      });
    });
    return names;
  }
  function tweak(items) {
    var root = document.documentElement;
    var cs = getComputedStyle(root);
    Object.keys(originals).forEach(function (name) { root.style.removeProperty(name); });
    var props = rootProps();
    props.forEach(function (name) { if (!(name in originals)) { originals[name] = cs.getPropertyValue(name); } });
    (items || []).forEach(function (t) {
      if (norm(t.from) === norm(t.to)) { return; }
      if (t.byValue) props.forEach(function (name) {
        if (norm(originals[name]) === norm(t.from)) { root.style.setProperty(name, t.to); }
      });
      (t.names || []).forEach(function (name) {
        if (!(name in originals)) { originals[name] = cs.getPropertyValue(name); }
        root.style.setProperty(name, t.to);
      });
    });
    reportSoon();
  }

  window.addEventListener("message", function (ev) {
    if (ev.source !== window.parent || (parentOrigin !== "*" && ev.origin !== parentOrigin)) { return; }
    var d = ev.data;
    if (!d || d.pinup !== 1 || typeof d.type !== "string") { return; }
    if (d.type === "init") {
      if (nonce === null && typeof d.nonce === "string") { nonce = d.nonce; post({ type: "hello", view: view() }); }
      return;
    }
    if (d.nonce !== nonce || nonce === null) { return; }
    if (d.type === "pinmode") { pinning = !!d.on; if (!pinning) { outline(null); } }
    else if (d.type === "watch") { watched = Array.isArray(d.pins) ? d.pins : []; report(); }
    else if (d.type === "tweak") { tweak(d.items); }
  });
  document.addEventListener("mouseover", function (e) { if (pinning && e.target.nodeType === 1) { outline(e.target); } }, true);
  document.addEventListener("click", function (e) {
    if (!pinning) { return; }
    e.preventDefault();
    e.stopPropagation();
    outline(null);
    pick(e.target);
  }, true);
  document.addEventListener("keydown", function (e) {
    if (!pinning) { return; }
    if (e.key === "Escape") { e.preventDefault(); post({ type: "escape" }); return; }
    if (e.key === "Enter" && document.activeElement && document.activeElement !== document.body) {
      e.preventDefault();
      e.stopPropagation();
      outline(null); /* the focus outline is the agent's, not the page's: keep it out of the excerpt */
      pick(document.activeElement);
    }
  }, true);
  document.addEventListener("focusin", function (e) { if (pinning) { outline(e.target); } }, true);
  window.addEventListener("scroll", reportSoon, true);
  window.addEventListener("resize", reportSoon);
  /* say "ready" until the board answers: the frame can finish loading before the board listens */
  var tries = 0;
  var doc = Math.random().toString(36).slice(2); /* tells this page's "ready" from the next page's */
  function ready() {
    if (nonce !== null || tries++ > 40) { return; }
    window.parent.postMessage({ pinup: 1, type: "ready", doc: doc }, parentOrigin);
    setTimeout(ready, 250);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { ready(); }
})();
