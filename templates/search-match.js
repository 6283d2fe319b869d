/* The static book's search, first half: reading the exported index and scoring a query tree.

   The data is the export of the Whoosh index of record (judge/search/export.py), in chunks
   read through search-data.js (window.judgeSearchData: a chunk not loaded yet reads as
   absent, and the search is run again once it is). This file is judge/search/tokens.py (tokens, elision, stop
   words), judge/search/engine.py (stems, here from the exported lexicon; Whoosh's BM25F from the
   exported term frequencies and field lengths; typo candidates) and judge/search/match.py (the query tree,
   phrases, the best documents), for search.js, which plans and ranks the query. */
(function (global) {
  "use strict";
  var D = global.judgeSearchData;
  // judge.search.tokens.TOKEN_PATTERN, Python's Unicode \w and \d spelled out.
  var W = "[\\p{L}\\p{N}_]";
  var TOKEN = new RegExp("\\p{Nd}+(?:\\.\\p{Nd}+[a-zA-Z]?)?(?![\\p{L}\\p{N}_'’])|" + W + "+(?:['’`]" + W + "+)*", "gu");
  var UNKNOWN = "∅", WORD_CHAR = new RegExp(W, "u"), DIGIT = /\p{Nd}/u;

  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function key(value) { return JSON.stringify(value); }
  function unique(values) {
    var seen = new Set();
    return values.filter(function (v) { var k = key(v); if (seen.has(k)) return false; seen.add(k); return true; });
  }

  // judge.normalize.fold
  function fold(text) {
    text = text.replace(/[’‘`´]/g, "'").replace(/[\u00a0\u202f]/g, " ");
    text = text.replace(/[œŒ]/g, "oe").replace(/[æÆ]/g, "ae");
    text = text.normalize("NFKD").replace(/\p{M}/gu, "");
    return text.toLowerCase().replace(/\s+/g, " ").trim();
  }

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

  function bisectLeft(values, x) {
    var lo = 0, hi = values.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (values[mid] < x) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // ------------------------------------------------------------------ the exported index
  var prepared = null;
  function prepare(data) {
    if (prepared && prepared.data === data) return prepared;
    var p = { data: data, elisions: new Set(data.elisions), protected: new Set(data.protected),
              queryStop: new Set(data.query_stop), languages: Object.keys(data.languages), lang: {},
              corrections: new Map(), boosts: data.boosts, K1: data.bm25.K1, B: data.bm25.B };
    p.languages.forEach(function (language) {
      var part = data.languages[language];
      p.lang[language] = { part: part, stop: new Set(part.stop), terms: new Map(), clauses: new Map(),
                           numbers: null, initials: new Map(), frequencies: new Map(), docs: [] };
    });
    // judge.search.query._glossary (each name's key by its first word, longest first, and each
    // key's notion) and RuleIndex.terminology_words, read a word at a time (search-data.js).
    p.names = D.glossary.names;
    p.firsts = D.glossary.firsts;
    p.termWords = D.glossary.terminology;
    p.primary = {};
    data.editions.forEach(function (e) { p.primary[e[0]] = e[1][0]; });
    prepared = p;
    return p;
  }

  // judge.search.query._singular and name_key: a name's folded words, each without a plural.
  var NAME_WORD = new RegExp(W + "+", "gu");
  function singular(word) {
    return Array.from(word).length > 3 && (word.endsWith("s") || word.endsWith("x")) ? word.slice(0, -1) : word;
  }
  function nameKey(text) { return (fold(text).match(NAME_WORD) || []).map(singular); }

  // judge.search.tokens.folded_tokens: [term, start, end], offsets into the text.
  function tokens(p, text, stop) {
    var out = [];
    for (var m of text.matchAll(TOKEN)) {
      var term = fold(m[0]), dropped = 0;
      while (term.indexOf("'") >= 0) {
        var cut = term.indexOf("'"), head = term.slice(0, cut), tail = term.slice(cut + 1);
        if (!p.elisions.has(head) || !tail) break;
        term = tail;
        dropped += head.length + 1;
      }
      if (term && !stop.has(term)) out.push([term, m.index + dropped, m.index + m[0].length]);
    }
    return out;
  }

  function foldTerms(p, text, stop) { return tokens(p, text, stop).map(function (t) { return t[0]; }); }

  function neverStemmed(p, term) { return p.protected.has(term) || DIGIT.test(term); }

  // RuleIndex.stem: the exported lexicon, or a stem that matches nothing.
  function stem(p, language, word) {
    if (neverStemmed(p, word)) return word;
    var entry = D.term(language, word);
    if (!entry || !has(entry, "s")) return UNKNOWN + word;
    var found = entry.s;
    return typeof found === "number" ? word.slice(0, found) : found;
  }

  // A term's posting in a field: [idf, docs, frequencies, (positions)], undefined when the
  // index has none, null when its chunk is missing.
  function posting(language, field, text) {
    if (text.startsWith(UNKNOWN)) return undefined;
    var entry = D.term(language, text);
    if (entry === null) return null;
    return entry && entry.f && has(entry.f, field) ? entry.f[field] : undefined;
  }

  // What a search that missed chunks computed: dropped before it is run again.
  function forget(p) {
    p.corrections.clear();
    p.languages.forEach(function (language) {
      var l = p.lang[language];
      l.terms.clear();
      l.clauses.clear();
    });
  }

  // Whoosh's bm25 (whoosh.scoring.bm25): same operations in the same order.
  function bm25(p, idf, tf, length, average) {
    return idf * ((tf * (p.K1 + 1)) / (tf + p.K1 * ((1 - p.B) + p.B * length / average)));
  }

  var NONE = { scores: new Map(), positions: new Map() };
  // Postings.term + engine.read_term
  function term(p, language, field, text) {
    var l = p.lang[language], k = field + "\u0000" + text, found = l.terms.get(k);
    if (found) return found;
    var entry = posting(language, field, text), lengths = D.lengths(language, field);
    if (!entry || !lengths) return NONE;
    var idf = entry[0], docs = entry[1], tfs = entry[2], positions = entry[3], average = l.part.average[field];
    found = { scores: new Map(), positions: new Map() };
    docs.forEach(function (doc, i) {
      found.scores.set(doc, bm25(p, idf, tfs[i], lengths[doc], average));
      if (positions) found.positions.set(doc, positions[i]);
    });
    l.terms.set(k, found);
    return found;
  }

  // Postings.clause: a term over every ranked field, boosted, summed in the fields' order.
  function clause(p, language, text) {
    var l = p.lang[language], found = l.clauses.get(text);
    if (found) return found;
    found = new Map();
    p.boosts.forEach(function (fb) {
      term(p, language, fb[0], text).scores.forEach(function (score, doc) {
        found.set(doc, (found.has(doc) ? found.get(doc) : 0.0) + score * fb[1]);
      });
    });
    if (found.size) l.clauses.set(text, found);
    return found;
  }

  // The exact words beginning with `initial` (and their frequencies), [] while missing.
  function initialWords(p, language, initial) {
    var l = p.lang[language];
    if (!l.initials.has(initial)) {
      var found = D.initials(language, initial);
      if (found === null) return [];
      l.initials.set(initial, found.map(function (w) { return w[0]; }));
      l.frequencies.set(initial, new Map(found));
    }
    return l.initials.get(initial);
  }

  function exactFrequency(p, language, word) {
    var known = p.lang[language].frequencies.get(word.slice(0, 1));
    if (known) return known.get(word) || 0;
    var found = posting(language, "exact", word);
    return found ? found[1].length : 0;
  }

  function within(p, language, word, distance) {
    return initialWords(p, language, word.slice(0, 1)).filter(function (t) {
      return Math.abs(t.length - word.length) <= distance && levenshtein(t, word) <= distance;
    });
  }

  // A language's documents ([edition, number] by document number), [] while missing.
  function docs(p, language) {
    var found = D.documents(language);
    return found ? found.docs : [];
  }

  function doc(p, language, docnum) {
    var l = p.lang[language];
    if (!l.docs[docnum]) {
      var d = docs(p, language)[docnum];
      if (!d) return { language: language, docnum: docnum, edition: null, number: "" };  // missing
      l.docs[docnum] = { language: language, docnum: docnum, edition: d[0], number: d[1] };
    }
    return l.docs[docnum];
  }

  function lookup(p, edition, language, number) {
    var l = p.lang[language];
    if (!l) return null;
    if (!l.numbers) {
      var all = docs(p, language);
      if (!all.length) return null;
      l.numbers = new Map();
      all.forEach(function (d, i) { l.numbers.set(d[0] + "\u0000" + d[1], i); });
    }
    var found = l.numbers.get(edition + "\u0000" + number);
    return found === undefined ? null : doc(p, language, found);
  }

  // ------------------------------------------------------------------ match.py
  function boosted(scores, boost) {
    if (boost === 1.0) return scores;
    var out = new Map();
    scores.forEach(function (s, d) { out.set(d, s * boost); });
    return out;
  }

  // match._phrase_at: Whoosh's SpanNear2 (ordered, mindist 1) for one document.
  function phraseAt(positions, slop) {
    var spans = new Map();
    positions[0].forEach(function (q) { spans.set(q + "," + q, [q, q]); });
    for (var i = 1; i < positions.length; i++) {
      var following = positions[i], joined = new Map();
      spans.forEach(function (span) {
        var start = span[0], end = span[1];
        for (var j = bisectLeft(following, start); j < following.length; j++) {
          var pos = following[j];
          if (pos > end + slop) break;
          var gap = pos <= end ? 0 : pos - end;
          if (gap >= 1 && gap <= slop) { var e = Math.max(end, pos); joined.set(start + "," + e, [start, e]); }
        }
      });
      if (!joined.size) return false;
      spans = joined;
    }
    return true;
  }

  function phrase(p, language, node) {
    var terms = node.words.map(function (w) { return term(p, language, node.field, w); });
    if (!terms.length || !terms.every(function (t) { return t.scores.size; })) return new Map();
    var smallest = terms.reduce(function (a, b) { return b.scores.size < a.scores.size ? b : a; });
    var found = new Map();
    smallest.scores.forEach(function (_, d) {
      if (terms.every(function (t) { return t.scores.has(d); })
          && phraseAt(terms.map(function (t) { return t.positions.get(d); }), node.slop)) {
        var sum = 0;
        terms.forEach(function (t) { sum += t.scores.get(d); });
        found.set(d, sum * node.boost);
      }
    });
    return found;
  }

  function evaluate(p, language, node) {
    if (node.kind === "clause") return boosted(clause(p, language, node.text), node.boost);
    if (node.kind === "phrase") return phrase(p, language, node);
    var parts = node.children.map(function (child) { return evaluate(p, language, child); });
    if (parts.length === 1) return parts[0];  // Whoosh drops the boost of a one-child Or/And
    if (node.kind === "or") {
      var merged = new Map(parts[0]);
      parts.slice(1).forEach(function (part) {
        part.forEach(function (s, d) { merged.set(d, (merged.has(d) ? merged.get(d) : 0.0) + s); });
      });
      return boosted(merged, node.boost);
    }
    var smallest = parts.reduce(function (a, b) { return b.size < a.size ? b : a; }), both = new Map();
    smallest.forEach(function (_, d) {
      if (parts.every(function (part) { return part.has(d); })) {
        var sum = 0;
        parts.forEach(function (part) { sum += part.get(d); });
        both.set(d, sum);
      }
    });
    return boosted(both, node.boost);
  }

  function top(scores, limit, allowed) {
    var items = [];
    scores.forEach(function (s, d) { if (!allowed || allowed.has(d)) items.push([d, s]); });
    items.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    return items.slice(0, limit);
  }

  function Clause(text, boost) { return { kind: "clause", text: text, boost: boost === undefined ? 1.0 : boost }; }
  function Or(children, boost) { return { kind: "or", children: children, boost: boost === undefined ? 1.0 : boost }; }
  function And(children) { return { kind: "and", children: children, boost: 1.0 }; }
  function Phrase(field, words, slop, boost) { return { kind: "phrase", field: field, words: words, slop: slop, boost: boost }; }

  global.judgeSearchCore = {
    has: has, key: key, unique: unique, fold: fold, levenshtein: levenshtein, bisectLeft: bisectLeft,
    prepare: prepare, forget: forget, docs: docs, tokens: tokens, foldTerms: foldTerms, stem: stem, clause: clause, term: term,
    exactFrequency: exactFrequency, within: within, doc: doc, lookup: lookup, evaluate: evaluate, top: top,
    Clause: Clause, Or: Or, And: And, Phrase: Phrase, WORD_CHAR: WORD_CHAR, DIGIT: DIGIT,
    UNKNOWN: UNKNOWN, NAME_WORD: NAME_WORD, singular: singular, nameKey: nameKey,
  };
})(typeof window !== "undefined" ? window : globalThis);
