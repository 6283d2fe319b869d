/* The offline book's service worker (written by `judge build` as sw.js, with this build's
   version and the name of its file lists: judge/site/offline.py).

   A slow network at the venue (400 kbit/s) decides its shape:
   - installed: only the shell (INSTALL: home, search page, search manifest, offline page,
     assets; a few hundred kB), so that it activates within seconds;
   - once active, the rest is stored in small batches, READY first (the pages in each
     edition's first language and the whole search: then the book is « prêt hors ligne »),
     then REST (other languages, glossaries, changes). The batches give way to the pages:
     a page's own request drops the downloads under way (done again later), no batch starts
     while a page's requests are on the network (and 1.5 s after), at most BATCH files are
     fetched at a time and a bundle of the search travels alone. Each page that opens asks the worker to go on (message
     "fill"); one message fills for at most SLICE ms (a browser stops a worker whose event
     lasts too long), then the page asks again: the filling resumes across visits, each
     stored file staying stored. Message "fill" with `now`: everything at once (the page's
     « Tout enregistrer maintenant » button), more files at a time, without giving way.
   - it tells the pages where it is (message "judge-offline": pages stored / total, ready,
     complete), which they show in a quiet line.
   Each build has its own cache, "judge-<version>": the cache of an older build is deleted
   once this one is active, and a waiting new build takes over only when every page of the
   old one is closed (or when the page asks it to), so that one page never mixes the files of
   two builds. While filling, it stops as soon as the server's sw.js is no longer its own (a
   new build was deployed: that one fills its own cache).
   Rule URLs (2004/300.3.html) are not stored: offline, the worker opens the rule in its
   section page. A page not stored yet is answered offline by the book's offline page
   (hors-ligne.html), with links to what is stored of the same rule (its section in the
   edition's first language, the edition's contents). Paths are relative to the worker's own
   folder (its scope): the book works under any base URL. */
"use strict";
var VERSION = "__VERSION__";
importScripts("__FILES__");
var FILES = self.JUDGE_FILES;
var INSTALL = FILES.install, READY = FILES.ready, REST = FILES.rest, BUNDLES = FILES.bundles || {};
var PREFIX = "judge-";
var CACHE = PREFIX + VERSION;
var SCOPE = self.registration.scope;
// A bundle (offline/<digest>.json) stands for the files it holds: those are what is stored.
function unpacked(paths) {
  return paths.reduce(function (out, p) { return out.concat(BUNDLES[p] || [p]); }, []);
}
var ALL = unpacked(INSTALL.concat(READY, REST));
var KNOWN = new Set(ALL.map(function (p) { return href(p); }));
var FIRST = new Set(unpacked(INSTALL.concat(READY)).map(function (p) { return href(p); }));
var PAGES = ALL.filter(isPage).length;
var RULE_PAGE = /\/(\d{3})\.([0-9a-z.]+)\.html$/;
var BATCH = 4, BATCH_NOW = 6, CHECK_EVERY = 200, SLICE = 120000;

function href(path) { return new URL(path, SCOPE).href; }
function isPage(path) { return /\.html$/.test(path) && path !== "hors-ligne.html"; }

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

// A bundle's files into the cache, each as the server would have sent it.
async function storeBundle(cache, path, files) {
  await Promise.all(Object.keys(files).map(function (name) {
    return cache.put(href(name), new Response(files[name], { headers: { "Content-Type": "text/javascript; charset=utf-8" } }));
  }));
}

// A file named by its content (style.<digest>.css, search/c.fr.3.<digest>.js): never changes
// under its name, so the copy the browser already holds (the page just fetched it) is taken
// without a request.
var CONTENT_NAMED = /\.[0-9a-f]{10}\.(?:js|css|svg|json)$/;

