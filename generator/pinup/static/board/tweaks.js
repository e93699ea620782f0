/* Tweaks: typed controls for the DESIGN.md's key tokens, applied live to the HTML variants as
 * CSS custom properties (through each variant's agent, over postMessage) and sent as `tweaks`. */
(function () {
  "use strict";
  var B = window.pinupBoard;
  var $ = B.$, $$ = B.$$;
  var items = B.cfg.tweakables || [];
  if (!items.length || !$("#tweaks")) { return; }
  var byToken = {};
  items.forEach(function (t) { byToken[t.token] = t; });
  var values = {}; /* token -> current value (only tweaked tokens) */

  /* custom-property names a variant may use for a token; colours and fonts also match by value */
  function names(token) {
    var p = token.split(".");
    var n = p[1] || "";
    if (p[0] === "colors") { return ["--" + n, "--color-" + n, "--colors-" + n]; }
    if (p[0] === "rounded") { return ["--rounded-" + n, "--radius-" + n, "--r-" + n]; }
    if (p[0] === "spacing") { return ["--spacing-" + n, "--space-" + n, "--sp-" + n]; }
    if (p[0] === "typography" && p[2] === "fontSize") { return ["--" + n + "-font-size", "--typography-" + n + "-font-size", "--font-size-" + n]; }
    if (p[0] === "typography" && p[2] === "fontFamily") { return ["--" + n + "-font-family", "--font-" + n]; }
    return [];
  }
  function messageItems() {
    return Object.keys(values).map(function (token) {
      var t = byToken[token];
      return { token: token, from: t.value, to: values[token], names: names(token),
               byValue: t.kind === "color" || t.kind === "choice" };
    });
  }
  function applyAll() {
    B.cfg.variants.forEach(function (id) {
      if (B.cfg.kinds[id] === "html") { B.postToFrame(id, { type: "tweak", items: messageItems() }); }
    });
    var n = Object.keys(values).length;
    $("#tweaks-status").textContent = n ? n + " token" + (n === 1 ? "" : "s") + " tweaked" : "";
  }
  function read(input) {
    var t = byToken[input.getAttribute("data-token")];
    if (t.kind === "dimension" || t.kind === "number") { return String(Number(input.value)) + (t.unit || ""); }
    return t.kind === "color" ? input.value.toLowerCase() : input.value;
  }
  function show(input, value) {
    var out = input.parentNode.querySelector(".tweak-value");
    if (out) { out.textContent = value; }
  }
  function setInput(input, value) {
    var t = byToken[input.getAttribute("data-token")];
    input.value = (t.kind === "dimension" || t.kind === "number") ? String(parseFloat(value)) : value;
    show(input, value);
  }
  $$(".tweak-input").forEach(function (input) {
    input.addEventListener("input", function () {
      var token = input.getAttribute("data-token");
      var value = read(input);
      if (value === byToken[token].value) { delete values[token]; } else { values[token] = value; }
      show(input, value);
      applyAll();
      B.saveDraft();
    });
  });
  $("#tweaks-reset").addEventListener("click", function () {
    values = {};
    $$(".tweak-input").forEach(function (input) { setInput(input, byToken[input.getAttribute("data-token")].value); });
    applyAll();
    B.saveDraft();
  });
  /* the DESIGN.md's values changed under the page (same controls): new defaults, and the controls
     the reviewer has not touched show them; false when the controls themselves changed */
  B.retoken = function (next) {
    var same = next.length === items.length && next.every(function (t, i) {
      return t.token === items[i].token && t.kind === items[i].kind;
    });
    if (!same) { return false; }
    next.forEach(function (t) { byToken[t.token] = t; });
    items = next;
    $$(".tweak-input").forEach(function (input) {
      var token = input.getAttribute("data-token");
      if (!(token in values)) { setInput(input, byToken[token].value); }
      else if (values[token] === byToken[token].value) { delete values[token]; }
    });
    applyAll();
    return true;
  };
  B.onFrameReady = function (id) {
    if (Object.keys(values).length && B.cfg.kinds[id] === "html") { B.postToFrame(id, { type: "tweak", items: messageItems() }); }
  };
  B.parts.push({
    save: function (d) { d.tweaks = Object.assign({}, values); },
    restore: function (d) {
      values = {};
      Object.keys(d.tweaks || {}).forEach(function (token) {
        if (byToken[token] && typeof d.tweaks[token] === "string") { values[token] = d.tweaks[token]; }
      });
      $$(".tweak-input").forEach(function (input) {
        var token = input.getAttribute("data-token");
        setInput(input, values[token] || byToken[token].value);
      });
      applyAll();
    },
    collect: function (body) { if (Object.keys(values).length) { body.tweaks = Object.assign({}, values); } },
    dirty: function () { return Object.keys(values).length > 0; },
    lock: function () { $$(".tweak-input").forEach(function (i) { i.disabled = true; }); }
  });
})();
