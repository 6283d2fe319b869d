/* Offline search over search-index.js (a global, loaded by a <script> tag: works from file://).
   foldTerms() mirrors the Python analyzer: lowercase, accents folded, elisions (' and ’)
   dropped, rule numbers kept whole (308.2a), stop words removed. Each word then becomes a
   stem through the vocabulary shipped in the index (or an inflection, a prefix, or the
   closest vocabulary word: « Vouliez-vous dire … ? »), glossary names become notions, and
   ranking sums integer weights scaled by the notions covered. Every step mirrors
   judge/offline_search.py, the reference that the test suite compares with this file. */
(function (global) {
  "use strict";
  // judge.analysis.TOKEN_PATTERN with Python's Unicode \w spelled out.
  var W = "[\\p{L}\\p{N}_]";
  var TOKEN = new RegExp("\\p{Nd}+(?:\\.\\p{Nd}+[a-zA-Z]?)?(?![\\p{L}\\p{N}_'’])|" + W + "+(?:['’`]" + W + "+)*", "gu");
  // judge.offline_search: the same thresholds and inflections.
  var MIN_PREFIX = 4, MIN_CORRECT = 4, MAX_CORRECT = 30;
  var INFLECTIONS = [["s", ""], ["x", ""], ["es", ""], ["e", ""], ["", "s"], ["", "e"], ["", "es"]];

  // judge.normalize.fold
  function fold(text) {
    text = text.replace(/[’‘`´]/g, "'").replace(/[\u00a0\u202f]/g, " ");
    text = text.replace(/[œŒ]/g, "oe").replace(/[æÆ]/g, "ae");
    text = text.normalize("NFKD").replace(/\p{M}/gu, "");
    return text.toLowerCase().replace(/\s+/g, " ").trim();
  }

  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

  // « 300,3 » is rule 300.3 (the French decimal comma), as `judge rule` reads it.
  function decimalComma(query) { return query.replace(/(\d{3}),(\d)/g, "$1.$2"); }

  // A query that is only a rule number or a range (`300.3`, `règle 300,3`, `302-303`) opens
  // the (first) rule when one edition has it; otherwise its rules lead the result list.
  var RULE_QUERY = /^(?:r[eè]gle\s+|rule\s+)?(\d{3}(?:\.\d+[a-z]?)?)(?:\s*[-–]\s*\d{3}(?:\.\d+[a-z]?)?)?\.?$/i;
  function ruleTarget(index, query) {
    var m = RULE_QUERY.exec(decimalComma(query.trim()));
    if (!m) return null;
    var found = index.docs.filter(function (d) { return d[0].split(":")[2] === m[1]; });
    var editions = new Set(found.map(function (d) { return d[1]; }));
    return found.length && editions.size === 1 ? found[0][4] : null;
  }

  // The index decoded once: the vocabulary (word -> stem), stop words and elisions as sets.
  var prepared = null;
  function prepare(index) {
    if (prepared && prepared.index === index) return prepared;
    var words = new Map();
    Object.keys(index.words).forEach(function (w) {
      var v = index.words[w];
      words.set(w, typeof v === "number" ? w.slice(0, v) : v);
    });
    prepared = { index: index, words: words, stop: new Set(index.stop), elisions: new Set(index.elisions) };
    return prepared;
  }

  // judge.analysis.folded_tokens: [term, start, end], offsets into the text.
  function tokens(text, p) {
    var out = [];
    for (var m of text.matchAll(TOKEN)) {
      var term = fold(m[0]), dropped = 0;
      while (term.indexOf("'") >= 0) {
        var cut = term.indexOf("'"), head = term.slice(0, cut), tail = term.slice(cut + 1);
        if (!p.elisions.has(head) || !tail) break;
        term = tail;
        dropped += head.length + 1;
      }
      if (term && !p.stop.has(term)) out.push([term, m.index + dropped, m.index + m[0].length]);
    }
    return out;
  }

  function foldTerms(text, p) { return tokens(text, p).map(function (t) { return t[0]; }); }

  function hasDigit(term) { return /[0-9]/.test(term); }

  function levenshtein(a, b) {
    var previous = [];
    for (var j = 0; j <= b.length; j++) previous.push(j);
    for (var i = 1; i <= a.length; i++) {
      var current = [i];
      for (j = 1; j <= b.length; j++) {
        current.push(Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] !== b[j - 1] ? 1 : 0)));
      }
      previous = current;
    }
    return previous[b.length];
  }

  function lessThan(a, b) {  // tuples of numbers and a final string
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  }

  // judge.offline_search.correct
  function correct(p, word) {
    if (word.length < MIN_CORRECT || word.length > MAX_CORRECT || hasDigit(word)) return null;
    var limit = word.length <= 5 ? 1 : 2, best = null;
    p.words.forEach(function (stem, other) {
      if (Math.abs(other.length - word.length) > limit) return;
      var distance = levenshtein(word, other);
      if (distance > limit) return;
      var postings = has(p.index.postings, stem) ? p.index.postings[stem] : [];
      var key = [distance, other[0] !== word[0] ? 1 : 0, -postings.length, other];
      if (best === null || lessThan(key, best)) best = key;
    });
    return best ? best[3] : null;
  }

  // judge.offline_search.resolve
  function resolve(p, word) {
    var postings = p.index.postings;
    if (hasDigit(word)) {
      if (has(postings, word)) return { keys: [word], divisor: 1, token: word, correction: null };
      var keys = Object.keys(postings).filter(function (k) {
        return k.length > word.length && k.lastIndexOf(word, 0) === 0;
      }).sort();
      return { keys: keys, divisor: 2, token: word, correction: null };
    }
    if (p.words.has(word)) return { keys: [p.words.get(word)], divisor: 1, token: p.words.get(word), correction: null };
    for (var i = 0; i < INFLECTIONS.length; i++) {
      var cut = INFLECTIONS[i][0], add = INFLECTIONS[i][1];
      if (word.endsWith(cut) && word.length > cut.length + 2) {
        var variant = word.slice(0, word.length - cut.length) + add;
        if (p.words.has(variant)) return { keys: [p.words.get(variant)], divisor: 1, token: p.words.get(variant), correction: null };
      }
    }
    if (word.length >= MIN_PREFIX) {
      var stems = new Set();
      p.words.forEach(function (stem, w) { if (w.length > word.length && w.lastIndexOf(word, 0) === 0) stems.add(stem); });
      if (stems.size) return { keys: Array.from(stems).sort(), divisor: 2, token: null, correction: null };
    }
    var fixed = correct(p, word);
    if (fixed === null) return { keys: [], divisor: 1, token: word, correction: null };
    return { keys: [p.words.get(fixed)], divisor: 1, token: p.words.get(fixed), correction: fixed };
  }

  function addNotion(notions, notion) {
    var key = JSON.stringify(notion);
    if (!notions.some(function (n) { return JSON.stringify(n) === key; })) notions.push(notion);
  }

  function matches(tokens, i, name) {
    if (i + name.length > tokens.length) return false;
    for (var j = 0; j < name.length; j++) if (tokens[i + j] !== name[j]) return false;
    return true;
  }

  // judge.offline_search.glossary_notions: the FR↔EN glossary of `judge search`.
  function glossaryNotions(p, tokens) {
    var notions = [], rest = [], glossary = p.index.glossary || [], i = 0;
    while (i < tokens.length) {
      var best = -1, size = 0;
      glossary.forEach(function (entry, k) {
        entry[0].forEach(function (name) {
          if (name.length > size && matches(tokens, i, name)) { best = k; size = name.length; }
        });
      });
      if (best < 0) { rest.push(i); i += 1; continue; }
      var alternatives = [], seen = new Set();
      glossary[best][1].concat([tokens.slice(i, i + size).map(function (t) { return t || ""; })]).forEach(function (alt) {
        var key = JSON.stringify(alt);
        if (!seen.has(key)) { seen.add(key); alternatives.push(alt); }
      });
      addNotion(notions, { alternatives: alternatives, divisor: 1 });
      i += size;
    }
    return { notions: notions, rest: rest };
  }

  // judge.offline_search.plan
  function plan(p, query) {
    var terms = foldTerms(query, p), resolved = new Map(), corrections = new Map();
    terms.forEach(function (t) { if (!resolved.has(t)) resolved.set(t, resolve(p, t)); });
    resolved.forEach(function (w, t) { if (w.correction !== null) corrections.set(t, w.correction); });
    var found = glossaryNotions(p, terms.map(function (t) { return resolved.get(t).token; }));
    var done = new Set();
    found.rest.forEach(function (i) {
      var term = terms[i], word = resolved.get(term);
      if (done.has(term)) return;
      done.add(term);
      if (word.keys.length) {
        addNotion(found.notions, { alternatives: word.keys.map(function (k) { return [k]; }), divisor: word.divisor });
      }
    });
    return { notions: found.notions, corrections: corrections };
  }

  // judge.offline_search.rank: summed weights times the share of notions covered, squared.
  function rank(p, notions) {
    var divisors = new Map(), scores = new Map(), holders = new Map(), covered = new Map();
    notions.forEach(function (notion) {
      notion.alternatives.forEach(function (alt) {
        alt.forEach(function (key) {
          var d = divisors.has(key) ? divisors.get(key) : notion.divisor;
          divisors.set(key, Math.min(d, notion.divisor));
        });
      });
    });
    divisors.forEach(function (divisor, key) {
      var postings = has(p.index.postings, key) ? p.index.postings[key] : [];
      holders.set(key, new Set(postings.map(function (q) { return q[0]; })));
      postings.forEach(function (q) { scores.set(q[0], (scores.get(q[0]) || 0) + Math.floor(q[1] / divisor)); });
    });
    scores.forEach(function (_, doc) { covered.set(doc, 0); });
    notions.forEach(function (notion) {
      var docs = new Set();
      notion.alternatives.forEach(function (alt) {
        holders.get(alt[0]).forEach(function (doc) {
          if (alt.every(function (k) { return holders.get(k).has(doc); })) docs.add(doc);
        });
      });
      docs.forEach(function (doc) { covered.set(doc, covered.get(doc) + 1); });
    });
    var n = notions.length, ranked = [];
    scores.forEach(function (score, doc) {
      var c = covered.get(doc), final = Math.floor(score * c * c / (n * n));
      if (final > 0) ranked.push([doc, final, score]);  // never a result that scored nothing
    });
    ranked.sort(function (a, b) { return b[1] - a[1] || b[2] - a[2] || a[0] - b[0]; });
    return ranked;
  }

  // judge.offline_search.suggestion: the query as typed, corrected words replaced.
  function suggestion(p, query, corrections) {
    if (!corrections.size) return null;
    var out = "", last = 0;
    tokens(query, p).forEach(function (t) {
      if (corrections.has(t[0])) { out += query.slice(last, t[1]) + corrections.get(t[0]); last = t[2]; }
    });
    out += query.slice(last);
    return out.split(/\s+/).filter(Boolean).join(" ");
  }

  // judge.offline_search.search_full
  function run(query, limit) {
    var index = global.JUDGE_SEARCH_INDEX;
    if (!index) return { results: [], corrections: {}, suggestion: null, keys: new Set() };
    query = decimalComma(query);
    var p = prepare(index), planned = plan(p, query), keys = new Set();
    planned.notions.forEach(function (n) { n.alternatives.forEach(function (alt) { alt.forEach(function (k) { keys.add(k); }); }); });
    var results = rank(p, planned.notions).slice(0, limit || 10).map(function (entry) {
      var d = index.docs[entry[0]];
      return { id: d[0], edition: d[1], language: d[2], label: d[3], url: d[4], text: d[5], note: d[6],
               score: entry[1], extract: extract(p, d[5], keys) };
    });
    return { results: results, corrections: Object.fromEntries(planned.corrections),
             suggestion: suggestion(p, query, planned.corrections), keys: keys };
  }

  // The extract of a result: about EXTRACT characters around its first matched word, each
  // matched word marked; [text, marked] pieces (drawn as text nodes and <mark>, never HTML).
  var EXTRACT = 220;
  function extract(p, text, keys) {
    var marks = tokens(text, p).filter(function (t) {
      return keys.has(hasDigit(t[0]) ? t[0] : (p.words.get(t[0]) || t[0]));
    });
    var start = marks.length ? Math.max(0, marks[0][1] - 60) : 0;
    if (start > 0) { var space = text.lastIndexOf(" ", start); start = space > 0 ? space + 1 : start; }
    var end = Math.min(text.length, start + EXTRACT);
    if (end < text.length) { var cut = text.indexOf(" ", end); end = cut > 0 ? cut : text.length; }
    var pieces = start > 0 ? [["… ", false]] : [], last = start;
    marks.forEach(function (t) {
      if (t[1] < last || t[2] > end) return;
      pieces.push([text.slice(last, t[1]), false], [text.slice(t[1], t[2]), true]);
      last = t[2];
    });
    pieces.push([text.slice(last, end), false]);
    if (end < text.length) pieces.push([" …", false]);
    return pieces;
  }

  function search(query, limit) { return run(query, limit).results; }

  function show(doc) {
    var params = new URLSearchParams(global.location.search), query = params.get("q") || "";
    var list = doc.getElementById("results"), status = doc.getElementById("search-status");
    var box = doc.getElementById("q");
    if (box) box.value = query;
    if (!list || !query.trim()) return;
    var target = ruleTarget(global.JUDGE_SEARCH_INDEX || { docs: [] }, query);
    if (target) { global.location.replace(target); return; }
    var found = run(query, 30), results = found.results, hint = doc.getElementById("search-suggestion");
    if (hint && found.suggestion) {
      var link = doc.createElement("a");
      link.href = "?q=" + encodeURIComponent(found.suggestion);
      link.textContent = found.suggestion;
      hint.textContent = "Vouliez-vous dire : ";
      hint.appendChild(link);
      hint.appendChild(doc.createTextNode(" ?"));
      hint.hidden = false;
    }
    status.textContent = results.length
      ? results.length + " résultat" + (results.length > 1 ? "s" : "") + " pour « " + query + " »"
      : "Aucun résultat pour « " + query + " ».";
    results.forEach(function (r) {
      var li = doc.createElement("li"), head = doc.createElement("p"), a = doc.createElement("a");
      var where = doc.createElement("span"), text = doc.createElement("p");
      head.className = "hit-head";
      a.href = r.url;
      a.textContent = r.label;
      where.className = "hit-edition";
      where.textContent = " (édition " + r.edition + (r.language !== "fr" ? ", texte anglais" : "") + ")";
      head.appendChild(a);
      head.appendChild(where);
      if (r.note) {
        var note = doc.createElement("span");
        note.className = "hit-note";
        note.textContent = r.note;
        head.appendChild(doc.createTextNode(" "));
        head.appendChild(note);
      }
      text.className = "snippet";
      r.extract.forEach(function (piece) {
        if (!piece[1]) { text.appendChild(doc.createTextNode(piece[0])); return; }
        var mark = doc.createElement("mark");
        mark.textContent = piece[0];
        text.appendChild(mark);
      });
      li.appendChild(head);
      li.appendChild(text);
      list.appendChild(li);
    });
  }

  global.judgeSearch = search;
  global.judgeSearchRun = run;
  global.judgeFoldTerms = function (text) { return foldTerms(text, prepare(global.JUDGE_SEARCH_INDEX)); };
  if (global.document) show(global.document);
})(typeof window !== "undefined" ? window : globalThis);