// One file (or bundle) into the cache; a failed download is tried again twice, after 1 s then 3 s (a
// venue's network drops requests). `signal`: the filling gives way to a page (`giveWay`), the
// download is dropped at once and the file stays to do.
async function storeOne(cache, path, signal) {
  var url = href(path);
  for (var attempt = 0; ; attempt++) {
    try {
      var response = await fetch(url, { cache: CONTENT_NAMED.test(path) ? "force-cache" : "no-cache",
        credentials: "same-origin", signal: signal });
      if (!response.ok) throw new Error(url + " : " + response.status);
      if (BUNDLES[path]) await storeBundle(cache, path, await response.json());
      else await cache.put(url, await whole(response));
      return;
    } catch (error) {
      if (attempt >= 2 || (signal && signal.aborted)) throw error;
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

// The pages' own requests on the network now: the filling waits while there are any, and
// for a moment after (a page's next files follow its HTML), and a page's request drops the
// filling's downloads under way (`giveWay`): on a slow link a page never waits behind a bundle.
var pageRequests = 0, lastPageRequest = 0, GRACE = 1500;
var downloads = new Set();
async function quiet() {
  while (pageRequests > 0 || Date.now() - lastPageRequest < GRACE) await pause(200);
}
function giveWay() {
  lastPageRequest = Date.now();
  if (hurry) return;
  downloads.forEach(function (controller) { controller.abort(); });
  downloads.clear();
}

async function storedSet(cache) {
  var keys = await cache.keys();
  return new Set(keys.map(function (r) { return r.url; }));
}

async function status(have) {
  if (!have) have = await storedSet(await caches.open(CACHE));
  var pages = 0, first = 0, all = 0;
  ALL.forEach(function (p) {
    var url = href(p);
    if (!have.has(url)) return;
    all++;
    if (isPage(p)) pages++;
    if (FIRST.has(url)) first++;
  });
  return { type: "judge-offline", pages: pages, total: PAGES, ready: first === FIRST.size, complete: all === ALL.length };
}

async function tell(have, last) {
  var message = await status(have);
  message.last = !!last;  // the end of a filling slice: a page asks again if the book is not complete
  var clients = await self.clients.matchAll({ type: "window" });
  clients.forEach(function (c) { c.postMessage(message); });
  return message;
}

// The install: the shell only, every file of it (a failure fails the install: tried again at
// the next visit).
async function install() {
  var cache = await caches.open(CACHE), have = await storedSet(cache);
  for (var i = 0; i < INSTALL.length; i += BATCH_NOW) {
    await Promise.all(INSTALL.slice(i, i + BATCH_NOW).filter(function (p) { return !have.has(href(p)); })
      .map(function (p) { return storeOne(cache, p); }));
  }
}

// One slice of filling: READY then REST, what is missing, in batches; `now`: without giving
// way to the pages. Tells the pages after each batch (at most once a second) and at the end.
var filling = null, hurry = false;
async function fillSlice() {
  var cache = await caches.open(CACHE), have = await storedSet(cache);
  var todo = READY.concat(REST).filter(function (p) {
    return !(BUNDLES[p] || [p]).every(function (q) { return have.has(href(q)); });
  });
  var started = Date.now(), told = 0;
  for (var i = 0; i < todo.length;) {
    if (!hurry) await quiet();
    if (Date.now() - started > SLICE) break;
    if (i && i % CHECK_EVERY < (hurry ? BATCH_NOW : BATCH) && !(await current())) return null;
    // A bundle (tens of kB) travels alone: a page's request never waits behind several.
    var size = hurry ? BATCH_NOW : BATCH, batch = [], dropped = [];
    while (i < todo.length && batch.length < size && !(batch.length && BUNDLES[todo[i]])) {
      batch.push(todo[i++]);
      if (BUNDLES[batch[0]] && !hurry) break;
    }
    await Promise.all(batch.map(function (p) {
      var controller = new AbortController();
      downloads.add(controller);
      return storeOne(cache, p, controller.signal).then(function () {
        (BUNDLES[p] || [p]).forEach(function (q) { have.add(href(q)); });
      }, function () {
        if (controller.signal.aborted) dropped.push(p);  // gave way to a page: done again next
        /* else: next visit */
      }).finally(function () { downloads.delete(controller); });
    }));
    if (dropped.length) {
      todo.splice(i, 0, ...dropped);
    }
    if (Date.now() - told > 1000) {
      told = Date.now();
      await tell(have);
    }
  }
  return tell(have, true);
}

function fill(now) {
  if (now) hurry = true;
  if (!filling) {
    filling = fillSlice().catch(function () { return null; }).finally(function () { filling = null; hurry = false; });
  }
  return filling;
}

self.addEventListener("install", function (event) {
  event.waitUntil(install());
});

// Activation is short: a worker receives no request until it is active, so the rest of the
// book is not awaited here; the pages ask for it (message "fill"), each keeping it alive.
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.startsWith(PREFIX) && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }).then(function () { return tell(); }));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  // A page asks: it is controlled from now on (one whose navigation began before this
  // worker's activation escapes its first claim), then the rest of the book follows.
  if (data.type === "fill") event.waitUntil(self.clients.claim().then(function () { return fill(!!data.now); }));
  else if (data.type === "status") event.waitUntil(tell());
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

