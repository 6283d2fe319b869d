/* The static book's search index, read chunk by chunk (judge/site/offline_index.py).

   The manifest (window.JUDGE_SEARCH_INDEX, loaded first) names the chunks; each chunk is a
   script (so that the book works from file:// and any static host) that adds itself to
   window.JUDGE_SEARCH_CHUNKS. search-match.js and search.js read the index through this
   file's accessors: a chunk not yet loaded reads as absent and is noted as missing. A search
   is run (`judgeSearchData.complete`) until one run misses nothing: each run's missing chunks
   are loaded (in parallel) before the next; only a run that missed nothing is the answer, the
   very one the whole index would give. Loaded chunks stay in memory for the next queries
   (and in the service worker's cache). */
(function (global) {
  "use strict";
  var FIELD_SEP = " ";
  var script = global.document ? global.document.currentScript : null;
  var root = script ? new URL(".", script.src).href : "";
  var loaded = global.JUDGE_SEARCH_CHUNKS || (global.JUDGE_SEARCH_CHUNKS = {});
  var decoded = new Map(), missing = new Set(), pending = new Map(), terms = new Map();

  // The manifest, decoded once: the first keys of its series of chunks (offline_index._firsts)
  // and its variant terms (the rest of the FR↔EN glossary is read a word at a time: `names`).
  function manifest() {
    var data = global.JUDGE_SEARCH_INDEX;
    if (data && !data.decoded) {
      data.decoded = true;
      data.glossary = data.glossary.map(function (t) { return glossaryTerm(t[0], [t[1], t[2], t[3], true]); });
      Object.keys(data.chunks).forEach(function (series) {  // offline_index._firsts
        var firsts = data.chunks[series], previous = "";
        if (typeof firsts === "string") {  // "<shared prefix length><rest>", space-separated
          data.chunks[series] = firsts.split(" ").map(function (f) {
            previous = previous.slice(0, f.charCodeAt(0) - 48) + f.slice(1);
            return previous;
          });
        } else {
          for (var i = 1; i < firsts.length; i++) firsts[i] += firsts[i - 1];
        }
      });
    }
    return data;
  }

  // A chunk by id: its data, or null (noted as missing) when it is not loaded yet.
  function chunk(id) {
    if (Object.prototype.hasOwnProperty.call(loaded, id)) return loaded[id];
    missing.add(id);
    return null;
  }

  // A chunk turned once into what the accessors read.
  function decode(id, make) {
    if (decoded.has(id)) return decoded.get(id);
    var raw = chunk(id);
    if (raw === null) return null;
    var value = make(raw);
    decoded.set(id, value);
    return value;
  }

  function bisectRight(values, x) {
    var lo = 0, hi = values.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (x < values[mid]) hi = mid; else lo = mid + 1; }
    return lo;
  }

  // The chunk of a series (its first keys in the manifest) that holds `key`: its id, or null.
  function seriesId(series, key) {
    var firsts = manifest().chunks[series], at = bisectRight(firsts, key) - 1;
    return at < 0 ? null : series + "." + at;
  }

  // ------------------------------------------------------------------ accessors
  // A term or query word of a language: {s: stem, f: {field: posting}}, undefined when the
  // index has none, null when its chunk is missing.
  function term(language, key) {
    var id = seriesId("t." + language, key);
    if (id === null) return undefined;
    var found = chunk(id);
    if (found === null) return null;
    return Object.prototype.hasOwnProperty.call(found, key) ? found[key] : undefined;
  }

  // A field's lengths by document number (null: missing).
  function lengths(language, field) {
    var all = decode("len." + language, function (raw) {
      var alphabet = new Map(), out = {};
      for (var i = 0; i < 91; i++) alphabet.set(String.fromCharCode(i < 57 ? 35 + i : 36 + i), i);
      Object.keys(raw).forEach(function (name) {
        var table = raw[name][0], codes = raw[name][1], values = new Array(codes.length);
        for (var j = 0; j < codes.length; j++) values[j] = table[alphabet.get(codes[j])];
        out[name] = values;
      });
      return out;
    });
    return all === null ? null : all[field];
  }

  // The documents of a language: {docs: [[edition, number]], descendants: [count],
  // names: [[stems]]} (null: missing).
  function documents(language) {
    return decode("docs." + language, function (raw) {
      var numbers = raw.numbers ? raw.numbers.split(" ") : [], runs = raw.runs, docs = new Array(numbers.length);
      for (var n = 0, previous = ""; n < numbers.length; n++) {  // "<shared prefix length><rest>"
        previous = numbers[n] = previous.slice(0, numbers[n].charCodeAt(0) - 48) + numbers[n].slice(1);
      }
      for (var r = 0; r < runs.length; r++) {
        var end = r + 1 < runs.length ? runs[r + 1][1] : numbers.length;
        for (var i = runs[r][1]; i < end; i++) docs[i] = [runs[r][0], numbers[i]];
      }
      var names = raw.names.split("|").map(function (n) { return n ? n.split(FIELD_SEP) : []; });
      var descendants = raw.descendants.split(",").map(function (c) { return c ? parseInt(c, 10) : 0; });
      return { docs: docs, descendants: descendants, names: names };
    });
  }

  // The chunk that holds a document's card.
  function cardId(language, docnum) {
    return "c." + language + "." + (bisectRight(manifest().chunks["c." + language], docnum) - 1);
  }

  // A document's card [title, status, url, null, removed in, texts, French name] (null: missing).
  function card(language, docnum) {
    var firsts = manifest().chunks["c." + language], at = bisectRight(firsts, docnum) - 1;
    var found = chunk("c." + language + "." + at);
    return found === null ? null : found[docnum - firsts[at]];
  }

  // The exact words of a language beginning with `initial`: [[word, document frequency]]
  // ([] when none, null: missing).
  function initials(language, initial) {
    var part = manifest().languages[language];
    if (!initial || part.initials.indexOf(initial) < 0) return [];
    return chunk("i." + language + "." + initial.codePointAt(0).toString(16));
  }

  // Is `word` a real word (judge.search.words)? null: missing.
  function real(word) {
    var id = seriesId("r", word);
    if (id === null) return false;
    var found = decode(id, function (raw) { return new Set(raw); });
    return found === null ? null : found.has(word);
  }

  // The Comprehensive Rules glossary entries whose name holds `word`:
  // [[entry, edition, language, term, name key]] (null: missing).
  function entriesWith(word) {
    var id = seriesId("g", word);
    if (id === null) return [];
    var found = chunk(id);
    if (found === null) return null;
    return Object.prototype.hasOwnProperty.call(found, word) ? found[word] : [];
  }

  // A glossary entry's [definition, URL] (null: missing).
  function entry(n) {
    var firsts = manifest().chunks.e, at = bisectRight(firsts, n) - 1;
    var found = chunk("e." + at);
    return found === null ? null : found[n - firsts[at]];
  }

  // ------------------------------------------------------------------ the FR↔EN glossary
  // Its terms [English names, French names, rules, variant], one object per term
  // (search.js compares them by identity), from the manifest (variants) or the word chunks.
  function glossaryTerm(number, value) {
    if (!terms.has(number)) terms.set(number, value);
    return terms.get(number);
  }

  // A word's glossary entry (offline_index._glossary) [names, notions, terminology word] and
  // its chunk's terms (as entry[3]), read with the terms of the manifest's `glossary_host`
  // language: undefined when it has none, null when its chunk is missing.
  function glossaryWord(word) {
    var series = "t." + manifest().glossary_host, id = seriesId(series, word);
    if (id === null || word === " ") return undefined;
    var found = chunk(id);
    if (found === null) return null;
    if (!Object.prototype.hasOwnProperty.call(found, word) || !found[word].n) return undefined;
    var entry = found[word].n;
    if (entry.length < 4) entry.push(found[" "]);
    return entry;
  }

  // The query name keys (judge.search.query._glossary) that begin with a word: [[words]]
  // longest first (undefined: none, or its chunk missing).
  var firsts = { get: function (word) {
    var found = glossaryWord(word);
    return found ? found[0].map(function (k) { return k[0]; }) : undefined;
  } };

  // A query name key (its words space-joined): {key, term}.
  var names = { get: function (key) {
    var words = key.split(" "), found = glossaryWord(words[0]);
    var hit = found ? found[0].find(function (k) { return k[0].join(" ") === key; }) : undefined;
    return hit ? { key: hit[0], term: glossaryTerm(hit[1], found[3][hit[1]]) } : undefined;
  } };

  // The terminology words (RuleIndex.terminology_words) of a first character: `has` reads the
  // word's own chunk, `forEach` (typo correction) the chunk of every word of that character.
  var terminology = { get: function (initial) {
    return {
      has: function (word) { var found = glossaryWord(word); return !!(found && found[2]); },
      forEach: function (f) {
        if (manifest().term_initials.indexOf(initial) < 0) return;
        (chunk("w." + initial.codePointAt(0).toString(16)) || []).forEach(function (w) { f(w); });
      },
    };
  } };

  // The notions [English names, French names, rules, variant] that have a name of key `key`
  // (judge.corpus.names: sorted words, NUL-joined): [] when none, or while missing.
  function notionsNamed(key) {
    var found = glossaryWord(key.split("\u0000")[0]);
    if (!found || !Object.prototype.hasOwnProperty.call(found[1], key)) return [];
    return found[1][key].map(function (n) { return glossaryTerm(n, found[3][n]); });
  }

  // ------------------------------------------------------------------ loading
  function url(id) { return root + "search/" + id + "." + manifest().version + ".js"; }

  function loadOne(id) {
    if (Object.prototype.hasOwnProperty.call(loaded, id)) return Promise.resolve();
    if (pending.has(id)) return pending.get(id);
    var promise = new Promise(function (resolve, reject) {
      var tag = global.document.createElement("script");
      tag.src = url(id);
      tag.async = true;
      tag.addEventListener("load", function () {
        tag.remove();
        if (Object.prototype.hasOwnProperty.call(loaded, id)) resolve();
        else reject(new Error("index de recherche : " + id + " illisible"));
      });
      tag.addEventListener("error", function () {
        tag.remove();
        reject(new Error("index de recherche : " + id + " non chargé"));
      });
      global.document.head.appendChild(tag);
    });
    pending.set(id, promise);
    promise.catch(function () {}).then(function () { pending.delete(id); });
    return promise;
  }

  function load(ids) { return Promise.all(Array.from(ids).map(loadOne)); }

  // Chunks a next run will likely read, fetched once the current run's missing ones are asked
  // for (a task later: they take the connections left); a failure is met again by that run.
  function prefetch(ids) {
    setTimeout(function () { load(ids).catch(function () {}); }, 0);
  }

  // `run()` (synchronous, reading through the accessors) until a run misses no chunk; `forget`
  // drops what a run that missed chunks computed and kept. At most `rounds` loads.
  function complete(run, forget, rounds) {
    rounds = rounds || 12;
    return new Promise(function (resolve, reject) {
      (function attempt(left) {
        missing.clear();
        var result;
        try {
          result = run();
        } catch (error) {
          missing.clear();
          reject(error);
          return;
        }
        if (!missing.size) {
          if (deferred.size) { prefetch(Array.from(deferred)); deferred.clear(); }
          resolve(result);
          return;
        }
        var wanted = Array.from(missing);
        missing.clear();
        forget();
        if (left <= 0) { reject(new Error("index de recherche : trop de parties à charger")); return; }
        load(wanted).then(function () { attempt(left - 1); }, reject);
      })(rounds);
    });
  }

  // `f()`, the chunks it misses not awaited (`missed()` is called): its answer as the loaded
  // chunks give it (search.js: the glossary entries of a first result). They are fetched once
  // the search has its answer (`complete`), after what it waits for.
  var deferred = new Set();
  function aside(f, missed) {
    var outer = missing;
    missing = new Set();
    try {
      return f();
    } finally {
      var extra = missing;
      missing = outer;
      extra.forEach(function (id) { deferred.add(id); });
      if (extra.size && missed) missed();
    }
  }

  // Has the current run missed a chunk (its result will not be used)?
  function incomplete() { return missing.size > 0; }

  // The chunks of a language's terms that hold the words beginning with `prefix`: their ids,
  // or null when there are more than `most`.
  function prefixChunks(language, prefix, most) {
    var series = "t." + language, firsts = manifest().chunks[series], ids = [];
    var low = Math.max(0, bisectRight(firsts, prefix) - 1), high = bisectRight(firsts, prefix + "\uffff") - 1;
    if (high - low + 1 > most) return null;
    for (var at = low; at <= high; at++) ids.push(series + "." + at);
    return ids;
  }

  // A run that misses chunks (and will be run again) asks as well for the term chunks of the
  // words beginning with `prefix` that are not loaded (at most `most` chunks): loaded in the
  // same round as the missing ones, for what the next run will read (a result's extract, the
  // word being typed).
  function wantPrefix(language, prefix, most) {
    (prefixChunks(language, prefix, most) || []).forEach(function (id) {
      if (!Object.prototype.hasOwnProperty.call(loaded, id)) missing.add(id);
    });
  }

  // The words beginning with `prefix` that begin a FR↔EN name (`firsts`), read in the chunks
  // of the `glossary_host` terms that hold such words: [] when none or when more than `most`
  // chunks would be read, null when one is missing.
  function nameStarts(prefix, most) {
    var ids = prefixChunks(manifest().glossary_host, prefix, most), out = [];
    if (ids === null) return [];
    var found = ids.map(chunk);
    if (found.indexOf(null) >= 0) return null;
    found.forEach(function (words) {
      Object.keys(words).forEach(function (word) {
        if (word.startsWith(prefix) && words[word].n && words[word].n[0].length) out.push(word);
      });
    });
    return out;
  }

  // The chunks every query reads (each language's documents and field lengths) are in the
  // manifest's own file: they arrive with it, no round of their own.
  manifest();

  global.judgeSearchData = {
    manifest: manifest, term: term, lengths: lengths, documents: documents, card: card, cardId: cardId,
    initials: initials, real: real, entriesWith: entriesWith, entry: entry,
    glossary: { firsts: firsts, names: names, terminology: terminology }, notionsNamed: notionsNamed, nameStarts: nameStarts,
    load: load, prefetch: prefetch, complete: complete, incomplete: incomplete, wantPrefix: wantPrefix, aside: aside,
  };
})(typeof window !== "undefined" ? window : globalThis);
