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

  // The rule at the top of the screen (under the sticky header): switching language keeps it there.
  function ruleInView() {
    var header = doc.querySelector(".site-header"), top = header ? header.getBoundingClientRect().bottom : 0;
    var rules = doc.querySelectorAll("article.rule");
    for (var i = 0; i < rules.length; i++) {
      if (rules[i].getBoundingClientRect().bottom > top + 8) return rules[i];
    }
    return null;
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
          var view = control.getAttribute("data-vue-choice"), rule = ruleInView();
          remember(view);
          if (control.tagName === "BUTTON") {
            var offset = rule ? rule.getBoundingClientRect().top : 0;
            html.setAttribute("data-vue", view);
            mark();
            if (rule) window.scrollBy(0, rule.getBoundingClientRect().top - offset);
          } else if (rule && control.hasAttribute("data-keep-place")) {
            control.setAttribute("href", control.getAttribute("href").split("#")[0] + "#" + rule.id);
          }
        });
      });
    });
    mark();
  }

  // The offline line (#offline-status, after the page's text: shown late, it moves nothing read): pages stored / total, then the
  // whole book; a button stores everything now. <html data-offline="ready|complete"> says
  // where the worker is (the first-language pages and the search stored; everything).
  // A number as French writes it (« 2 838 », narrow no-break space), without Intl: a page's first
  // toLocaleString("fr-FR") loads the locale's data, a 20 ms task (80 ms on a phone's CPU) at
  // the worker's first message, on every page.
  function count(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f"); }

  function offline() {
    if (!script || !script.hasAttribute("data-offline") || !("serviceWorker" in navigator)) return;
    if (!/^https?:$/.test(location.protocol)) return;
    var status = doc.getElementById("offline-status"), text = status && status.querySelector("span");
    var now = status && status.querySelector("button");
    function ask(message) {
      navigator.serviceWorker.ready.then(function (registration) {
        if (registration && registration.active) registration.active.postMessage(message);
      });
    }
    if (now) now.addEventListener("click", function () {
      now.disabled = true;
      ask({ type: "fill", now: true });
    });
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type !== "judge-offline") return;
      html.setAttribute("data-offline", data.complete ? "complete" : data.ready ? "ready" : "filling");
      if (status && text) {
        status.hidden = false;
        text.textContent = data.complete ? "Tout le livre est disponible hors ligne."
          : "Hors ligne : " + count(data.pages) + " / " + count(data.total)
            + " pages disponibles" + (data.ready ? " (français et recherche : prêts)." : "…");
        if (now) now.hidden = !!data.complete;
      }
      if (data.last && !data.complete) setTimeout(function () { ask({ type: "fill" }); }, 1000);
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
    ask({ type: "fill" });
  }

  // The offline page's links to what is stored: to the same rule (its anchor kept).
  function keepHash() {
    if (!location.hash) return;
    doc.querySelectorAll("a[data-keep-hash]").forEach(function (a) { a.href = a.href.split("#")[0] + location.hash; });
  }

  function ready() {
    switches();
    glossSwitch();
    keepHash();
    // After the page's own files (the search page: its index): the worker never competes with them.
    if (doc.readyState === "complete") offline();
    else window.addEventListener("load", offline);
  }
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
