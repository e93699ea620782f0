/* pinup review: the review page's words about the framed app. Each page the frame loads says so:
 * the overlay with "ready", the proxy's "app is down" page with "appdown", each with an id of its
 * own. A load of the frame that no page accounts for (helloMs later) was a page whose own CSP kept
 * the overlay out, and the reviewer is told why pins cannot point at its elements. Messages count
 * only from the live frame's window and the proxy's origin. (The order of a frame's load event and
 * its messages is not fixed across processes, hence counting rather than pairing them.) */
(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("review-config").textContent);
  var box = document.getElementById("review-status");
  var frame = document.querySelector('.frame-wrap[data-variant="live"] iframe');
  if (!frame || !box) { return; }
  var docs = {}, pages = 0, loads = 0, missing = 0, last = "", timer = null;

  function say(text) {
    box.textContent = "";
    box.hidden = !text;
    if (!text) { return; }
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    var again = document.createElement("button");
    again.type = "button";
    again.className = "review-reload";
    again.textContent = "Reload the app";
    again.addEventListener("click", function () { say(""); frame.src = frame.getAttribute("src"); });
    box.appendChild(again);
  }
  window.addEventListener("message", function (ev) {
    if (ev.origin !== cfg.proxy || ev.source !== frame.contentWindow) { return; }
    var d = ev.data;
    if (!d || d.pinup !== 1 || typeof d.doc !== "string" || (d.type !== "ready" && d.type !== "appdown")) { return; }
    if (!docs[d.doc]) { docs[d.doc] = true; pages += 1; }
    last = d.type;
    if (d.type === "appdown" && typeof d.text === "string") {
      say(d.text.slice(0, 300) + " Your notes and pins stay on this page, and on this device if you close it.");
    }
  });
  function judge() {
    var now = loads - pages;
    if (now > missing) {
      say("This page of the app did not load pinup's overlay (" + cfg.proxy + "/__pinup__/overlay.js), so pins " +
        "cannot point at its elements. Its Content-Security-Policy most likely blocks scripts from its own " +
        "origin; allow 'self' in its script-src to pin elements. You can still add a note on the whole page.");
    } else if (last !== "appdown") {
      say("");
    }
    missing = Math.max(0, now);
  }
  frame.addEventListener("load", function () {
    loads += 1;
    clearTimeout(timer);
    timer = setTimeout(judge, cfg.helloMs);
  });
})();
