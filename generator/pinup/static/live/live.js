/* pinup live reload for site pages served by `pinup serve` (never part of a static build).
 *
 * Listens to /api/events?site=1. When the served build changes (a "rebuilt" event, or a new
 * version after a reconnect, e.g. across a restart) the page reloads and keeps its scroll
 * position, unless the rebuild changed nothing of this page but styles: the server names those
 * changes (`restyled`: stylesheets, and pages whose styles alone changed), and the page swaps its
 * stylesheets and inline styles in place, keeping its scroll and state, as Vite does for CSS.
 * A "build_error" shows a banner; the page keeps showing the last good build.
 * EventSource reconnects by itself (the server sends `retry:`); if it gives up, the script
 * polls /api/progress?site=1 every 2 s and goes back to SSE once the server answers. A poll names
 * the build the page shows (`since`); the answer carries the `rebuilt` event of what it missed,
 * so a change of styles only is taken in place when polling too.
 * ?noSSE=1 forces polling and ?pollInterval=<ms> changes its interval (for tests).
 */
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);
  var pollInterval = Number(params.get("pollInterval")) || 2000;
  var useSSE = params.get("noSSE") !== "1" && typeof EventSource === "function";
  var KEY = "pinup-live-scroll:" + location.pathname;
  /* the build this page came from (the server names it): a rebuild before the stream connects still counts */
  var version = (document.currentScript && document.currentScript.getAttribute("data-version")) || null;
  var source = null;
  var timer = null;
  var reloading = false;

  function restoreScroll() {
    var saved = null;
    try { saved = sessionStorage.getItem(KEY); sessionStorage.removeItem(KEY); } catch (e) { saved = null; }
    if (saved !== null) {
      var y = Number(saved) || 0;
      var jump = function () { window.scrollTo({ top: y, left: 0, behavior: "instant" }); };
      jump();
      window.addEventListener("load", jump);
    }
  }

  function reload() {
    if (reloading) { return; }
    reloading = true;
    try { sessionStorage.setItem(KEY, String(window.scrollY)); } catch (e) { /* private mode */ }
    location.reload();
  }

  function banner() {
    var el = document.getElementById("pinup-live-error");
    if (!el) {
      el = document.createElement("div");
      el.id = "pinup-live-error";
      el.setAttribute("role", "alert");
      el.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;padding:12px 16px;" +
        "background:#8b1a1a;color:#fff;font:14px/1.4 system-ui,sans-serif;white-space:pre-wrap";
      document.body.appendChild(el);
    }
    return el;
  }

  function showError(message) {
    banner().textContent = "The last change did not build: " + message +
      "\nThis page shows the last good build; fix the file and save again.";
  }

  function clearError() {
    var el = document.getElementById("pinup-live-error");
    if (el) { el.parentNode.removeChild(el); }
  }

  function seen(v) {
    if (typeof v !== "string" || v === "") { return false; }
    if (version !== null && v !== version) { reload(); return true; }
    version = v;
    return false;
  }

  /* ---------- changes of styles only, taken in place ---------- */
  function siteName(url) { /* a same-origin URL as the site names its files: "colors.html", "assets/site.css" */
    var u = new URL(url, location.href);
    if (u.origin !== location.origin) { return null; }
    var name = decodeURIComponent(u.pathname).replace(/^\/+/, "");
    return name === "" || /\/$/.test(name) ? name + "index.html" : name;
  }
  function inPlace(data) {
    var page = siteName(location.href);
    return Array.isArray(data.restyled) && version !== null &&
      ((data.pages || []).indexOf(page) < 0 || data.restyled.indexOf(page) >= 0);
  }
  function swapSheet(link, name, v) {
    var fresh = link.cloneNode(false);
    var url = new URL(link.href);
    url.searchParams.set("pinup-v", v);
    fresh.href = url.href;
    /* the old sheets stay until the new one has loaded (no flash of an unstyled page); a quicker
       second edit replaces the newest only, and its load removes every older one */
    link.setAttribute("data-pinup-replaced", name);
    fresh.addEventListener("load", function () {
      Array.prototype.forEach.call(document.querySelectorAll("link[data-pinup-replaced]"), function (old) {
        if (old.getAttribute("data-pinup-replaced") === name && old.parentNode) { old.parentNode.removeChild(old); }
      });
    });
    fresh.addEventListener("error", reload);
    link.parentNode.insertBefore(fresh, link.nextSibling);
  }
  function swapInline() {
    fetch(location.pathname, { cache: "no-store" })
      .then(function (r) { if (!r.ok) { throw new Error(String(r.status)); } return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelectorAll("head > style");
        var now = document.querySelectorAll("head > style");
        if (fresh.length !== now.length) { reload(); return; }
        Array.prototype.forEach.call(now, function (style, i) {
          if (style.textContent !== fresh[i].textContent) { style.textContent = fresh[i].textContent; }
        });
      })
      .catch(reload);
  }
  function restyle(data) {
    Array.prototype.forEach.call(document.querySelectorAll('link[rel="stylesheet"]:not([data-pinup-replaced])'), function (link) {
      var name = siteName(link.href);
      if (name && data.restyled.indexOf(name) >= 0) { swapSheet(link, name, data.version); }
    });
    if (data.restyled.indexOf(siteName(location.href)) >= 0) { swapInline(); }
  }

  function handle(data) {
    if (!data || typeof data !== "object") { return; }
    if (data.type === "build_error") { showError(String(data.message || "unknown error")); return; }
    if (data.type === "rebuilt" && typeof data.version === "string" && data.version !== version && inPlace(data)) {
      version = data.version;
      clearError();
      restyle(data);
      return;
    }
    if (data.type === "rebuilt") { if (!seen(data.version)) { clearError(); } return; }
    if (seen(data.version)) { return; }
    if (data.buildError) { showError(String(data.buildError)); } else { clearError(); }
  }

  function poll() {
    timer = null;
    fetch("/api/progress?site=1&since=" + encodeURIComponent(version || ""), { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.rebuilt && version !== null) { handle(data.rebuilt); }
        if (data) { handle(data); }
        if (data && useSSE) { connect(); } else { timer = setTimeout(poll, pollInterval); }
      })
      .catch(function () { timer = setTimeout(poll, pollInterval); });
  }

  function connect() {
    if (!useSSE) { poll(); return; }
    source = new EventSource("/api/events?site=1");
    source.onmessage = function (event) {
      try { handle(JSON.parse(event.data)); } catch (e) { /* not ours */ }
    };
    source.onerror = function () {
      if (source && source.readyState === EventSource.CLOSED) {  // the browser stopped retrying
        source = null;
        if (timer === null) { timer = setTimeout(poll, pollInterval); }
      }
    };
  }

  restoreScroll();
  window.pinupLive = { version: function () { return version; } };
  if (document.body) { connect(); } else { document.addEventListener("DOMContentLoaded", connect); }
})();
