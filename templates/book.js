/* Every page of the book: the language view of bilingual pages, remembered by the book, and
   the offline book (its service worker, judge/site/offline.py).

   Loaded in <head> (small, no inline script: the pages' security policy allows none) so
   that the remembered view is set before the page is drawn: <html data-vue="primary|
   translation|both">; without a remembered view the stylesheet shows the first language on a
   phone and both side by side on a larger screen. The switch's buttons (.view-switch) set and
   remember it; on a page of another language its links do the same, then open the page.
   The service worker is registered only on http(s) (never from file://) and only by the
   static book (data-offline on this script's tag), once the page has loaded. */
(function () {
  "use strict";
  var doc = document, html = doc.documentElement, KEY = "judge-vue", VIEWS = ["primary", "translation", "both"];
  var script = doc.currentScript;
  var root = script ? new URL(".", script.src).href : null;
  html.setAttribute("data-js", "");

  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function remember(view) {
    try { localStorage.setItem(KEY, view); } catch (e) { /* private mode: this page only */ }
  }
  var initial = stored();
  if (VIEWS.indexOf(initial) >= 0) html.setAttribute("data-vue", initial);
  // The French names of an English rule's terms (templates/_gloss.html), switched off and remembered.
  var GLOSS = "judge-gloss";
  try { if (localStorage.getItem(GLOSS) === "off") html.setAttribute("data-gloss", "off"); } catch (e) { /* none */ }
  function glossSwitch() {
    var box = doc.getElementById("gloss-off");
    if (!box) return;
    box.checked = html.getAttribute("data-gloss") === "off";
    box.addEventListener("change", function () {
      if (box.checked) html.setAttribute("data-gloss", "off"); else html.removeAttribute("data-gloss");
      try { localStorage.setItem(GLOSS, box.checked ? "off" : "on"); } catch (e) { /* this page only */ }
    });
  }

  function effective() {
    var view = html.getAttribute("data-vue");
    if (view) return view;
    return window.matchMedia && window.matchMedia("(max-width: 40rem)").matches ? "primary" : "both";
  }

  function switches() {
    var groups = doc.querySelectorAll(".view-switch");
    function mark() {
      var view = effective();
      groups.forEach(function (group) {
        group.querySelectorAll("button[data-vue-choice]").forEach(function (b) {
          b.setAttribute("aria-pressed", String(b.getAttribute("data-vue-choice") === view));
        });
      });
    }
    groups.forEach(function (group) {
      group.hidden = false;
      group.querySelectorAll("[data-vue-choice]").forEach(function (control) {
        control.addEventListener("click", function () {
          var view = control.getAttribute("data-vue-choice");
          remember(view);
          if (control.tagName === "BUTTON") {
            html.setAttribute("data-vue", view);
            mark();
          }
        });
      });
    });
    mark();
  }

  function offline() {
    if (!script || !script.hasAttribute("data-offline") || !("serviceWorker" in navigator)) return;
    if (!/^https?:$/.test(location.protocol)) return;
    var status = doc.getElementById("offline-status");
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type !== "judge-offline" || !status) return;
      status.hidden = false;
      status.textContent = data.stored >= data.total
        ? "Livre entier enregistré sur cet appareil : consultable hors ligne."
        : "Enregistrement du livre pour la lecture hors ligne : " + data.stored + " fichiers sur " + data.total + ".";
    });
    navigator.serviceWorker.register(root + "sw.js").then(function (registration) {
      if (!registration) return;
      function update(worker) {
        if (!worker || !navigator.serviceWorker.controller) return;
        var box = doc.getElementById("book-update");
        if (!box) return;
        box.hidden = false;
        box.querySelector("button").addEventListener("click", function () {
          navigator.serviceWorker.addEventListener("controllerchange", function () { location.reload(); });
          worker.postMessage({ type: "skip-waiting" });
        });
      }
      if (registration.waiting) update(registration.waiting);
      registration.addEventListener("updatefound", function () {
        var worker = registration.installing;
        if (worker) worker.addEventListener("statechange", function () { if (worker.state === "installed") update(worker); });
      });
    }, function () { /* no worker: the book works online as before */ });
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration && registration.active) registration.active.postMessage({ type: "fill" });
    });
  }

  function ready() {
    switches();
    glossSwitch();
    // After the page's own files (the search page: its index): the worker never competes with them.
    if (doc.readyState === "complete") offline();
    else window.addEventListener("load", offline);
  }
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
