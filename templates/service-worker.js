/* The offline book's service worker (written by `judge build` as sw.js, with this build's
   version and file lists: judge/site/offline.py).

   Installed: stores the pages in each edition's first language, the search index and the assets
   (FIRST); then, in the background and resumably (each page that opens asks it to go on), the
   rest of the book (REST). Each build has its own cache, "judge-<version>": the cache of an
   older build is deleted once this one is active, and a waiting new build takes over only
   when every page of the old one is closed (or when the page asks it to), so that one page
   never mixes the files of two builds. While filling, it stops as soon as the server's sw.js
   is no longer its own (a new build was deployed: that one fills its own cache).
   Rule URLs (2004/300.3.html) are not stored: offline, the worker opens the rule in its
   section page. Paths are relative to the worker's own folder (its scope): the book works
   under any base URL. */
"use strict";
var VERSION = "__VERSION__";
var FIRST = [/*FIRST*/];
var REST = [/*REST*/];
var PREFIX = "judge-";
var CACHE = PREFIX + VERSION;
var SCOPE = self.registration.scope;
var KNOWN = new Set(FIRST.concat(REST).map(function (p) { return new URL(p, SCOPE).href; }));
var RULE_PAGE = /\/(\d{3})\.([0-9a-z.]+)\.html$/;
var BATCH = 4, CHECK_EVERY = 40;

function href(path) { return new URL(path, SCOPE).href; }

// The cache key of a request: no query, no fragment, a folder as its index.html.
function keyOf(url) {
  var u = new URL(url);
  u.hash = "";
  u.search = "";
  if (u.pathname.endsWith("/")) u.pathname += "index.html";
  return u.href;
}

// The response read to its end first: a put whose body is still downloading would hold the
// cache (its operations run one after another) and keep every page waiting on a slow network.
async function whole(response) {
  var body = await response.blob();
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function pause(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

// One file into the cache (already there: nothing to do); a failed download is tried again
// twice, after 1 s then 3 s (a venue's network drops requests).
async function storeOne(cache, path) {
  var url = href(path);
  if (await cache.match(url)) return true;
  for (var attempt = 0; ; attempt++) {
    try {
      var response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
      if (!response.ok) throw new Error(url + " : " + response.status);
      await cache.put(url, await whole(response));
      return false;
    } catch (error) {
      if (attempt >= 2) throw error;
      await pause(attempt ? 3000 : 1000);
    }
  }
}

// Is the deployed book still this build? (false: a newer sw.js is on the server)
async function current() {
  try {
    var response = await fetch(href("sw.js"), { cache: "no-store" });
    if (!response.ok) return true;
    return (await response.text()).indexOf(JSON.stringify(VERSION)) >= 0;
  } catch (e) {
    return true;  // offline: nothing newer can be fetched anyway
  }
}

async function store(paths, strict) {
  var cache = await caches.open(CACHE);
  for (var i = 0; i < paths.length; i += BATCH) {
    if (i && i % CHECK_EVERY === 0 && !(await current())) return false;
    var batch = paths.slice(i, i + BATCH).map(function (p) {
      return storeOne(cache, p).catch(function (error) { if (strict) throw error; });
    });
    await Promise.all(batch);
  }
  return true;
}

var filling = null;
function fill() {
  if (!filling) {
    filling = store(REST, false).then(progress, function () {}).finally(function () { filling = null; });
  }
  return filling;
}

async function progress() {
  var cache = await caches.open(CACHE), keys = await cache.keys();
  var total = FIRST.length + REST.length;
  var stored = keys.filter(function (r) { return KNOWN.has(r.url); }).length;
  var clients = await self.clients.matchAll({ type: "window" });
  clients.forEach(function (c) { c.postMessage({ type: "judge-offline", stored: stored, total: total }); });
}

self.addEventListener("install", function (event) {
  event.waitUntil(store(FIRST, true));
});

// Activation is short: a worker receives no request until it is active, so the rest of the
// book is not awaited here; the pages ask for it (message "fill"), each keeping it alive.
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.startsWith(PREFIX) && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }).then(progress));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  // A page asks: it is controlled from now on (one whose navigation began before this
  // worker's activation escapes its first claim), then the rest of the book follows.
  if (data.type === "fill") event.waitUntil(self.clients.claim().then(fill).then(progress));
  else if (data.type === "skip-waiting") self.skipWaiting();
});

function rulePage(key) {
  var m = RULE_PAGE.exec(new URL(key).pathname);
  if (!m) return null;
  var target = m[1] + ".html#R" + (m[1] + "." + m[2]).replace(/[.-]/g, "");
  var body = '<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">'
    + '<meta http-equiv="refresh" content="0; url=' + target + '"><title>Règle</title></head>'
    + '<body><p><a href="' + target + '">Ouvrir la règle</a></p></body></html>';
  return new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function offlinePage() {
  var body = '<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">'
    + '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Hors ligne</title></head>'
    + '<body><main><h1>Page non disponible hors ligne</h1><p>Cette page n’est pas encore enregistrée sur '
    + 'cet appareil. <a href="' + href("index.html") + '">Retour au sommaire</a></p></main></body></html>';
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function answer(event) {
  var request = event.request, cache = await caches.open(CACHE), key = keyOf(request.url);
  var hit = await cache.match(key);
  if (hit) return hit;
  try {
    var response = await fetch(request);
    if (response.ok && KNOWN.has(key)) {
      var copy = response.clone();
      event.waitUntil(whole(copy).then(function (r) { return cache.put(key, r); }).catch(function () {}));
    }
    return response;
  } catch (error) {
    if (request.mode !== "navigate") throw error;
    return rulePage(key) || offlinePage();
  }
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  event.respondWith(answer(event));
});
