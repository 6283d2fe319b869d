/* The static book's search: `judge search` in the browser, on the same exported index.

   search-index.js (loaded by a <script> tag: works from file://) assigns the export of the
   Whoosh index of record (judge/search/export.py) to window.JUDGE_SEARCH_INDEX, with each
   rule's page URL. Every step below is judge/search/query.py's (planning, glossary notions,
   typo correction, query tree, BM25F from the exported term frequencies and field lengths,
   coverage, names, the merge of the two languages, ties), judge/search/match.py's (the query
   tree, phrases) and judge/search/output.py's (extracts); tests/site/test_search_browser.py
   checks in Chromium that this file ranks as Whoosh on the eval set. */
(function (global) {
  "use strict";
  // judge.search.tokens.TOKEN_PATTERN, Python's Unicode \w and \d spelled out.
  var W = "[\\p{L}\\p{N}_]";
  var TOKEN = new RegExp("\\p{Nd}+(?:\\.\\p{Nd}+[a-zA-Z]?)?(?![\\p{L}\\p{N}_'’])|" + W + "+(?:['’`]" + W + "+)*", "gu");
  // judge.search.query: its constants and patterns.
  var MAX_QUERY = 500, DIRECT_SCORE = 100.0, CHILD_SCORE = 50.0, OTHER_LANGUAGE = 0.4, NAME_MATCH = 2.0;
  var UNKNOWN = "∅", SNIPPET_CHARS = 220, PAGE_HITS = 20;
  var CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]/g;
  var DECIMAL_COMMA = /(?<![\p{L}\p{N}_.,])(\p{Nd}{3}),(\p{Nd}{1,2}[a-z]?)(?![\p{L}\p{N}_,])/gu;
  var NUMBER = /(?<![\p{L}\p{N}_.])\p{Nd}{3}(?:\.\p{Nd}+[a-z]?)?(?![\p{L}\p{N}_])/gu;
  var OPERATORS = /(?<![\p{L}\p{N}_])(?:AND|OR|NOT)(?![\p{L}\p{N}_])/gu;
  var QUOTED = /"([^"]+)"|«([^»]+)»|“([^”]+)”/g;
  var NUMBER_WORDS = new Set(["regle", "regles", "rule", "rules", "cr", "voir", "cf", "see", "numero", "no"]);
  var WORD_CHAR = new RegExp(W, "u"), DIGIT = /\p{Nd}/u;

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
                           numbers: null, initials: null, docs: [] };
    });
    // judge.search.query._glossary: folded names by first character, longest first.
    var names = new Map();
    data.glossary.forEach(function (term) {
      term[0].concat(term[1]).forEach(function (name) { var f = fold(name); if (!names.has(f)) names.set(f, term); });
    });
    var initials = new Map();
    Array.from(names.keys()).sort(function (a, b) { return b.length - a.length; }).forEach(function (name) {
      var c = name.slice(0, 1);
      if (!initials.has(c)) initials.set(c, []);
      initials.get(c).push(name);
    });
    p.names = names;
    p.initials = initials;
    p.primary = {};
    data.editions.forEach(function (e) { p.primary[e[0]] = e[1][0]; });
    prepared = p;
    return p;
  }

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

  // LightIndex.stem: the exported lexicon, or a stem that matches nothing.
  function stem(p, language, word) {
    if (neverStemmed(p, word)) return word;
    var stems = p.lang[language].part.stems;
    if (!has(stems, word)) return UNKNOWN + word;
    var found = stems[word];
    return typeof found === "number" ? word.slice(0, found) : found;
  }

  // judge.search.export.bm25 (Whoosh's), same operations in the same order.
  function bm25(p, idf, tf, length, average) {
    return idf * ((tf * (p.K1 + 1)) / (tf + p.K1 * ((1 - p.B) + p.B * length / average)));
  }

  var NONE = { scores: new Map(), positions: new Map() };
  // Postings.term + light.read_term
  function term(p, language, field, text) {
    var l = p.lang[language], k = field + "\u0000" + text, found = l.terms.get(k);
    if (found) return found;
    var fieldTerms = l.part.terms[field];
    if (!has(fieldTerms, text)) return NONE;
    var entry = fieldTerms[text], idf = entry[0], docs = entry[1], tfs = entry[2], positions = entry[3];
    var lengths = l.part.lengths[field], average = l.part.average[field];
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

  function exactFrequency(p, language, word) {
    var terms = p.lang[language].part.terms.exact;
    return has(terms, word) ? terms[word][1].length : 0;
  }

  function within(p, language, word, distance) {
    var l = p.lang[language];
    if (!l.initials) {
      l.initials = new Map();
      Object.keys(l.part.terms.exact).forEach(function (t) {
        var c = t.slice(0, 1);
        if (!l.initials.has(c)) l.initials.set(c, []);
        l.initials.get(c).push(t);
      });
    }
    return (l.initials.get(word.slice(0, 1)) || []).filter(function (t) {
      return Math.abs(t.length - word.length) <= distance && levenshtein(t, word) <= distance;
    });
  }

  function doc(p, language, docnum) {
    var l = p.lang[language];
    if (!l.docs[docnum]) {
      var d = l.part.docs[docnum];
      l.docs[docnum] = { language: language, docnum: docnum, edition: d[0], number: d[1] };
    }
    return l.docs[docnum];
  }

  function lookup(p, edition, language, number) {
    var l = p.lang[language];
    if (!l) return null;
    if (!l.numbers) {
      l.numbers = new Map();
      l.part.docs.forEach(function (d, i) { l.numbers.set(d[0] + "\u0000" + d[1], i); });
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

  // ------------------------------------------------------------------ query.py: planning
  function clean(raw) {
    var notices = [], text = raw.replace(CONTROL, " ");
    var chars = Array.from(text);
    if (chars.length > MAX_QUERY) {
      text = chars.slice(0, MAX_QUERY).join("");
      notices.push("requête tronquée à " + MAX_QUERY + " caractères");
    }
    if (new RegExp(OPERATORS.source, "u").test(text)) {
      text = text.replace(OPERATORS, " ");
      notices.push("opérateurs AND, OR, NOT ignorés : tous les mots comptent");
    }
    return { text: text.split(/\s+/).filter(Boolean).join(" "), notices: notices };
  }

  function isWordChar(text, i) { return i >= 0 && i < text.length && WORD_CHAR.test(text[i]); }

  // query._names_in: glossary names as whole words, left to right, longest first.
  function namesIn(p, text) {
    var spans = [], i = 0;
    while (i < text.length) {
      if (!isWordChar(text, i - 1)) {
        var name = (p.initials.get(text[i]) || []).find(function (n) {
          return text.startsWith(n, i) && !isWordChar(text, i + n.length);
        });
        if (name !== undefined) { spans.push([i, i + name.length]); i += name.length; continue; }
      }
      i += 1;
    }
    return spans;
  }

  function nonEmpty(words) { return words.length > 0; }

  // query.plan_query; null when there is nothing to search (empty, only stop words).
  function plan(p, raw) {
    var c = clean(raw), text = c.text, stop = p.queryStop;
    if (!text) return null;
    var folded = fold(text).replace(DECIMAL_COMMA, "$1.$2");
    var numbers = unique(folded.match(NUMBER) || []);
    var phrases = [];
    for (var m of folded.matchAll(QUOTED)) {
      var words = foldTerms(p, m[1] || m[2] || m[3], stop);
      if (words.length > 1) phrases.push(words);
    }
    var rest = folded.replace(/["«»]/g, " ");
    var every = foldTerms(p, rest, stop).filter(function (w) { return numbers.indexOf(w) < 0; });
    var expansions = [], english = [], typed = [], spans = namesIn(p, rest);
    spans.forEach(function (span) {
      var name = rest.slice(span[0], span[1]), entry = p.names.get(name);
      var inFr = entry[1].some(function (n) { return fold(n) === name; });
      var inEn = entry[0].some(function (n) { return fold(n) === name; });
      typed.push([name, inFr === inEn ? "both" : inFr ? "fr" : "en"]);
      var alternatives = entry[1].map(function (n) { return foldTerms(p, n, stop); }).filter(nonEmpty);
      if (alternatives.length && !expansions.some(function (e) { return key(e) === key(alternatives); })) {
        expansions.push(alternatives);
        english.push(unique(entry[0].concat(entry[1]).map(function (n) { return foldTerms(p, n, stop); }).filter(nonEmpty)));
      }
    });
    for (var s = spans.length - 1; s >= 0; s--) rest = rest.slice(0, spans[s][0]) + " " + rest.slice(spans[s][1]);
    var plain = foldTerms(p, rest, stop).filter(function (w) { return numbers.indexOf(w) < 0; });
    if (numbers.length) plain = plain.filter(function (w) { return !NUMBER_WORDS.has(w); });
    if (!numbers.length && !plain.length && !expansions.length && !phrases.length) return null;
    return { text: text, numbers: numbers, words: plain, phrases: phrases, expansions: expansions,
             notices: c.notices, english: english, names: typed, typed: every };
  }

  function notions(planned, language) { return language === "fr" ? planned.expansions : planned.english; }

  function keep(words, stop) { return words.filter(function (w) { return !stop.has(w); }); }

  function groupClause(words, stemOf, boost) {
    var stems = words.map(function (w) { return Clause(stemOf(w)); });
    if (words.length === 1) return Or(stems, boost);
    return Or([And(stems), Phrase("exact", words, 2, 2.0), Phrase("heading", words, 1, 4.0)], boost);
  }

  // query.compose: the query tree for one language's index.
  function compose(words, planned, language, stemOf, stop) {
    words = keep(words, stop);
    var clauses = unique(words).map(function (w) { return Clause(stemOf(w)); });
    planned.numbers.forEach(function (n) { clauses.push(Clause(n, 0.5)); });
    planned.phrases.forEach(function (ph) { var k = keep(ph, stop); if (k.length) clauses.push(groupClause(k, stemOf, 3.0)); });
    notions(planned, language).forEach(function (e) {
      var kept = e.map(function (alt) { return keep(alt, stop); }).filter(nonEmpty);
      if (kept.length) clauses.push(Or(kept.map(function (k) { return groupClause(k, stemOf); })));
    });
    if (words.length > 1) {
      clauses.push(Phrase("exact", words, 3, 1.5));
      clauses.push(Phrase("heading", words, 1, 4.0));
    }
    var typed = keep(planned.typed, stop);
    if (typed.length > words.length && typed.length > 1) clauses.push(Phrase("exact", typed, 3, 1.5));
    return clauses.length ? Or(clauses) : null;
  }

  function concepts(words, planned, language, stemOf, stop) {
    words = keep(words, stop);
    var out = unique(words).map(function (w) { return [[stemOf(w)]]; });
    planned.phrases.forEach(function (ph) { var k = keep(ph, stop); if (k.length) out.push([k.map(stemOf)]); });
    notions(planned, language).forEach(function (e) {
      var kept = e.map(function (alt) { return keep(alt, stop); }).filter(nonEmpty);
      if (kept.length) out.push(kept.map(function (k) { return k.map(stemOf); }));
    });
    return out;
  }

  function coverage(holds, wanted) {
    if (!wanted.length) return 1.0;
    var covered = wanted.filter(function (alts) {
      return alts.some(function (alt) { return alt.every(holds); });
    }).length;
    return covered / wanted.length;
  }

  function known(p, language, word) {
    return exactFrequency(p, language, word) > 0 || clause(p, language, stem(p, language, word)).size > 0;
  }

  function correctIn(p, language, word) {
    if (Array.from(word).length < 4 || Array.from(word).length > 30 || DIGIT.test(word)) return null;
    var candidates = within(p, language, word, Array.from(word).length <= 5 ? 1 : 2);
    if (!candidates.length) return null;
    var best = null, bestKey = null;
    candidates.forEach(function (c) {
      var k = [levenshtein(c, word), -exactFrequency(p, language, c)];
      if (best === null || k[0] < bestKey[0] || (k[0] === bestKey[0] && (k[1] < bestKey[1] || (k[1] === bestKey[1] && c < best)))) {
        best = c;
        bestKey = k;
      }
    });
    return best;
  }

  function correction(p, word, languages) {
    var k = languages.join(",") + ":" + word;
    if (p.corrections.has(k)) return p.corrections.get(k);
    var found = null;
    if (!languages.some(function (language) { return known(p, language, word); })) {
      for (var i = 0; i < languages.length && found === null; i++) found = correctIn(p, languages[i], word);
    }
    p.corrections.set(k, found);
    return found;
  }

  function queryLanguage(p, planned) {
    if (p.languages.indexOf("en") < 0 || p.languages.indexOf("fr") < 0) return null;
    function knownIn(word) {
      return ["fr", "en"].filter(function (language) { return exactFrequency(p, language, word) > 0; });
    }
    var french = 0, english = 0;
    planned.names.forEach(function (entry) {
      var words = foldTerms(p, entry[0], p.queryStop);
      if (entry[1] === "en" && words.some(function (w) { return knownIn(w).indexOf("fr") < 0; })) english += 1;
      else if (entry[1] === "fr" && words.some(function (w) { return knownIn(w).indexOf("en") < 0; })) french += 1;
    });
    planned.words.forEach(function (word) {
      var found = knownIn(word);
      if (found.length === 1 && found[0] === "fr") french += 1;
      if (found.length === 1 && found[0] === "en") english += 1;
    });
    return english > french ? "en" : null;
  }

  function direct(p, numbers, edition) {
    var found = [];
    numbers.forEach(function (number) {
      p.data.editions.forEach(function (ed) {
        if (edition && ed[0] !== edition) return;
        ed[1].forEach(function (language) {
          var d = lookup(p, ed[0], language, number);
          if (d === null) {
            var l = p.lang[language];
            if (!l) return;
            l.part.docs.forEach(function (x, i) {
              if (x[0] === ed[0] && x[1].startsWith(number + ".")) found.push([doc(p, language, i), CHILD_SCORE]);
            });
            return;
          }
          found.push([d, DIRECT_SCORE]);
          p.lang[language].part.descendants[d.docnum].forEach(function (n) { found.push([doc(p, language, n), CHILD_SCORE]); });
        });
      });
    });
    return found;
  }

  function merge(perLanguage, first) {
    var tops = new Map(), order = new Map(), merged = [];
    perLanguage.forEach(function (entry, i) {
      order.set(entry[0], i);
      tops.set(entry[0], entry[1].reduce(function (m, h) { return Math.max(m, h[1]); }, 0.0));
    });
    var reference = tops.has(first) ? tops.get(first) : 0.0;
    perLanguage.forEach(function (entry) {
      var scale = 1.0, language = entry[0];
      if (language !== first && reference > 0 && tops.get(language) > 0) scale = OTHER_LANGUAGE * reference / tops.get(language);
      entry[1].forEach(function (h) { merged.push([h[0], h[1] * scale]); });
    });
    merged.sort(function (a, b) {
      return b[1] - a[1] || order.get(a[0].language) - order.get(b[0].language) || a[0].docnum - b[0].docnum;
    });
    return merged;
  }

  function suggestion(p, query, corrections) {
    if (!corrections.size) return null;
    var out = "", last = 0;
    tokens(p, query, p.queryStop).forEach(function (t) {
      if (corrections.has(t[0])) { out += query.slice(last, t[1]) + corrections.get(t[0]); last = t[2]; }
    });
    out += query.slice(last);
    return out.split(/\s+/).filter(Boolean).join(" ");
  }

  // output.make_snippet: [text, marked] pieces (drawn as text nodes and <mark>, never HTML).
  function snippet(text, spans) {
    if (!text) return [];
    var start = 0, end = text.length;
    if (text.length > SNIPPET_CHARS) {
      var best = 0;
      if (spans.length) {
        var starts = spans.map(function (s) { return s[0]; }).sort(function (a, b) { return a - b; });
        var counts = spans.map(function (s) {
          return bisectLeft(starts, s[0] + SNIPPET_CHARS - 40) - bisectLeft(starts, s[0]);
        });
        best = spans[counts.indexOf(Math.max.apply(null, counts))][0];
      }
      start = Math.max(0, best - 40);
      if (start) { var space = text.indexOf(" ", start); start = space >= 0 && space < best ? space + 1 : start; }
      end = Math.min(text.length, start + SNIPPET_CHARS);
      if (end < text.length) { var back = text.lastIndexOf(" ", end - 1); end = back > start ? back : end; }
    }
    var pieces = start > 0 ? [["… ", false]] : [], cursor = start;
    spans.forEach(function (s) {
      if (s[0] < start || s[1] > end) return;
      pieces.push([text.slice(cursor, s[0]), false], [text.slice(s[0], s[1]), true]);
      cursor = s[1];
    });
    pieces.push([text.slice(cursor, end), false]);
    if (end < text.length) pieces.push([" …", false]);
    return pieces;
  }

  function extract(p, card, stop, marked) {
    var texts = card[5];
    for (var i = 0; i < texts.length; i++) {
      var spans = tokens(p, texts[i], stop).filter(function (t) { return marked(t[0]); }).map(function (t) { return [t[1], t[2]]; });
      if (spans.length) return snippet(texts[i], spans);
    }
    return snippet(texts[0] || card[0] || "", []);
  }

  // query.search_with, for one query: {results, suggestion, notice}.
  function run(query, limit, options) {
    var data = global.JUDGE_SEARCH_INDEX;
    limit = limit || 10;
    options = options || {};
    if (!data) return { results: [], suggestion: null, notice: null };
    var p = prepare(data), planned = plan(p, query);
    if (planned === null) return { results: [], suggestion: null, notice: null };
    var edition = options.edition || null, lang = options.lang || null, notices = planned.notices.slice();
    var preferred = lang || queryLanguage(p, planned);
    var languages = lang ? [lang] : p.languages.filter(function (c) { return c === preferred; })
      .concat(p.languages.filter(function (c) { return c !== preferred; }));
    function weight(d, score) {
      return d.language === (preferred || p.primary[d.edition]) ? score : score * OTHER_LANGUAGE;
    }
    var ranked = new Map();
    function setdefault(d, score) {
      var k = d.edition + "\u0000" + d.language + "\u0000" + d.number;
      if (!ranked.has(k)) ranked.set(k, [d, score]);
    }
    direct(p, planned.numbers, edition).filter(function (h) { return languages.indexOf(h[0].language) >= 0; })
      .map(function (h) { return [h[0], weight(h[0], h[1])]; })
      .sort(function (a, b) { return b[1] - a[1]; })
      .forEach(function (h) { setdefault(h[0], h[1]); });
    var missing = planned.numbers.filter(function (n) {
      return !Array.from(ranked.values()).some(function (h) { return h[0].number === n; });
    });
    if (missing.length) notices.push("règle introuvable : " + missing.join(", "));

    var words = planned.words, corrections = new Map();
    words.forEach(function (word) {
      var fixed = correction(p, word, languages);
      if (fixed !== null) corrections.set(word, fixed);
    });
    if (corrections.size) words = words.map(function (w) { return corrections.has(w) ? corrections.get(w) : w; });

    function runIn(language) {
      var stop = p.lang[language].stop, stemOf = function (w) { return stem(p, language, w); };
      var q = compose(words, planned, language, stemOf, stop);
      if (q === null) return [];
      var allowed = null;
      if (edition) {
        allowed = new Set();
        p.lang[language].part.docs.forEach(function (d, i) { if (d[0] === edition) allowed.add(i); });
      }
      var wanted = concepts(words, planned, language, stemOf, stop), asked = new Set();
      wanted.forEach(function (alts) { alts.forEach(function (alt) { alt.forEach(function (s) { asked.add(s); }); }); });
      var names = p.lang[language].part.names;
      return top(evaluate(p, language, q), 3 * limit + 20 + ranked.size, allowed).map(function (h) {
        var docnum = h[0], score = h[1];
        var c = coverage(function (s) { return clause(p, language, s).has(docnum); }, wanted);
        score *= c * c;
        var name = new Set(names[docnum]);
        if (name.size && Array.from(name).every(function (s) { return asked.has(s); })
            && coverage(function (s) { return name.has(s); }, wanted) === 1.0) score *= NAME_MATCH;
        return [doc(p, language, docnum), score];
      });
    }
    var newest = data.newest;
    var textHits = merge(languages.map(function (language) { return [language, runIn(language)]; }),
                         preferred || p.primary[newest]);
    textHits.slice(0, limit + ranked.size).forEach(function (h) { setdefault(h[0], h[1]); });

    var exactWords = new Set(planned.numbers);
    planned.phrases.forEach(function (ph) { ph.forEach(function (w) { exactWords.add(w); }); });
    corrections.forEach(function (fixed) { exactWords.add(fixed); });
    var askedWords = new Set(words.concat(planned.words));
    planned.phrases.forEach(function (ph) { ph.forEach(function (w) { askedWords.add(w); }); });
    planned.expansions.concat(planned.english).forEach(function (e) {
      e.forEach(function (alt) { alt.forEach(function (w) { askedWords.add(w); }); });
    });
    var marks = {};
    var results = Array.from(ranked.values()).slice(0, limit).map(function (h) {
      var d = h[0], part = data.languages[d.language], card = part.cards[d.docnum], stop = p.lang[d.language].stop;
      if (!marks[d.language]) {
        marks[d.language] = new Set(Array.from(askedWords).map(function (w) { return stem(p, d.language, w); }));
      }
      var stems = marks[d.language];
      var removed = card[4];
      return {
        id: d.edition + ":" + d.language + ":" + d.number, edition: d.edition, language: d.language,
        number: d.number, title: card[0], score: h[1], url: data.urls[d.language][d.docnum],
        note: card[1] === "historical" ? "historique" + (removed.length ? ", supprimée en " + removed.join(", ") : "") : "",
        extract: extract(p, card, stop, function (t) { return exactWords.has(t) || stems.has(stem(p, d.language, t)); }),
      };
    });
    return { results: results, suggestion: suggestion(p, planned.text, corrections),
             notice: notices.length ? notices.join(" ; ") : null };
  }

  // A query that is only a rule number or a range (`300.3`, `règle 300,3`, `302-303`) opens
  // the (first) rule when one edition has it, as `judge serve` does (judge.corpus.selection:
  // a number in each edition's first language that has it, a range in its first language).
  var ONE = "\\d{3}(?:[.,]\\d+[a-z]?)?";
  var RULE_ONE = new RegExp("^" + ONE + "$"), RULE_RANGE = new RegExp("^(" + ONE + ")\\s*[-–]\\s*(" + ONE + ")$");
  function normalizeQuery(text) {
    var q = text.trim();
    ["règle", "regle", "rule"].forEach(function (w) { if (q.toLowerCase().startsWith(w)) q = q.slice(w.length).trim(); });
    q = q.replace(/\.+$/, "").trim();
    return RULE_ONE.test(q) || RULE_RANGE.test(q) ? q.replace(/,/g, ".") : q;
  }
  function sortKey(number) {  // judge.corpus.numbers.sort_key
    var cut = number.indexOf("."), head = cut < 0 ? number : number.slice(0, cut), tail = cut < 0 ? "" : number.slice(cut + 1);
    var digits = tail.replace(/[a-z]+$/, "");
    return [parseInt(head, 10), digits ? parseInt(digits, 10) : -1, tail.slice(digits.length)];
  }
  function compareKeys(a, b) {
    for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }
  function inRange(number, low, high) {  // judge.corpus.selection._in_range
    var k = sortKey(number), lo = sortKey(low), hi = sortKey(high);
    return lo[0] <= k[0] && k[0] <= hi[0] && compareKeys(lo, k) <= 0 && (compareKeys(k, hi) <= 0 || number.startsWith(high));
  }
  function ruleTarget(query) {
    var data = global.JUDGE_SEARCH_INDEX;
    if (!data) return null;
    var q = normalizeQuery(query), span = RULE_RANGE.exec(q);
    if (!span && !RULE_ONE.test(q)) return null;
    var p = prepare(data), found = [];
    data.editions.forEach(function (ed) {
      if (span) {
        var language = ed[1][0], l = p.lang[language];
        l.part.docs.forEach(function (d, i) {
          if (d[0] === ed[0] && inRange(d[1], span[1], span[2])) found.push(doc(p, language, i));
        });
        return;
      }
      var hit = ed[1].map(function (language) { return lookup(p, ed[0], language, q); })
        .find(function (d) { return d !== null; });
      if (hit) found.push(hit);
    });
    if (!found.length || new Set(found.map(function (d) { return d.edition; })).size > 1) return null;
    return data.urls[found[0].language][found[0].docnum];
  }

  function show(doc) {
    var params = new URLSearchParams(global.location.search), query = params.get("q") || "";
    var list = doc.getElementById("results"), status = doc.getElementById("search-status");
    var box = doc.getElementById("q");
    if (box) box.value = query;
    if (!list || !query.trim()) return;
    var target = ruleTarget(query);
    if (target) { global.location.replace(target); return; }
    var found = run(query, PAGE_HITS), results = found.results, hint = doc.getElementById("search-suggestion");
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
      li.className = "search-hit";
      head.className = "hit-head";
      a.href = r.url;
      a.textContent = r.title ? r.number + " " + r.title : r.number;
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
      text.className = "hit-snippet snippet";
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

  global.judgeSearchRun = run;
  if (global.document) show(global.document);
})(typeof window !== "undefined" ? window : globalThis);
