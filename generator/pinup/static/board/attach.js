/* Image attachments: attach, paste or drop an image on a variant's comment, the overall note or a pin.
 * The files stay in this page's memory until the reviewer sends: each is then uploaded on its own
 * (POST /api/attachments, which checks it by its bytes and stores it without its metadata), and the
 * feedback body names what the server answered. A refused file stops the sending with a message that
 * names it; the draft and the other files stay. Names only go through textContent. */
(function () {
  "use strict";
  var B = window.pinupBoard;
  var $ = B.$, $$ = B.$$, el = B.el, esc = B.cssEscape;
  var MAX = 5;
  var ACCEPT = "image/png,image/jpeg,image/webp";
  var items = []; /* {target: "variant:A" | "pin:<id>" | "overall", file: File, file_ref: answer.file once uploaded} */

  /* for the button's name: distinct from the comment's own label, which names its field */
  function label(target, pinNumber) {
    if (target === "overall") { return "the overall note"; }
    var parts = target.split(":");
    return parts[0] === "pin" ? "pin " + (pinNumber || "") : parts[1] + "\u2019s comment";
  }
  function listFor(target) { return $('.attach-list[data-target="' + esc(target) + '"]'); }
  function render(target) {
    var list = listFor(target);
    if (!list) { return; }
    list.textContent = "";
    items.filter(function (a) { return a.target === target; }).forEach(function (a) {
      var li = el("li", "", { "class": "attach-item" });
      li.appendChild(el("span", a.file.name || "pasted image", { "class": "attach-name" }));
      var remove = el("button", "Remove", { type: "button", "class": "attach-remove",
        "aria-label": "Remove the image " + (a.file.name || "pasted image") });
      remove.disabled = B.state.locked;
      remove.addEventListener("click", function () {
        items.splice(items.indexOf(a), 1);
        render(target);
        message(target, "");
      });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(remove);
      list.appendChild(li);
    });
  }
  function message(target, text) {
    var m = $('.attach-msg[data-target="' + esc(target) + '"]');
    if (m) { m.textContent = text; m.hidden = !text; }
  }
  function add(target, files) {
    if (B.state.locked) { return; }
    Array.prototype.forEach.call(files, function (f) {
      if (items.length >= MAX) { message(target, "You can attach " + MAX + " images at most to one submission."); return; }
      var name = f.name && f.name !== "image.png" ? f.name : "pasted-" + (items.length + 1) + extension(f.type);
      var file = f.name === name ? f : new File([f], name, { type: f.type });
      items.push({ target: target, file: file, ref: null });
    });
    render(target);
    B.saveDraft();
  }
  function extension(type) { return { "image/jpeg": ".jpg", "image/webp": ".webp" }[type] || ".png"; }

  /* an "Attach image" button, its file input and its list after `anchor`; paste and drop on `zone` */
  function control(target, anchor, zone, pinNumber) {
    var box = el("div", "", { "class": "attach", "data-target": target });
    var input = el("input", "", { type: "file", accept: ACCEPT, multiple: "", "class": "attach-input", hidden: "",
      "data-target": target, tabindex: "-1" });
    var button = el("button", "Attach image", { type: "button", "class": "attach-btn", "data-target": target,
      "aria-label": "Attach image to " + label(target, pinNumber) });
    button.addEventListener("click", function () { input.click(); });
    input.addEventListener("change", function () { add(target, input.files); input.value = ""; });
    box.appendChild(button);
    box.appendChild(input);
    box.appendChild(el("ul", "", { "class": "attach-list", "data-target": target }));
    box.appendChild(el("p", "", { "class": "attach-msg", "data-target": target, role: "status", hidden: "" }));
    anchor.parentNode.insertBefore(box, anchor.nextSibling);
    [zone, box].forEach(function (z) {
      if (!z) { return; }
      z.addEventListener("paste", function (e) {
        var files = e.clipboardData && e.clipboardData.files;
        if (files && files.length) { e.preventDefault(); add(target, files); }
      });
      z.addEventListener("dragover", function (e) {
        if (e.dataTransfer && Array.prototype.indexOf.call(e.dataTransfer.types, "Files") >= 0) { e.preventDefault(); }
      });
      z.addEventListener("drop", function (e) {
        if (e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files.length) { e.preventDefault(); add(target, e.dataTransfer.files); }
      });
    });
  }
  $$(".feedback-input").forEach(function (t) { control("variant:" + t.getAttribute("data-variant"), t, t); });
  var overall = $("#overall-feedback");
  if (overall) { control("overall", overall, overall); }
  /* pins.js calls this for each pin in its list */
  B.pinControls = function (li, pin) {
    var anchor = el("span", "", { "class": "attach-anchor" });
    li.appendChild(anchor);
    control("pin:" + pin.id, anchor, li, li.getAttribute("value"));
    render("pin:" + pin.id);
  };

  function upload(a) {
    if (a.ref) { return Promise.resolve(a.ref); }
    var headers = {};
    if (a.file.type) { headers["Content-Type"] = a.file.type; }
    if (B.cfg.token) { headers["X-Pinup-Board-Token"] = B.cfg.token; }
    var url = B.apiBase() + "/api/attachments?board=" + encodeURIComponent(B.cfg.board) + "&name=" + encodeURIComponent(a.file.name);
    return fetch(url, { method: "POST", headers: headers, body: a.file, credentials: "omit", cache: "no-store" })
      .then(function (res) {
        return res.text().then(function (text) {
          var data = null;
          try { data = JSON.parse(text); } catch (e) { data = null; }
          if (res.status !== 201 || !data || !data.file) {
            var said = data && data.detail && data.detail.msg ? String(data.detail.msg) : "";
            var err = new Error(said
              ? "The image " + a.file.name + " was not accepted: " + said + " (HTTP " + res.status + "). Remove it or attach another; nothing was sent."
              : "The image " + a.file.name + " could not be sent (HTTP " + res.status + "). Nothing was sent.");
            err.status = res.status || 0;
            err.items = [];
            throw err;
          }
          a.ref = data.file;
          return a.ref;
        });
      });
  }
  /* board.js waits for this before it sends: the body then names every uploaded image */
  B.beforeSend = function (body) {
    var pinIds = (body.pins || []).map(function (p) { return p.id; });
    var wanted = items.filter(function (a) {
      var parts = a.target.split(":");
      return parts[0] !== "pin" || pinIds.indexOf(parts[1]) >= 0; /* a removed pin's images go with it */
    });
    if (!wanted.length) { return Promise.resolve(body); }
    return wanted.reduce(function (chain, a) {
      return chain.then(function (refs) { return upload(a).then(function (ref) { refs.push(ref); return refs; }); });
    }, Promise.resolve([])).then(function (refs) {
      body.schemaVersion = 2;
      body.attachments = wanted.map(function (a, i) {
        var out = { name: a.file.name, file: refs[i] };
        var parts = a.target.split(":");
        if (parts[0] === "pin") { out.pin = parts[1]; } else if (parts[0] === "variant") { out.variant = parts[1]; }
        return out;
      });
      return body;
    });
  };
  B.parts.push({
    dirty: function () { return items.length > 0; },
    lock: function () { $$(".attach-btn, .attach-remove").forEach(function (b) { b.disabled = true; }); }
  });
})();
