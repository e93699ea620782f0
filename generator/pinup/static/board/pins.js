/* Pins: point at a spot of a variant and attach a note with a severity.
 * HTML variants: the variant's agent script (added at build time) reports the clicked element's
 * selector, text, excerpt and position over postMessage; the sandbox stays closed. Messages are
 * accepted only from a variant frame's own window and only with this page's nonce.
 * Image variants: drag a box over the image. Every pin is also in a list, editable by keyboard.
 * A live variant (`pinup review`: an http(s) frame on another origin) is answered on its origin
 * only, its messages must come from that origin and have the expected shape, and its pins keep
 * the page path and window size, so markers show on the page they were placed on. */
(function () {
  "use strict";
  var B = window.pinupBoard;
  var $ = B.$, $$ = B.$$, el = B.el, esc = B.cssEscape;
  var limits = B.limits;
  var MAX_PINS = limits.pins || 50;
  var nonce = B.uuid4().replace(/-/g, "");
  var pins = [];
  var rects = {};      /* pin id -> {x, y, w, h} in the frame's CSS px, or null when not found */
  var views = {};      /* variant id -> {w, h} the frame's viewport */
  var editing = null;  /* {variant, pin (existing) | draft (new)} */
  var modeOn = null;   /* variant id in pin mode */
  var paths = {};      /* live variant id -> the path its frame shows now */
  B.pinNonce = nonce;

  function frameOf(id) { return $('.frame-wrap[data-variant="' + esc(id) + '"] iframe'); }
  function variantOfSource(source) {
    var found = null;
    $$("iframe.variant-frame").forEach(function (f) {
      if (f.contentWindow === source) { found = f.closest(".frame-wrap").getAttribute("data-variant"); }
    });
    return found;
  }
  function liveOrigin(id) {
    var f = frameOf(id);
    var src = f && f.getAttribute("src");
    if (!src) { return null; }
    var u = new URL(src, location.href);
    return /^https?:$/.test(u.protocol) && u.origin !== location.origin ? u.origin : null;
  }
  function postTo(id, msg) {
    var f = frameOf(id);
    if (!f || !f.contentWindow) { return; }
    msg.pinup = 1;
    msg.nonce = nonce;
    f.contentWindow.postMessage(msg, liveOrigin(id) || "*"); /* sandboxed frames have the opaque origin "null" */
  }
  function num(v) { return typeof v === "number" && isFinite(v); }
  function liveShape(d) {
    var ok = typeof d.type === "string" && typeof d.path === "string" && d.path.charAt(0) === "/" && d.path.length <= 1024;
    if (d.view) { ok = ok && num(d.view.w) && num(d.view.h); }
    if (d.rect) { ok = ok && num(d.rect.x) && num(d.rect.y) && num(d.rect.w) && num(d.rect.h); }
    return ok;
  }
  B.postToFrame = postTo;
  function clamp(v) { return Math.max(0, Math.min(1, v)); }
  function boxFrom(rect, view) {
    var w = view.w || 1, h = view.h || 1;
    var x = clamp(rect.x / w), y = clamp(rect.y / h);
    var bw = clamp(Math.min(rect.w / w, 1 - x)), bh = clamp(Math.min(rect.h / h, 1 - y));
    var r = function (n) { return Math.round(n * 10000) / 10000; };
    x = r(x); y = r(y); bw = Math.max(0, Math.min(r(bw), 1 - x)); bh = Math.max(0, Math.min(r(bh), 1 - y));
    return { x: x, y: y, w: r(bw), h: r(bh) };
  }
  function number(pin) { return pins.indexOf(pin) + 1; }
  function newId() { return "p" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36); }

  /* ---------- pin mode ---------- */
  function setMode(id) {
    if (B.state.locked) { id = null; }
    var prev = modeOn;
    modeOn = id;
    document.body.classList.toggle("is-pinning", !!id);
    $$(".variant").forEach(function (card) {
      var on = card.getAttribute("data-variant") === id;
      card.classList.toggle("is-pinning", on);
      $(".pin-mode-btn", card).setAttribute("aria-pressed", String(on));
      $(".pin-hint", card).hidden = !on;
    });
    if (prev && prev !== id) { postTo(prev, { type: "pinmode", on: false }); }
    if (id) { postTo(id, { type: "pinmode", on: true }); }
  }
  $$(".pin-mode-btn").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var id = btn.getAttribute("data-variant");
      setMode(modeOn === id ? null : id);
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && modeOn) { e.preventDefault(); var id = modeOn; setMode(null); focusMode(id); }
  });
  function focusMode(id) { var b = $('.pin-mode-btn[data-variant="' + esc(id) + '"]'); if (b) { b.focus(); } }

  /* image variants: drag a box (a click makes a small box around the point) */
  $$('.variant[data-kind=image] .pin-layer').forEach(function (layer) {
    var id = layer.getAttribute("data-variant");
    var start = null, box = null;
    function point(e) {
      var r = layer.getBoundingClientRect();
      return { x: clamp((e.clientX - r.left) / (r.width || 1)), y: clamp((e.clientY - r.top) / (r.height || 1)) };
    }
    layer.addEventListener("pointerdown", function (e) {
      if (modeOn !== id) { return; }
      e.preventDefault();
      start = point(e);
      box = el("div", "", { "class": "pin-box is-draft" });
      layer.appendChild(box);
      layer.setPointerCapture(e.pointerId);
    });
    layer.addEventListener("pointermove", function (e) {
      if (!start) { return; }
      var p = point(e);
      var b = { x: Math.min(start.x, p.x), y: Math.min(start.y, p.y), w: Math.abs(p.x - start.x), h: Math.abs(p.y - start.y) };
      place(box, b);
    });
    layer.addEventListener("pointerup", function (e) {
      if (!start) { return; }
      var p = point(e);
      var b = { x: Math.min(start.x, p.x), y: Math.min(start.y, p.y), w: Math.abs(p.x - start.x), h: Math.abs(p.y - start.y) };
      if (b.w < 0.01 && b.h < 0.01) { b = { x: clamp(start.x - 0.02), y: clamp(start.y - 0.02), w: 0.04, h: 0.04 }; }
      start = null;
      if (box) { box.remove(); box = null; }
      setMode(null);
      openEditor(id, null, { box: boxFrom({ x: b.x, y: b.y, w: b.w, h: b.h }, { w: 1, h: 1 }) }, "the marked area");
    });
  });
  function place(node, b) {
    node.style.left = (b.x * 100) + "%"; node.style.top = (b.y * 100) + "%";
    node.style.width = (b.w * 100) + "%"; node.style.height = (b.h * 100) + "%";
  }

  /* ---------- messages from the variant agents ---------- */
  window.addEventListener("message", function (ev) {
    var id = variantOfSource(ev.source);
    var d = ev.data;
    if (!id || !d || d.pinup !== 1) { return; }
    var live = liveOrigin(id);
    if (live && (ev.origin !== live || (d.type !== "ready" && !liveShape(d)))) { return; }
    if (d.type === "ready") { postTo(id, { type: "init", nonce: nonce }); return; }
    if (d.nonce !== nonce) { return; }
    if (d.view) { views[id] = d.view; }
    if (live && paths[id] !== d.path) { paths[id] = d.path; watch(id); render(); }
    if (d.type === "hello") { sync(id); if (B.onFrameReady) { B.onFrameReady(id); } return; }
    if (d.type === "rects") {
      Object.keys(d.rects || {}).forEach(function (k) { rects[k] = d.rects[k]; });
      render();
      return;
    }
    if (d.type === "escape") { setMode(null); focusMode(id); return; }
    if (d.type === "picked" && modeOn === id) {
      setMode(null);
      openEditor(id, null, {
        box: boxFrom(d.rect || {}, d.view || views[id] || { w: 1, h: 1 }),
        selector: typeof d.selector === "string" ? d.selector.slice(0, limits.pinSelector || 1024) : undefined,
        text: typeof d.text === "string" ? d.text.slice(0, limits.pinText || 200) : undefined,
        html: typeof d.html === "string" ? d.html.slice(0, limits.pinHtml || 800) : undefined,
        path: live ? d.path : undefined,
        viewport: live && d.view ? { w: Math.max(1, Math.round(d.view.w)), h: Math.max(1, Math.round(d.view.h)) } : undefined
      }, d.text ? "\u201c" + d.text.slice(0, 60) + "\u201d" : "the chosen element");
    }
  });
  $$("iframe.variant-frame").forEach(function (f) {
    f.addEventListener("load", function () {
      var id = f.closest(".frame-wrap").getAttribute("data-variant");
      postTo(id, { type: "init", nonce: nonce });
    });
  });
  function sync(id) {
    if (modeOn === id) { postTo(id, { type: "pinmode", on: true }); }
    watch(id);
  }
  function watch(id) {
    postTo(id, { type: "watch", pins: pins.filter(function (p) { return p.variant === id && p.selector && elsewhere(p) === false; })
      .map(function (p) { return { id: p.id, selector: p.selector }; }) });
  }

  /* a live variant's pin placed on another page than the one its frame shows now */
  function elsewhere(pin) { return !!(pin.path && paths[pin.variant] && pin.path !== paths[pin.variant]); }

  /* ---------- markers: on the element's current position, else on the stored box ---------- */
  function render() {
    $$(".pin-layer").forEach(function (layer) { layer.textContent = ""; });
    pins.forEach(function (pin) {
      var layer = $('.pin-layer[data-variant="' + esc(pin.variant) + '"]');
      if (!layer || elsewhere(pin)) { return; }
      var frame = B.frames[pin.variant] || { scale: 1, width: layer.clientWidth, height: layer.clientHeight };
      var r = rects[pin.id];
      var left, top;
      if (r && frameOf(pin.variant)) {
        left = (r.x + Math.min(12, r.w / 2)) * frame.scale; top = (r.y + Math.min(12, r.h / 2)) * frame.scale;
      } else {
        left = pin.box.x * layer.clientWidth; top = pin.box.y * layer.clientHeight;
        if (!frameOf(pin.variant)) {
          var outline = el("div", "", { "class": "pin-box" });
          place(outline, pin.box);
          layer.appendChild(outline);
        }
      }
      if (top < 0 || left < 0 || top > layer.clientHeight || left > layer.clientWidth) { return; } /* scrolled away */
      var n = number(pin);
      var marker = el("button", String(n), { type: "button", "class": "pin-marker", "data-pin": pin.id,
        "data-severity": pin.severity, "aria-label": "Pin " + n + " (" + pin.severity + "): " + pin.note, tabindex: "-1" });
      marker.style.left = left + "px";
      marker.style.top = top + "px";
      marker.addEventListener("click", function () { openEditor(pin.variant, pin); });
      layer.appendChild(marker);
    });
  }
  B.onLayout(render);

  /* ---------- the list and the editor ---------- */
  function renderList() {
    B.cfg.variants.forEach(function (id) {
      var list = $('.pin-list[data-variant="' + esc(id) + '"]');
      if (!list) { return; }
      list.textContent = "";
      var mine = pins.filter(function (p) { return p.variant === id; });
      mine.forEach(function (pin) {
        var n = number(pin);
        var li = el("li", "", { value: String(n), "data-pin": pin.id });
        li.appendChild(el("span", pin.severity, { "class": "pin-sev" }));
        li.appendChild(document.createTextNode(": "));
        li.appendChild(el("span", pin.note, { "class": "pin-note-text" }));
        var where = pin.text ? "on \u201c" + pin.text.slice(0, 80) + "\u201d" : (pin.selector ? "on " + pin.selector : "on the whole variant");
        if (!pin.selector && B.cfg.kinds[id] === "image" && !(pin.box.w === 1 && pin.box.h === 1)) { where = "on a marked area"; }
        if (pin.path) { where += " (page " + pin.path + ")"; }
        li.appendChild(el("span", where, { "class": "pin-where" }));
        var edit = el("button", "Edit", { type: "button", "class": "pin-edit", "aria-label": "Edit pin " + n });
        var remove = el("button", "Remove", { type: "button", "class": "pin-remove", "aria-label": "Remove pin " + n });
        edit.addEventListener("click", function () { openEditor(id, pin); });
        remove.addEventListener("click", function () {
          pins.splice(pins.indexOf(pin), 1);
          delete rects[pin.id];
          changed(id);
          var next = $('.pin-list[data-variant="' + esc(id) + '"] .pin-edit') || $('.pin-add-btn[data-variant="' + esc(id) + '"]');
          if (next) { next.focus(); }
        });
        if (B.state.locked) { edit.disabled = true; remove.disabled = true; }
        li.appendChild(el("span", " "));
        li.appendChild(edit);
        li.appendChild(remove);
        if (B.pinControls) { B.pinControls(li, pin); }
        list.appendChild(li);
      });
      $('.pin-count[data-variant="' + esc(id) + '"]').textContent = mine.length ? "(" + mine.length + ")" : "(none)";
    });
  }
  function changed(id) {
    renderList();
    render();
    if (id) { watch(id); } else { B.cfg.variants.forEach(watch); }
    B.saveDraft();
  }
  function openEditor(id, pin, draft, what) {
    var box = $('.pin-editor[data-variant="' + esc(id) + '"]');
    editing = { variant: id, pin: pin, draft: draft };
    $(".pin-editor-title", box).textContent = pin ? "Edit pin " + number(pin) : "New pin on " + (what || "the whole of " + id);
    $(".pin-note", box).value = pin ? pin.note : "";
    $(".pin-severity", box).value = pin ? pin.severity : "major";
    $(".pin-error", box).hidden = true;
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
    $(".pin-note", box).focus();
  }
  function closeEditor(id, focusBack) {
    var box = $('.pin-editor[data-variant="' + esc(id) + '"]');
    box.hidden = true;
    editing = null;
    if (focusBack) { focusBack.focus(); }
  }
  $$(".pin-editor").forEach(function (box) {
    var id = box.getAttribute("data-variant");
    $(".pin-save", box).addEventListener("click", function () {
      if (!editing) { return; }
      var note = $(".pin-note", box).value.trim();
      var err = $(".pin-error", box);
      if (!note) { err.textContent = "Write a note for this pin."; err.hidden = false; $(".pin-note", box).focus(); return; }
      if (!editing.pin && pins.length >= MAX_PINS) { err.textContent = "You can add " + MAX_PINS + " pins at most."; err.hidden = false; return; }
      var pin = editing.pin;
      if (!pin) {
        pin = Object.assign({ id: newId(), variant: id }, editing.draft);
        pins.push(pin);
      }
      pin.note = note;
      pin.severity = $(".pin-severity", box).value;
      closeEditor(id);
      changed(id);
      var edit = $('.pin-list[data-variant="' + esc(id) + '"] li[data-pin="' + esc(pin.id) + '"] .pin-edit');
      if (edit) { edit.focus(); }
    });
    $(".pin-cancel", box).addEventListener("click", function () {
      closeEditor(id, $('.pin-add-btn[data-variant="' + esc(id) + '"]'));
    });
    box.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); closeEditor(id, $('.pin-add-btn[data-variant="' + esc(id) + '"]')); }
    });
  });
  $$(".pin-add-btn").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var id = btn.getAttribute("data-variant");
      var draft = { box: { x: 0, y: 0, w: 1, h: 1 } };
      if (paths[id]) { draft.path = paths[id]; draft.viewport = views[id] ? { w: Math.max(1, Math.round(views[id].w)), h: Math.max(1, Math.round(views[id].h)) } : undefined; }
      openEditor(id, null, draft);
    });
  });

  function clean(pin) {
    var out = { id: pin.id, variant: pin.variant, note: pin.note, severity: pin.severity, box: pin.box };
    ["selector", "text", "html", "path", "viewport"].forEach(function (k) { if (pin[k]) { out[k] = pin[k]; } });
    return out;
  }
  B.parts.push({
    save: function (d) { d.pins = pins.map(clean); },
    restore: function (d) {
      pins = (d.pins || []).filter(function (p) { return p && B.cfg.variants.indexOf(p.variant) >= 0 && p.box; }).map(clean);
      changed(null);
    },
    collect: function (body) { if (pins.length) { body.pins = pins.map(clean); } },
    dirty: function () { return pins.length > 0 || !!editing; },
    lock: function () { setMode(null); renderList(); }
  });
  B.pins = function () { return pins.map(clean); };
})();
