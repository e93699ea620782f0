/* Board layout: device frames with a bezel, Grid / Large / Focus views.
 * A variant opens in the device its board.yaml declares. A phone variant on a screen narrower
 * than a phone is laid out at the screen's width, unscaled, so it is readable as it is. */
(function () {
  "use strict";
  var B = window.pinupBoard;
  var $ = B.$, $$ = B.$$;
  var WIDTHS = { phone: 375, tablet: 768, desktop: 1440 };
  var HEIGHTS = { phone: 812, tablet: 1024, desktop: 900 };
  var variantsEl = $("#variants");
  var layoutListeners = [];
  B.onLayout = function (fn) { layoutListeners.push(fn); };
  B.frames = {}; /* variant id -> {scale, width, height} of its screen, in CSS px of the board */

  function bezel(wrap) {
    var cs = getComputedStyle(wrap);
    return (parseFloat(cs.paddingLeft) || 0) + (parseFloat(cs.paddingRight) || 0) +
      (parseFloat(cs.borderLeftWidth) || 0) + (parseFloat(cs.borderRightWidth) || 0);
  }
  function view() { return variantsEl.getAttribute("data-view"); }

  function fitOne(wrap) {
    var id = wrap.getAttribute("data-variant");
    var screen = $(".screen", wrap);
    var frame = $("iframe", wrap);
    var stage = wrap.parentNode;
    if (!frame) {
      var img = $("img", wrap);
      B.frames[id] = { scale: 1, width: img ? img.clientWidth : 0, height: img ? img.clientHeight : 0 };
      return;
    }
    var device = wrap.getAttribute("data-device");
    var width = WIDTHS[device] || 1440;
    var avail = Math.max(200, stage.clientWidth - bezel(wrap));
    var focus = view() === "focus";
    var layoutWidth = width;
    var scale = Math.min(1, avail / width);
    if (device === "phone" && avail < width) {
      layoutWidth = Math.max(280, Math.floor(avail)); /* narrow screen: the phone's own width, unscaled */
      scale = Math.min(1, avail / layoutWidth);
    }
    var natural = HEIGHTS[device] || 900;
    var cap = focus ? Math.max(420, window.innerHeight - 140) : (device === "phone" ? Math.max(480, Math.min(812, window.innerHeight - 80)) : 720);
    var height = Math.round(Math.min(natural * scale, cap));
    screen.style.width = Math.round(layoutWidth * scale) + "px";
    screen.style.height = height + "px";
    frame.style.width = layoutWidth + "px";
    frame.style.height = Math.ceil(height / scale) + "px";
    frame.style.transform = scale === 1 ? "none" : "scale(" + scale + ")";
    wrap.setAttribute("data-scale", scale.toFixed(3));
    B.frames[id] = { scale: scale, width: layoutWidth * scale, height: height };
  }
  function fitFrames() {
    $$(".frame-wrap").forEach(fitOne);
    layoutListeners.forEach(function (fn) { fn(); });
  }
  B.fitFrames = fitFrames;

  /* ---------- views ---------- */
  var order = B.cfg.variants;
  var focused = order[0];
  var before = "grid";
  function setView(name) {
    if (name === "focus" && view() !== "focus") { before = view(); }
    variantsEl.setAttribute("data-view", name);
    $$(".view-btn").forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-view") === name)); });
    $(".focus-nav").hidden = name !== "focus";
    $$(".variant").forEach(function (card) {
      var on = name === "focus" && card.getAttribute("data-variant") === focused;
      card.classList.toggle("is-focused", on);
      var btn = $(".focus-btn", card);
      btn.setAttribute("aria-pressed", String(on));
      btn.textContent = on ? "Leave focus" : "Focus";
    });
    if (name === "focus") {
      var card = $('.variant[data-variant="' + B.cssEscape(focused) + '"]');
      if (card && card.getBoundingClientRect().top < 0) { card.scrollIntoView({ block: "start" }); }
      var idx = order.indexOf(focused);
      $("#focus-label").textContent = "Variant " + focused + " (" + (idx + 1) + " of " + order.length + ")";
    }
    fitFrames();
  }
  B.focusVariant = function (id) { focused = id; setView("focus"); };
  $$(".view-btn").forEach(function (btn) {
    btn.addEventListener("click", function () { setView(btn.getAttribute("data-view")); });
  });
  $$(".focus-btn").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var id = btn.getAttribute("data-variant");
      if (view() === "focus" && focused === id) { setView(before === "focus" ? "grid" : before); return; }
      focused = id;
      setView("focus");
      btn.focus();
    });
  });
  function step(delta) {
    var idx = (order.indexOf(focused) + delta + order.length) % order.length;
    focused = order[idx];
    setView("focus");
  }
  $("#focus-prev").addEventListener("click", function () { step(-1); });
  $("#focus-next").addEventListener("click", function () { step(1); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && view() === "focus" && !e.defaultPrevented && !document.body.classList.contains("is-pinning")) {
      var btn = $('.focus-btn[data-variant="' + B.cssEscape(focused) + '"]');
      setView(before === "focus" ? "grid" : before);
      if (btn) { btn.focus(); }
    }
  });

  /* ---------- device frames ---------- */
  $$(".device-btn").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var id = btn.getAttribute("data-variant");
      var device = btn.getAttribute("data-device");
      var wrap = $('.frame-wrap[data-variant="' + B.cssEscape(id) + '"]');
      wrap.setAttribute("data-device", device);
      wrap.setAttribute("data-width", String(WIDTHS[device]));
      var frame = $("iframe", wrap);
      if (frame) { frame.setAttribute("width", String(WIDTHS[device])); }
      $$('.device-btn[data-variant="' + B.cssEscape(id) + '"]').forEach(function (b) { b.setAttribute("aria-pressed", String(b === btn)); });
      fitFrames();
    });
  });
  window.addEventListener("resize", fitFrames);
  $$("img.variant-image").forEach(function (img) { img.addEventListener("load", fitFrames); });
  if (window.ResizeObserver) {
    var ro = new ResizeObserver(function () { fitFrames(); });
    $$(".frame-stage").forEach(function (s) { ro.observe(s); });
  }
  fitFrames();
})();