function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}

// What is stored of the page asked for: the same section in the edition's first language (or
// in another language), then the edition's contents, as links.
async function storedNear(cache, key) {
  var path = key.slice(SCOPE.length), links = [];
  var m = /^([^/]+)\/(?:([a-z]{2})\/)?(\d{3})(?:\.[0-9a-z.]+)?\.html$/.exec(path);
  var edition = m ? m[1] : path.split("/")[0], section = m ? m[3] : null;
  async function add(candidate, label) {
    if (KNOWN.has(href(candidate)) && await cache.match(href(candidate))) links.push([candidate, label]);
  }
  if (section) {
    if (m[2]) await add(edition + "/" + section + ".html", "La section " + section + " dans la langue première de l’édition " + edition);
    else {
      for (var i = 0; i < ALL.length; i++) {
        var other = new RegExp("^" + edition + "/([a-z]{2})/" + section + "\\.html$").exec(ALL[i]);
        if (other) await add(ALL[i], "La section " + section + " en " + (other[1] === "en" ? "anglais" : other[1]));
      }
    }
  }
  if (/^\d{4}$/.test(edition)) await add(edition + "/index.html", "Le sommaire de l’édition " + edition);
  return links;
}

async function offlinePage(cache, key) {
  var stored = await cache.match(href("hors-ligne.html"));
  var links = await storedNear(cache, key);
  var items = links.map(function (l) {
    return '<li><a data-keep-hash href="' + escape(href(l[0])) + '">' + escape(l[1]) + "</a></li>";
  }).join("");
  if (!stored) {
    return new Response('<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Hors ligne</title></head>'
      + '<body><h1>Page non disponible hors ligne</h1><ul>' + items + '</ul><p><a href="' + href("index.html")
      + '">Sommaire</a></p></body></html>', { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  // Served at the URL asked for: its relative links resolve from the book's root (<base>).
  var text = (await stored.text()).replace("<head>", '<head><base href="' + escape(SCOPE) + '">')
    .replace("<!--links-->", items ? '<ul class="tap-list">' + items + "</ul>" : "");
  return new Response(text, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function answer(event) {
  var request = event.request, cache = await caches.open(CACHE), key = keyOf(request.url);
  var hit = await cache.match(key);
  if (hit) return hit;
  pageRequests++;
  giveWay();
  try {
    var response = await fetch(request);
    if (response.ok && KNOWN.has(key)) {
      var copy = response.clone();
      event.waitUntil(whole(copy).then(function (r) { return cache.put(key, r); }).catch(function () {}));
    }
    return response;
  } catch (error) {
    if (request.mode !== "navigate") throw error;
    return (!KNOWN.has(key) && rulePage(key)) || offlinePage(cache, key);
  } finally {
    pageRequests--;
    lastPageRequest = Date.now();
  }
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  event.respondWith(answer(event));
});
