/* Offline search over search-index.js (a global, loaded by a <script> tag: works from file://).
   foldTerms() mirrors the Python analyzer: lowercase, accents folded, elisions (' and ’)
   dropped, rule numbers kept whole (308.2a), stop words removed. Ranking mirrors
   judge.offline_index.search(): sum of integer weights, ties by document order. */
(function (global) {
  "use strict";
  // judge.analysis.TOKEN_PATTERN with Python's Unicode \w spelled out.
  var W = "[\\p{L}\\p{N}_]";
  var TOKEN = new RegExp("\\p{Nd}+(?:\\.\\p{Nd}+[a-zA-Z]?)?(?![\\p{L}\\p{N}_'’])|" + W + "+(?:['’`]" + W + "+)*", "gu");
  var MIN_PREFIX = 4;

  // judge.normalize.fold
  function fold(text) {
    text = text.replace(/[’‘`´]/g, "'").replace(/[\u00a0\u202f]/g, " ");
    text = text.replace(/[œŒ]/g, "oe").replace(/[æÆ]/g, "ae");
    text = text.normalize("NFKD").replace(/\p{M}/gu, "");
    return text.toLowerCase().replace(/\s+/g, " ").trim();
  }

  function foldTerms(text, index) {
    var stop = new Set(index.stop), elisions = new Set(index.elisions), out = [];
    var tokens = text.match(TOKEN) || [];
    for (var i = 0; i < tokens.length; i++) {
      var term = fold(tokens[i]);
      while (term.indexOf("'") >= 0) {
        var cut = term.indexOf("'"), head = term.slice(0, cut), tail = term.slice(cut + 1);
        if (!elisions.has(head) || !tail) break;
        term = tail;
      }
      if (term && !stop.has(term)) out.push(term);
    }
    return out;
  }

  function postingsFor(index, term) {
    if (Object.prototype.hasOwnProperty.call(index.postings, term)) return index.postings[term];
    if (term.length < MIN_PREFIX && !/^[0-9]+$/.test(term)) return [];
    // No exact term: every indexed term that starts with it, at half weight.
    var out = [];
    Object.keys(index.postings).forEach(function (t) {
      if (t.length > term.length && t.lastIndexOf(term, 0) === 0) {
        index.postings[t].forEach(function (p) { out.push([p[0], Math.floor(p[1] / 2)]); });
      }
    });
    return out;
  }

  function contains(terms, name) {
    for (var i = 0; i + name.length <= terms.length; i++) {
      var ok = true;
      for (var j = 0; j < name.length && ok; j++) ok = terms[i + j] === name[j];
      if (ok) return true;
    }
    return false;
  }

  // judge.offline_index.expand_query: the FR↔EN glossary of `judge search`.
  function expandQuery(index, terms) {
    var out = [];
    terms.forEach(function (t) { if (out.indexOf(t) < 0) out.push(t); });
    (index.glossary || []).forEach(function (entry) {
      if (entry[0].some(function (name) { return contains(terms, name); })) {
        entry[1].forEach(function (t) { if (out.indexOf(t) < 0) out.push(t); });
      }
    });
    return out;
  }

  function search(query, limit) {
    var index = global.JUDGE_SEARCH_INDEX, scores = new Map();
    if (!index) return [];
    expandQuery(index, foldTerms(query, index)).forEach(function (term) {
      postingsFor(index, term).forEach(function (p) { scores.set(p[0], (scores.get(p[0]) || 0) + p[1]); });
    });
    var ranked = Array.from(scores.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    return ranked.slice(0, limit || 10).map(function (entry) {
      var d = index.docs[entry[0]];
      return { id: d[0], edition: d[1], language: d[2], label: d[3], url: d[4], snippet: d[5], score: entry[1] };
    });
  }

  function show(doc) {
    var params = new URLSearchParams(global.location.search), query = params.get("q") || "";
    var list = doc.getElementById("results"), status = doc.getElementById("search-status");
    var box = doc.getElementById("q");
    if (box) box.value = query;
    if (!list || !query.trim()) return;
    var results = search(query, 30);
    status.textContent = results.length
      ? results.length + " résultat" + (results.length > 1 ? "s" : "") + " pour « " + query + " »"
      : "Aucun résultat pour « " + query + " ».";
    results.forEach(function (r) {
      var li = doc.createElement("li"), a = doc.createElement("a"), span = doc.createElement("span");
      a.href = r.url;
      a.textContent = r.label + " (édition " + r.edition + ", " + r.language + ")";
      span.className = "snippet";
      span.textContent = r.snippet;
      li.appendChild(a);
      li.appendChild(span);
      list.appendChild(li);
    });
  }

  global.judgeSearch = search;
  global.judgeFoldTerms = function (text) { return foldTerms(text, global.JUDGE_SEARCH_INDEX); };
  if (global.document) show(global.document);
})(typeof window !== "undefined" ? window : globalThis);
