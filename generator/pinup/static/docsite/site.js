/* pinup design-system site: theme toggle, copy to clipboard, offline search. No network, no dependencies. */
(function () {
  "use strict";
  var root = document.documentElement;

  // --- light / dark ---------------------------------------------------------------------
  function currentTheme() {
    var set = root.getAttribute("data-theme");
    if (set === "dark" || set === "light") return set;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function paintToggle() {
    var dark = currentTheme() === "dark";
    document.querySelectorAll("[data-theme-toggle]").forEach(function (btn) {
      btn.setAttribute("aria-pressed", dark ? "true" : "false");
      btn.textContent = dark ? "Light mode" : "Dark mode";
    });
  }
  document.querySelectorAll("[data-theme-toggle]").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var next = currentTheme() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem("pinup-theme", next); } catch (e) { /* storage may be off on file:// */ }
      paintToggle();
    });
  });
  paintToggle();

  // on narrow screens the nav scrolls sideways: bring the current page into view
  var current = document.querySelector(".pinup-nav [aria-current=page]");
  var navBox = current && current.closest("nav");
  if (navBox && navBox.scrollWidth > navBox.clientWidth) {
    navBox.scrollLeft = current.offsetLeft - (navBox.clientWidth - current.offsetWidth) / 2;
  }

  // --- copy to clipboard ------------------------------------------------------------------
  var live = document.createElement("p");
  live.className = "pinup-sr-only";
  live.id = "pinup-copy-status";
  live.setAttribute("aria-live", "polite");
  document.body.appendChild(live);

  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy failed"));
  }
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return fallbackCopy(text);
  }
  document.addEventListener("click", function (event) {
    var btn = event.target.closest ? event.target.closest(".pinup-copy") : null;
    if (!btn) return;
    var text = btn.getAttribute("data-copy");
    var target = btn.getAttribute("data-copy-target");
    if (text === null && target) {
      var el = document.getElementById(target);
      text = el ? el.textContent : "";
    }
    if (!btn.hasAttribute("data-label")) btn.setAttribute("data-label", btn.innerHTML);
    copyText(text || "").then(function () {
      btn.setAttribute("data-copied", "");
      btn.textContent = "Copied";
      live.textContent = "Copied " + (text || "").slice(0, 80);
    }, function () {
      btn.textContent = "Copy failed";
      live.textContent = "Copy failed";
    }).then(function () {
      clearTimeout(btn._pinupTimer);
      btn._pinupTimer = setTimeout(function () {
        btn.innerHTML = btn.getAttribute("data-label");
        btn.removeAttribute("data-copied");
      }, 1500);
    });
  });

  // --- offline search ---------------------------------------------------------------------
  var form = document.querySelector("[data-search]");
  if (!form) return;
  var input = form.querySelector("input");
  var list = form.querySelector("ul");
  var status = document.getElementById("pinup-search-status");
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var first = list.querySelector("a");
    if (first) first.focus();
  });
  function search(query) {
    var index = window.PINUP_SEARCH || [];
    var q = query.trim().toLowerCase();
    list.textContent = "";
    if (!q) { list.hidden = true; status.textContent = ""; return; }
    var terms = q.split(/\s+/);
    var scored = [];
    index.forEach(function (e) {
      var title = (e.t || "").toLowerCase();
      var hay = title + " " + (e.x || "").toLowerCase() + " " + (e.k || "");
      var score = 0;
      for (var i = 0; i < terms.length; i++) {
        if (hay.indexOf(terms[i]) === -1) return;
        score += title === terms[i] ? 10 : title.indexOf(terms[i]) === 0 ? 6 : title.indexOf(terms[i]) > -1 ? 4 : 1;
      }
      if (e.k === "page" || e.k === "section") score += 1;
      scored.push([score, e]);
    });
    scored.sort(function (a, b) { return b[0] - a[0]; });
    scored.slice(0, 20).forEach(function (pair) {
      var e = pair[1];
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = e.u;
      a.textContent = e.t;
      var small = document.createElement("small");
      small.textContent = e.k + (e.x ? " · " + e.x.slice(0, 90) : "");
      a.appendChild(small);
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = scored.length === 0;
    status.textContent = scored.length ? scored.length + " results" : "No results";
  }
  input.addEventListener("input", function () { search(input.value); });
  form.addEventListener("keydown", function (e) {
    var links = Array.prototype.slice.call(list.querySelectorAll("a"));
    var at = links.indexOf(document.activeElement);
    if (e.key === "ArrowDown" && links.length) { e.preventDefault(); links[Math.min(at + 1, links.length - 1)].focus(); }
    else if (e.key === "ArrowUp" && links.length) { e.preventDefault(); if (at <= 0) input.focus(); else links[at - 1].focus(); }
    else if (e.key === "Escape") { list.hidden = true; input.focus(); }
  });
})();
