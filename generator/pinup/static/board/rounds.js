/* The round history: open an earlier round read-only, and compare one of its variants with one of this
 * round's, side by side, as an overlay (a slider sets how much of this round shows) or as a difference
 * (unchanged pixels go black). Everything is drawn from the files the board was published with, so it
 * works offline and from file://. An earlier round's feedback comes from items.js when there is an endpoint. */
(function () {
  "use strict";
  var B = window.pinupBoard;
  var $ = B.$, $$ = B.$$, el = B.el;
  var rounds = B.cfg.rounds || [];
  var current = B.cfg.current || [];
  if (!rounds.length || !$("#rounds")) { return; }
  var STATUS = { open: "Open", in_progress: "In progress", resolved: "Resolved", wont_fix: "Won't fix",
                 needs_clarification: "Needs clarification" };
  var mode = "side";

  function roundOf(n) {
    for (var i = 0; i < rounds.length; i++) { if (rounds[i].round === n) { return rounds[i]; } }
    return null;
  }
  function find(list, id) {
    for (var i = 0; i < list.length; i++) { if (list[i].id === id) { return list[i]; } }
    return null;
  }

  /* ---------- the timeline: each earlier round opens read-only ---------- */
  $$(".round-open").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var open = btn.getAttribute("aria-expanded") !== "true";
      btn.setAttribute("aria-expanded", String(open));
      var view = document.getElementById(btn.getAttribute("aria-controls"));
      if (view) {
        view.hidden = !open;
        /* an earlier round's files load when it is first opened, not with the page */
        $$("iframe[data-src]", view).forEach(function (f) { f.setAttribute("src", f.getAttribute("data-src")); f.removeAttribute("data-src"); });
      }
      fit();
    });
  });

  function showItems(items) {
    rounds.forEach(function (r) {
      var list = $('.round-item-list[data-round="' + r.round + '"]');
      var none = $('.round-items-none[data-round="' + r.round + '"]');
      if (!list) { return; }
      list.textContent = "";
      var mine = items.filter(function (it) { return it && it.round === r.round; });
      mine.forEach(function (it) {
        var li = el("li", "", { "data-item": String(it.n) });
        var head = el("p", "", { "class": "item-head" });
        head.appendChild(el("strong", "#" + it.n + (it.variant ? " on " + it.variant : "")));
        head.appendChild(document.createTextNode(" "));
        head.appendChild(el("span", STATUS[it.status] || String(it.status), { "class": "item-status", "data-status": String(it.status) }));
        li.appendChild(head);
        if (it.text) { li.appendChild(el("p", it.text, { "class": "item-text" })); }
        if (it.summary) { li.appendChild(el("p", "What was done: " + it.summary, { "class": "item-summary" })); }
        list.appendChild(li);
      });
      if (none) {
        none.textContent = mine.length ? "" : "No pins or comments were left on this round.";
        none.hidden = !!mine.length;
      }
    });
  }
  document.addEventListener("pinup:items", function (ev) { showItems(ev.detail || []); });

  /* ---------- compare ---------- */
  B.rounds = { showItems: showItems };
  if (!$("#compare")) { return; }
  var roundSel = $("#compare-round"), beforeSel = $("#compare-before"), afterSel = $("#compare-after");
  var mix = $("#compare-mix"), mixOut = $("#compare-mix-value"), stage = $("#compare-stage"), hint = $("#compare-hint");

  function fillBefore() {
    var r = roundOf(Number(roundSel.value));
    var keep = beforeSel.value;
    beforeSel.textContent = "";
    (r ? r.variants : []).forEach(function (v) {
      beforeSel.appendChild(el("option", v.id + (v.label ? ": " + v.label : "") + (r.pick === v.id ? " (the pick)" : ""), { value: v.id }));
    });
    /* first the round's pick, when reviewers made one; else the same slot as this round's variant */
    var want = r && r.pick && !keep ? r.pick : (find(r ? r.variants : [], afterSel.value) ? afterSel.value : keep);
    if (want && find(r ? r.variants : [], want)) { beforeSel.value = want; }
  }

  function pane(v, label, which) {
    var box = el("figure", "", { "class": "compare-pane " + which });
    box.appendChild(el("figcaption", label));
    var frame = el("div", "", { "class": "compare-frame" });
    var media;
    if (v.kind === "html") {
      media = el("iframe", "", { sandbox: "allow-scripts", title: label, referrerpolicy: "no-referrer", width: String(v.width) });
      if (v.srcdoc !== null && v.srcdoc !== undefined) { media.setAttribute("srcdoc", v.srcdoc); } else { media.setAttribute("src", v.src); }
    } else {
      media = el("img", "", { src: v.src, alt: label, draggable: "false" });
    }
    media.style.width = v.width + "px";
    frame.appendChild(media);
    box.appendChild(frame);
    return box;
  }

  function fit() {
    $$(".compare-frame", stage).forEach(function (frame) {
      var media = frame.firstChild;
      var width = parseFloat(media.style.width) || 1440;
      var room = frame.parentNode.clientWidth || stage.clientWidth || width;
      var scale = Math.min(1, room / width);
      var tall = media.tagName === "IMG" ? (media.naturalHeight || 600) * (width / (media.naturalWidth || width)) : Math.round(Math.max(width * 0.75, 640));
      if (media.tagName === "IFRAME") { media.style.height = tall + "px"; }
      media.style.transform = "scale(" + scale + ")";
      frame.style.width = Math.round(width * scale) + "px";
      frame.style.height = Math.round(tall * scale) + "px";
    });
    /* an earlier round's thumbnails: the whole width of each variant in its card */
    $$(".round-frame iframe").forEach(function (media) {
      var width = Number(media.getAttribute("width")) || 1440;
      var box = media.parentNode;
      var scale = Math.min(1, (box.clientWidth || width) / width);
      media.style.width = width + "px";
      media.style.height = Math.round(box.clientHeight / scale) + "px";
      media.style.transform = "scale(" + scale + ")";
    });
  }

  function draw() {
    var r = roundOf(Number(roundSel.value));
    var before = r ? find(r.variants, beforeSel.value) : null;
    var after = find(current, afterSel.value);
    stage.textContent = "";
    stage.setAttribute("data-mode", mode);
    if (!before || !after) {
      hint.textContent = "Choose a variant of each round to compare.";
      return;
    }
    var same = before.id === after.id;
    var picked = r.pick === before.id;
    hint.textContent = "Round " + r.round + ", variant " + before.id + (picked ? " (the pick)" : "") + " against round " + B.cfg.round + ", variant " + after.id +
      (same ? " (the same slot)" : "") +
      (mode === "diff" ? ". Black is unchanged; anything bright changed." : mode === "overlay" ? ". Move the slider to fade between them." : ".");
    stage.appendChild(pane(before, "Round " + r.round + ": " + before.id, "before"));
    var top = pane(after, "Round " + B.cfg.round + ": " + after.id, "after");
    stage.appendChild(top);
    if (mode === "overlay") { top.style.opacity = String(Number(mix.value) / 100); }
    var imgs = $$("img", stage);
    imgs.forEach(function (img) { img.addEventListener("load", fit); });
    fit();
  }

  $$(".compare-mode").forEach(function (btn) {
    btn.addEventListener("click", function () {
      mode = btn.getAttribute("data-mode");
      $$(".compare-mode").forEach(function (b) { b.setAttribute("aria-pressed", String(b === btn)); });
      mix.hidden = mode !== "overlay";
      $(".compare-mix-label").hidden = mode !== "overlay";
      draw();
    });
  });
  mix.addEventListener("input", function () {
    mixOut.textContent = mix.value + "%";
    var top = $(".compare-pane.after", stage);
    if (top && mode === "overlay") { top.style.opacity = String(Number(mix.value) / 100); }
  });
  roundSel.addEventListener("change", function () { fillBefore(); draw(); });
  beforeSel.addEventListener("change", draw);
  afterSel.addEventListener("change", function () {
    var r = roundOf(Number(roundSel.value));
    if (r && find(r.variants, afterSel.value)) { beforeSel.value = afterSel.value; }
    draw();
  });
  window.addEventListener("resize", fit);
  B.rounds.draw = draw;
  fillBefore();
  draw();
})();
