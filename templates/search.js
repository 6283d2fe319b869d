/* The static book's search: `judge search` in the browser, on the same exported index.

   The export of the Whoosh index of record (judge/search/export.py) is read in chunks
   (judge/site/offline_index.py) through search-data.js: a run that misses a chunk is run
   again once the missing chunks are loaded, and only a run that missed none is shown
   (judgeSearchRun returns a promise); search-match.js reads the index and scores query trees. This file is
   judge/search/query.py (planning, glossary notions, typo correction, the query tree,
   coverage, names, the merge of the two languages, ties), judge/search/output.py (extracts)
   and the page; tests/site/test_search_browser.py checks in Chromium that it ranks as Whoosh
   on the eval set. */
(function (global) {
  "use strict";
  var core = global.judgeSearchCore, D = global.judgeSearchData;
  var unique = core.unique, key = core.key, fold = core.fold, levenshtein = core.levenshtein;
  var bisectLeft = core.bisectLeft, prepare = core.prepare, tokens = core.tokens, foldTerms = core.foldTerms;
  var stem = core.stem, clause = core.clause, exactFrequency = core.exactFrequency, within = core.within;
  var doc = core.doc, lookup = core.lookup, evaluate = core.evaluate, top = core.top;
  var Clause = core.Clause, Or = core.Or, And = core.And, Phrase = core.Phrase;
  var WORD_CHAR = core.WORD_CHAR, DIGIT = core.DIGIT, UNKNOWN = core.UNKNOWN, TERM_WORD = core.NAME_WORD;
  var singular = core.singular, termKey = core.nameKey;
  // judge.search.query: its constants and patterns.
  var MAX_QUERY = 500, DIRECT_SCORE = 100.0, CHILD_SCORE = 50.0, OTHER_LANGUAGE = 0.4, NAME_MATCH = 2.0;
  var DEFINED_SCORE = 90.0, VARIANT = 0.5, BETTER_LANGUAGE = 1.25, PAIR_BOOST = 1.0, DEFINES = 2.0, NAME_GAP = 2, CANDIDATES = 100;
  var PREFIX_MIN = 2, IN_SECTION = 1.3, RELATION = 1.5, OWN_FIELDS = ["title", "text"];  // judge.search.fields.OWN_FIELDS
  var SNIPPET_CHARS = 220, PAGE_HITS = 20, FIRST_SCREEN = 5, FIRST_DRAWN = 1;
  var CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]/g;
  // Typed rule numbers: judge.corpus.numbers, through rule-jump.js (loaded first).
  var NUMBERS = global.judgeRuleNumbers, NUMBER = NUMBERS.pattern("number", "g");
  var OPERATORS = /(?<![\p{L}\p{N}_])(?:AND|OR|NOT)(?![\p{L}\p{N}_])/gu;
  var QUOTED = /"([^"]+)"|«([^»]+)»|“([^”]+)”/g;
  var QUESTION = new RegExp("(?<![\\p{L}\\p{N}_'])(?:que se passe|qu'arrive|se passe|arrive)-t-(?:il|elle)(?![\\p{L}\\p{N}_'])"
    + "|(?<![\\p{L}\\p{N}_'])(?:a-t-on|ai-je|avons-nous) le droit(?![\\p{L}\\p{N}_'])", "gu");
  var NUMBER_WORDS = new Set(["regle", "regles", "rule", "rules", "cr", "voir", "cf", "see", "numero", "no"]);

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

  // query._names_in: terminology names word for word (plurals aside), longest first: [start, end, key].
  function namesIn(p, text) {
    var words = [], spans = [], i = 0;
    for (var m of text.matchAll(TERM_WORD)) words.push([m.index, m.index + m[0].length, singular(m[0])]);
    // The query's last word may begin the name's last word, after its first words (PREFIX_MIN).
    function same(at, k, j) {
      var word = words[at][2];
      return word === k[j] || (at === words.length - 1 && j === k.length - 1 && j > 0
        && Array.from(word).length >= PREFIX_MIN && k[j].startsWith(word));
    }
    while (i < words.length) {
      var key = (p.firsts.get(words[i][2]) || []).find(function (k) {
        if (k.length > words.length - i) return false;
        for (var j = 0; j < k.length; j++) if (!same(i + j, k, j)) return false;
        return true;
      });
      if ((key === undefined || key.length < 2) && i + 1 < words.length) {
        // A two-word name with its words swapped (« initiative double »), before a one-word name.
        var swapped = (p.firsts.get(words[i + 1][2]) || []).find(function (k) {
          return k.length === 2 && k[0] === words[i + 1][2] && k[1] === words[i][2];
        });
        if (swapped !== undefined) key = swapped;
      }
      if (key === undefined) { i += 1; continue; }
      spans.push([words[i][0], words[i + key.length - 1][1], key]);
      i += key.length;
    }
    return spans;
  }

  // query._names_apart: a name of two content words or more whose words stand in order among
  // the words no other name took, at most NAME_GAP other words between: [[places], key].
  function namesApart(p, text, spans, stop) {
    var words = [], free = [], found = [];
    for (var m of text.matchAll(TERM_WORD)) words.push([m.index, m.index + m[0].length, singular(m[0])]);
    words.forEach(function (w) { free.push(!spans.some(function (s) { return s[0] <= w[0] && w[0] < s[1]; })); });
    words.forEach(function (w, i) {
      if (!free[i] || stop.has(w[2])) return;
      (p.firsts.get(w[2]) || []).some(function (key) {
        if (key.filter(function (k) { return !stop.has(k); }).length < 2) return false;
        var places = [i], last = Math.min(i + key.length - 1 + NAME_GAP, words.length - 1);
        for (var k = 1; k < key.length; k++) {
          var next = -1;
          for (var j = places[places.length - 1] + 1; j <= last; j++) {
            if (free[j] && words[j][2] === key[k]) { next = j; break; }
          }
          if (next < 0) break;
          places.push(next);
        }
        if (places.length !== key.length || places[places.length - 1] - i <= key.length - 1) return false;
        places.forEach(function (j) { free[j] = false; });
        found.push([places.map(function (j) { return [words[j][0], words[j][1]]; }), key]);
        return true;
      });
    });
    return found;
  }

  // query._name_words: a name's words without stop words, all of them when it is only stop words.
  function nameWords(p, name, stop) {
    var words = foldTerms(p, name, stop);
    return words.length ? words : foldTerms(p, name, new Set());
  }

  function nonEmpty(words) { return words.length > 0; }

  // query._under: is rule `number` below rule `parent` (216.3 under 216, 110.5f under 110.5)?
  function under(number, parent) {
    if (number.length <= parent.length || !number.startsWith(parent)) return false;
    var following = number[parent.length];
    return following === "." || /\p{L}/u.test(following);
  }

  // query.plan_query; null when there is nothing to search (empty, only stop words).
  function plan(p, raw) {
    var c = clean(raw), text = c.text, stop = p.queryStop;
    if (!text) return null;
    var folded = NUMBERS.plain(fold(text));
    var numbers = unique(folded.match(NUMBER) || []);
    var phrases = [];
    for (var m of folded.matchAll(QUOTED)) {
      var words = foldTerms(p, m[1] || m[2] || m[3], stop);
      if (words.length > 1) phrases.push(words);
    }
    var rest = folded.replace(/["«»]/g, " ").replace(QUESTION, " "), relations = relationsIn(p, rest);
    rest = relations[0];
    var every = foldTerms(p, rest, stop).filter(function (w) { return numbers.indexOf(w) < 0; });
    var expansions = [], english = [], typed = [], named = [], spans = namesIn(p, rest);
    var apart = namesApart(p, rest, spans, stop);
    var found = spans.map(function (s) { return [rest.slice(s[0], s[1]), s[2]]; }).concat(apart.map(function (a) {
      return [a[0].map(function (place) { return rest.slice(place[0], place[1]); }).join(" "), a[1]];
    }));
    found.forEach(function (span) {
      var name = span[0], k = span[1].join(" "), entry = p.names.get(k).term;
      if (named.indexOf(entry) < 0) named.push(entry);
      var inFr = entry[1].some(function (n) { return termKey(n).join(" ") === k; });
      var inEn = entry[0].some(function (n) { return termKey(n).join(" ") === k; });
      typed.push([name, inFr === inEn ? "both" : inFr ? "fr" : "en"]);
      var alternatives = entry[1].map(function (n) { return nameWords(p, n, stop); }).filter(nonEmpty);
      if (alternatives.length && !expansions.some(function (e) { return key(e) === key(alternatives); })) {
        expansions.push(alternatives);
        english.push(unique(entry[0].concat(entry[1]).map(function (n) { return nameWords(p, n, stop); }).filter(nonEmpty)));
      }
    });
    var cut = spans.map(function (s) { return [s[0], s[1]]; });
    apart.forEach(function (a) { cut = cut.concat(a[0]); });
    cut.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    for (var s = cut.length - 1; s >= 0; s--) rest = rest.slice(0, cut[s][0]) + " " + rest.slice(cut[s][1]);
    var plain = foldTerms(p, rest, stop).filter(function (w) { return numbers.indexOf(w) < 0; });
    if (numbers.length) plain = plain.filter(function (w) { return !NUMBER_WORDS.has(w); });
    if (!numbers.length && !plain.length && !expansions.length && !phrases.length) return null;
    return { text: text, numbers: numbers, words: plain, phrases: phrases, expansions: expansions,
             notices: c.notices, english: english, names: typed, typed: every, terms: named, relations: relations[1] };
  }

  // query._relations_in: the relations a question asks (the exported query.RELATIONS, each
  // [[question words…]…, rules, words]: its first question words found in order) and the text
  // without those words (a number stays): [text, [relation numbers]].
  function relationsIn(p, text) {
    var words = [], found = [], cut = [];
    for (var m of text.matchAll(TERM_WORD)) words.push([m.index, m.index + m[0].length, m[0]]);
    p.data.relations.forEach(function (relation, n) {
      relation[0].some(function (pattern) {
        var places = [];
        for (var k = 0; k < pattern.length; k++) {
          var from = places.length ? places[places.length - 1] + 1 : 0, place = -1;
          for (var i = from; i < words.length; i++) if (words[i][2] === pattern[k]) { place = i; break; }
          if (place < 0) return false;
          places.push(place);
        }
        found.push(n);
        places.forEach(function (i) { if (!/^\p{Nd}+$/u.test(words[i][2])) cut.push([words[i][0], words[i][1]]); });
        return true;
      });
    });
    cut.sort(function (a, b) { return b[0] - a[0]; });
    cut.forEach(function (c) { text = text.slice(0, c[0]) + " " + text.slice(c[1]); });
    return [text, found];
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
      var pairs = [];
      for (var i = 0; i + 1 < words.length; i++) pairs.push([words[i], words[i + 1]]);
      unique(pairs).forEach(function (pair) { if (pair[0] !== pair[1]) clauses.push(Phrase("exact", pair, 1, PAIR_BOOST)); });
    }
    var typed = keep(planned.typed, stop);
    if (typed.length > words.length && typed.length > 1) clauses.push(Phrase("exact", typed, 3, 1.5));
    return clauses.length ? Or(clauses) : null;
  }

  function concepts(p, words, planned, language, stemOf, stop, notionsOnly) {
    words = keep(words, stop);
    var out = [];
    unique(words).forEach(function (w) {  // a word no language's texts hold is no notion
      if (!notionsOnly && p.languages.some(function (l) { return clause(p, l, stem(p, l, w)).size > 0; })) out.push([[stemOf(w)]]);
    });
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

  function termWords(p, initial) { return p.termWords.get(initial) || new Set(); }

  // query._correct: the closest word of the texts or of the terminology (a real word: only a
  // terminology word 1 edit away).
  function correctIn(p, language, word, real) {
    var n = Array.from(word).length;
    if (n < 4 || n > 30 || DIGIT.test(word)) return null;
    var distance = real || n <= 5 ? 1 : 2, candidates = new Set();
    termWords(p, word.slice(0, 1)).forEach(function (c) {
      if (Math.abs(c.length - word.length) <= distance && levenshtein(c, word) <= distance) candidates.add(c);
    });
    if (!real) within(p, language, word, distance).forEach(function (c) { candidates.add(c); });
    candidates.delete(word);
    if (!candidates.size) return null;
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

  // query.correction: [fixed, real word?] or null.
  function correction(p, word, languages) {
    var k = languages.join(",") + ":" + word;
    if (p.corrections.has(k)) return p.corrections.get(k);
    var found = null;
    if (!termWords(p, word.slice(0, 1)).has(word) && !languages.some(function (language) { return known(p, language, word); })) {
      if (D.incomplete()) return null;  // decided once the word's own chunks are loaded
      var real = D.real(word) === true, fixed = null;
      for (var i = 0; i < languages.length && fixed === null; i++) fixed = correctIn(p, languages[i], word, real);
      found = fixed === null ? null : [fixed, real];
    }
    p.corrections.set(k, found);
    return found;
  }

  // query._corrected: the plan with its unknown words corrected (a real word's correction kept
  // only when it completes a terminology name), and the corrections.
  function corrected(p, planned, languages) {
    var corrections = new Map(), real = [];
    planned.words.forEach(function (word) {
      var found = correction(p, word, languages);
      if (found !== null) { corrections.set(word, found[0]); if (found[1]) real.push(word); }
    });
    if (!corrections.size) return [planned, corrections];
    var fixed = plan(p, suggestion(p, planned.text, corrections) || planned.text);
    var loose = real.filter(function (w) { return fixed.words.indexOf(corrections.get(w)) >= 0; });
    if (loose.length) {
      loose.forEach(function (w) { corrections.delete(w); });
      if (!corrections.size) return [planned, corrections];
      fixed = plan(p, suggestion(p, planned.text, corrections) || planned.text);
    }
    return [fixed, corrections];
  }

  // query._variants: per edition, the number prefixes of the variants the query does not name.
  function variants(p, planned) {
    var found = {};
    p.data.glossary.forEach(function (term) {
      if (!term[3] || planned.terms.indexOf(term) >= 0) return;
      term[2].forEach(function (k) {
        var cut = k.indexOf(":"), ed = k.slice(0, cut), number = k.slice(cut + 1);
        (found[ed] = found[ed] || []).push(number, number + ".");
      });
    });
    return found;
  }

  // query._defined: the first defining rule of the one notion the query is.
  function defined(p, planned, edition, languages, preferred) {
    if (planned.terms.length !== 1 || planned.words.length || planned.numbers.length || planned.phrases.length) return [];
    var rules = planned.terms[0][2];
    for (var r = 0; r < rules.length; r++) {
      var cut = rules[r].indexOf(":"), ed = rules[r].slice(0, cut), number = rules[r].slice(cut + 1);
      if (!p.data.editions.some(function (e) { return e[0] === ed; }) || (edition && ed !== edition)) continue;
      var first = preferred || p.primary[ed];
      var order = languages.filter(function (c) { return c === first; }).concat(languages.filter(function (c) { return c !== first; }));
      for (var i = 0; i < order.length; i++) {
        var d = lookup(p, ed, order[i], number);
        if (d !== null) return [[d, DEFINED_SCORE]];
      }
    }
    return [];
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
            core.docs(p, language).forEach(function (x, i) {
              if (x[0] === ed[0] && x[1].startsWith(number + ".")) found.push([doc(p, language, i), CHILD_SCORE]);
            });
            return;
          }
          found.push([d, DIRECT_SCORE]);
          var under = D.documents(language).descendants[d.docnum];  // the documents right after it
          for (var n = d.docnum + 1; n <= d.docnum + under; n++) found.push([doc(p, language, n), CHILD_SCORE]);
        });
      });
    });
    return found;
  }

  // query.py _better: a defining rule answering all the notions, more of the notions and phrases, or more of the words.
  function better(other, first) {
    if (other === undefined || first === undefined) return other !== undefined;
    for (var i = 0; i < other.length; i++) if (other[i] !== first[i]) return other[i] > first[i];
    return false;
  }

  function merge(perLanguage, first, covered) {
    var tops = new Map(), order = new Map(), merged = [];
    perLanguage.forEach(function (entry, i) {
      order.set(entry[0], i);
      tops.set(entry[0], entry[1].reduce(function (m, h) { return Math.max(m, h[1]); }, 0.0));
    });
    var reference = tops.has(first) ? tops.get(first) : 0.0;
    perLanguage.forEach(function (entry) {
      var scale = 1.0, language = entry[0];
      if (language !== first && reference > 0 && tops.get(language) > 0) {
        var share = better(covered[language], covered[first]) ? BETTER_LANGUAGE : OTHER_LANGUAGE;
        scale = share * reference / tops.get(language);
      }
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
  // judge.corpus.names: a name's key (folded words, small words and plural s/x dropped) and
  // the glossary entries a query names (its own words, an FR↔EN notion, or every word).
  var NAME_WORD = /[\p{L}\p{N}_']+/gu, ORDER = { term: 0, lexicon: 1, words: 2 }, GLOSSARY_HITS = 3;
  function nameKey(small, text) {
    var out = new Set();
    (fold(text).match(NAME_WORD) || []).forEach(function (w) {
      w = w.split("'").pop();
      if (w && !small.has(w)) out.add(w.length > 3 && (w.endsWith("s") || w.endsWith("x")) ? w.slice(0, -1) : w);
    });
    return Array.from(out).sort();
  }
  // The entries come from the chunks of the words they are named by ([entry, edition,
  // language, term, name key]): every entry a query can find holds its first word or the
  // first word of one of its translations; their definitions, for the ones shown.
  function glossaryHits(data, text, edition, limit) {
    var small = new Set(data.small_words), words = nameKey(small, text), k = words.join("\u0000");
    if (!words.length) return [];
    var translated = new Set();
    D.notionsNamed(k).forEach(function (term) {  // judge.corpus.glossary.notion_keys
      term[0].concat(term[1]).forEach(function (n) { translated.add(nameKey(small, n).join("\u0000")); });
    });
    translated.delete(k);
    var candidates = new Map();
    [words[0]].concat(Array.from(translated).map(function (t) { return t.split("\u0000")[0]; })).forEach(function (w) {
      (D.entriesWith(w) || []).forEach(function (e) { candidates.set(e[0], e); });
    });
    if (D.incomplete()) return [];
    var found = [];
    Array.from(candidates.keys()).sort(function (a, b) { return a - b; }).forEach(function (i) {
      var e = candidates.get(i);
      if (edition && e[1] !== edition) return;
      var termKey = e[4].join("\u0000"), via = null;
      if (termKey === k) via = "term";
      else if (translated.has(termKey)) via = "lexicon";
      else if (words.every(function (w) { return e[4].indexOf(w) >= 0; })) via = "words";
      if (via) found.push({ entry: i, edition: e[1], language: e[2], term: e[3], found_by: via });
    });
    found.sort(function (a, b) { return ORDER[a.found_by] - ORDER[b.found_by] || Array.from(a.term).length - Array.from(b.term).length; });
    return found.slice(0, limit).map(function (g) {
      var more = D.entry(g.entry) || ["", ""];
      return { edition: g.edition, language: g.language, term: g.term, text: more[0], found_by: g.found_by, url: more[1] };
    });
  }
  function shortDefinition(text) {  // judge.search.output.short_definition
    text = text.split(/\s+/).filter(function (w) { return w; }).join(" ");
    var chars = Array.from(text);
    return chars.length > 200 ? chars.slice(0, 200).join("") + "…" : text;
  }

  function run(query, limit, options) {
    var data = D.manifest();
    limit = limit || 10;
    options = options || {};
    if (!data) return { results: [], suggestion: null, glossary: [], notice: null };
    var p = prepare(data), planned = plan(p, query);
    if (planned === null) return { results: [], suggestion: null, glossary: [], notice: null };
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
    // The rule a query numbers in another language comes right after it when no release has
    // that rule in the query's language, else after the rules under it.
    var found = direct(p, planned.numbers, edition).filter(function (h) { return languages.indexOf(h[0].language) >= 0; });
    var own = new Set();
    found.forEach(function (h) {
      if (h[1] === DIRECT_SCORE && weight(h[0], 1.0) === 1.0) own.add(h[0].number);
    });
    found.map(function (h, i) {
      var d = h[0], s = h[1] === DIRECT_SCORE && !own.has(d.number) ? h[1] : weight(d, h[1]);
      return [d, s, weight(d, 1.0) !== 1.0 ? 1 : 0, i];
    }).sort(function (a, b) { return b[1] - a[1] || a[2] - b[2] || a[3] - b[3]; })
      .forEach(function (h) { setdefault(h[0], h[1]); });
    var missing = planned.numbers.filter(function (n) {
      return !Array.from(ranked.values()).some(function (h) { return h[0].number === n; });
    });
    if (missing.length) notices.push("règle introuvable : " + missing.join(", "));

    var fixedPlan = corrected(p, planned, languages), corrections = fixedPlan[1];
    planned = fixedPlan[0];
    var words = planned.words, variantsOf = variants(p, planned), covered = {}, defining = new Set(), sections = {};
    planned.terms.forEach(function (term) { term[2].forEach(function (k) { defining.add(k); }); });
    // query.search_with's asks_more: more than one notion alone (a rule defining one, answering the rest, is not buried).
    var asksMore = planned.terms.length + planned.words.length + planned.phrases.length > 1;
    planned.terms.forEach(function (term) {  // per edition, [defining rule, its notion]
      term[2].forEach(function (k) {
        var at = k.indexOf(":"), ed = k.slice(0, at);
        (sections[ed] = sections[ed] || []).push([k.slice(at + 1), term]);
      });
    });

    // query._section_coverage: a stem the heading lacks counts when every rule of its edition
    // that holds it is in the heading's section (the documents right after it).
    function sectionCoverage(language, d, wanted) {
      var all = core.docs(p, language), exported = D.documents(language);
      var last = d.docnum + (exported ? exported.descendants[d.docnum] : 0);
      return coverage(function (s) {
        var held = clause(p, language, s), found = 0, inside = 0;
        if (held.has(d.docnum)) return true;
        held.forEach(function (_, n) {
          if (all[n] && all[n][0] === d.edition) {
            found++;
            if (n > d.docnum && n <= last) inside++;
          }
        });
        return found > 0 && inside === found;
      }, wanted);
    }

    function runIn(language) {
      var stop = p.lang[language].stop, stemOf = function (w) { return stem(p, language, w); };
      var q = compose(words, planned, language, stemOf, stop);
      if (q === null) return [];
      var allowed = null;
      if (edition) {
        allowed = new Set();
        core.docs(p, language).forEach(function (d, i) { if (d[0] === edition) allowed.add(i); });
      }
      var wanted = concepts(p, words, planned, language, stemOf, stop), asked = new Set();
      var notionsWanted = concepts(p, words, planned, language, stemOf, stop, true), bestNotions = 0.0;
      wanted.forEach(function (alts) { alts.forEach(function (alt) { alt.forEach(function (s) { asked.add(s); }); }); });
      var names = (D.documents(language) || { names: [] }).names, best = 0.0, opened = {}, defines = 0.0;
      // query.search_with's answers: a defining rule that is a heading the query names, its
      // section answering the rest, is the answer, not its sub-rules (IN_SECTION).
      function answers(ed, number) {
        var head = lookup(p, ed, language, number);
        if (head === null) return false;
        var name = names[head.docnum] || [];
        if (!name.length || !name.every(function (s) { return asked.has(s); })) return false;
        return sectionCoverage(language, head, wanted) === 1.0;
      }
      function said(term) {  // a notion's names in this language's texts, as stems
        var all = language === "fr" ? term[1] : term[0].concat(term[1]), out = [];
        all.forEach(function (n) {
          var k = keep(nameWords(p, n, p.queryStop), stop);
          if (k.length) out.push(k.map(stemOf));
        });
        return out;
      }
      // The rules of the kinds that answer the relations asked: under these rules, or saying these stems.
      var kinds = planned.relations.map(function (n) {
        var relation = p.data.relations[n], rules = relation[1][0] === "*" ? Array.from(defining) : relation[1];
        return [rules.map(function (k) { var at = k.indexOf(":"); return [k.slice(0, at), k.slice(at + 1)]; }),
                relation[2].filter(function (w) { return !stop.has(w); }).map(stemOf)];
      }), answered = 0.0;
      function says(s, docnum) {
        return OWN_FIELDS.some(function (f) { return core.term(p, language, f, s).scores.has(docnum); });
      }
      Object.keys(sections).forEach(function (ed) {
        opened[ed] = sections[ed].filter(function (e) { return !answers(ed, e[0]); }).map(function (e) {
          return [e[0], said(e[1])];
        });
      });
      var hits = top(evaluate(p, language, q), 3 * limit + CANDIDATES + ranked.size, allowed).map(function (h) {
        var docnum = h[0], score = h[1], d = doc(p, language, docnum);
        var c = coverage(function (s) { return clause(p, language, s).has(docnum); }, wanted);
        best = Math.max(best, c);
        if (notionsWanted.length) {
          var share = coverage(function (s) { return clause(p, language, s).has(docnum); }, notionsWanted);
          bestNotions = Math.max(bestNotions, share);
          if (share === 1.0 && asksMore && defining.has(d.edition + ":" + d.number)) defines = 1.0;
        }
        var name = new Set(names[docnum]);
        var named = name.size && Array.from(name).every(function (s) { return asked.has(s); });
        if (c < 1.0 && named) c = sectionCoverage(language, d, wanted);  // query._section_coverage
        score *= c * c;
        if ((variantsOf[d.edition] || []).some(function (prefix) { return d.number.startsWith(prefix); })) score *= VARIANT;
        kinds.forEach(function (kind) {
          if (kind[0].some(function (r) { return r[0] === d.edition && (d.number === r[1] || under(d.number, r[1])); })
              || kind[1].some(function (s) { return says(s, docnum); })) {
            score *= RELATION;
            if (coverage(function (s) { return clause(p, language, s).has(docnum); }, notionsWanted) === 1.0) answered = 1.0;
          }
        });
        if (defining.has(d.edition + ":" + d.number)) score *= DEFINES;
        else if ((opened[d.edition] || []).some(function (e) {  // a sub-rule whose own words name the notion
          return under(d.number, e[0]) && e[1].some(function (alt) {
            return alt.every(function (s) {
              return OWN_FIELDS.some(function (f) { return core.term(p, language, f, s).scores.has(docnum); });
            });
          });
        })) score *= IN_SECTION;
        if (named && c === 1.0) score *= 1.0 + (NAME_MATCH - 1.0) * coverage(function (s) { return name.has(s); }, wanted);
        return [d, score];
      }).filter(function (h) { return h[1] > 0; });  // a rule that answers none of the notions is no hit
      covered[language] = [defines, answered, bestNotions, best];
      return hits;
    }
    defined(p, planned, edition, languages, preferred).forEach(function (h) { setdefault(h[0], h[1]); });
    var newest = data.newest;
    var textHits = merge(languages.map(function (language) { return [language, runIn(language)]; }),
                         preferred || p.primary[newest], covered);
    textHits.slice(0, limit + ranked.size).forEach(function (h) { setdefault(h[0], h[1]); });

    var exactWords = new Set(planned.numbers);
    planned.phrases.forEach(function (ph) { ph.forEach(function (w) { exactWords.add(w); }); });
    corrections.forEach(function (fixed) { exactWords.add(fixed); });
    var askedWords = new Set(words.concat(planned.words));
    planned.phrases.forEach(function (ph) { ph.forEach(function (w) { askedWords.add(w); }); });
    planned.expansions.concat(planned.english).forEach(function (e) {
      e.forEach(function (alt) { alt.forEach(function (w) { askedWords.add(w); }); });
    });
    // Its chunks are loaded with the ranking's, its definitions with the cards; for the first
    // result (`options.first`), only if they are there: the others are fetched meanwhile.
    var ranking = !D.incomplete(), later = false;
    var glossary = planned.numbers.length ? [] : (options.first || options.ahead ? D.aside : call)(function () {
      return glossaryHits(data, planned.text, edition, GLOSSARY_HITS);
    }, function () { later = true; }).filter(function (g) { return !lang || g.language === lang; });
    if (later) glossary = [];  // not all there yet: shown with the next results
    var marks = {}, irregulars = {}, none = { results: [], suggestion: null, glossary: [], notice: null };
    if (!ranking) return none;  // the ranking is not known yet: no card loaded for it
    var shown = Array.from(ranked.values()).slice(0, limit);
    // `options.first`: only the first results get their cards (the first screen, drawn at once).
    var ready = options.first ? shown.slice(0, options.first) : shown;
    ready.forEach(function (h) {  // the stems an extract marks, per language
      var language = h[0].language;
      if (!marks[language]) {
        marks[language] = new Set(Array.from(askedWords).map(function (w) { return stem(p, language, w); }));
      }
    });
    if (options.ahead) {  // a query being typed (`ahead`): its ranking's chunks, its first cards and their extracts'
      ready.forEach(function (h) { D.card(h[0].language, h[0].docnum); });
      Object.keys(marks).forEach(function (language) {
        marks[language].forEach(function (s) { if (!s.startsWith(UNKNOWN) && s) D.wantPrefix(language, s, 3); });
      });
      return none;
    }
    var cards = ready.map(function (h) { return D.card(h[0].language, h[0].docnum); });
    if (D.incomplete() && options.soon) {
      // The cards of the results drawn next are fetched too, after the ones this run waits for.
      D.prefetch(shown.slice(ready.length, options.soon).map(function (h) { return D.cardId(h[0].language, h[0].docnum); }));
    }
    if (D.incomplete()) {
      // With the cards: the chunks of the words that begin with a marked stem (the extracts').
      Object.keys(marks).forEach(function (language) {
        marks[language].forEach(function (s) { if (!s.startsWith(UNKNOWN) && s) D.wantPrefix(language, s, 3); });
      });
      return none;
    }
    var results = ready.map(function (h, i) {
      var d = h[0], card = cards[i], stop = p.lang[d.language].stop;
      var stems = marks[d.language], prefixes = Array.from(stems);
      var irregular = irregulars[d.language] || (irregulars[d.language] = new Set(data.languages[d.language].irregular));
      // Only a word that may have one of these stems is looked up (its chunk loaded): an asked
      // word, an irregular one, or one that begins with one of them.
      var mayMatch = function (t) {
        return askedWords.has(t) || irregular.has(t) || prefixes.some(function (s) { return t.startsWith(s); });
      };
      var removed = card[4];
      return {
        id: d.edition + ":" + d.language + ":" + d.number, edition: d.edition, language: d.language,
        number: d.number, title: card[0], french: card[6] || null, score: h[1], url: card[2],
        note: card[1] === "historical" ? "historique" + (removed.length ? ", supprimée en " + removed.join(", ") : "") : "",
        extract: extract(p, card, stop, function (t) { return exactWords.has(t) || (mayMatch(t) && stems.has(stem(p, d.language, t))); }),
      };
    });
    return { results: results, suggestion: suggestion(p, planned.text, corrections), glossary: glossary,
             notice: notices.length ? notices.join(" ; ") : null, total: shown.length, later: later };
  }

  // A query that is only a rule number or a range, in any typed form (`300.3`, `R305.4`,
  // `règle 300,3`, `302-303`, `308.2a-c`: judge.corpus.numbers, read by rule-jump.js), opens the
  // (first) rule when one edition has it, as `judge serve` does (judge.corpus.selection: a number
  // in each edition's first language that has it, a range in its first language).
  function ruleTarget(query) {
    var data = D.manifest();
    if (!data) return null;
    var asked = NUMBERS.parse(query);
    if (!asked) return null;
    var p = prepare(data), found = [];
    data.editions.forEach(function (ed) {
      if (asked.high) {
        var language = ed[1][0];
        core.docs(p, language).forEach(function (d, i) {
          if (d[0] === ed[0] && NUMBERS.inRange(d[1], asked.low, asked.high)) found.push(doc(p, language, i));
        });
        return;
      }
      var hit = ed[1].map(function (language) { return lookup(p, ed[0], language, asked.low); })
        .find(function (d) { return d !== null; });
      if (hit) found.push(hit);
    });
    if (!found.length || new Set(found.map(function (d) { return d.edition; })).size > 1) return null;
    var card = D.card(found[0].language, found[0].docnum);
    return card ? card[2] : null;
  }

  var EMPTY = { results: [], suggestion: null, glossary: [], notice: null };
  function call(f) { return f(); }

  // A run until it misses no chunk of the index (search-data.js); what a run that missed
  // chunks kept is forgotten before the next.
  function complete(compute) {
    var data = D.manifest();
    if (!data) return Promise.resolve(null);
    var p = prepare(data);
    return D.complete(compute, function () { core.forget(p); });
  }

  // The search, as a promise of {results, suggestion, glossary, notice}.
  function search(query, limit, options) {
    return complete(function () { return run(query, limit, options); }).then(function (found) { return found || EMPTY; });
  }

  // ------------------------------------------------------------------ the page
  // A new query is searched in place (no new page: the loaded chunks stay), its URL pushed.
  var current = 0;

  function clear(doc) {
    ["results", "rule-choice"].forEach(function (id) {
      var node = doc.getElementById(id);
      if (node) node.replaceChildren();
    });
    var choice = doc.getElementById("rule-choice"), hint = doc.getElementById("search-suggestion");
    var terms = doc.getElementById("glossary-results");
    if (choice) choice.hidden = true;
    if (hint) { hint.replaceChildren(); hint.hidden = true; }
    if (terms) { terms.querySelector("ul").replaceChildren(); terms.hidden = true; }
  }

  // The next task: what was drawn is painted, and a tap is answered, before the next run.
  function yieldTask() { return new Promise(function (resolve) { setTimeout(resolve, 0); }); }

  function show(doc, query) {
    var list = doc.getElementById("results"), status = doc.getElementById("search-status");
    var box = doc.getElementById("q"), asked = ++current;
    if (box && box.value !== query) box.value = query;
    if (!list || !query.trim()) return;
    if (status && !/chargement/.test(status.textContent)) status.textContent = "« " + query.trim() + " » : recherche…";
    complete(function () { return ruleTarget(query); }).then(function (target) {
      if (asked !== current) return null;
      if (target) { global.location.replace(target); return null; }
      // The first result as soon as its card is there, then the rest of the first screen
      // (their cards fetched meanwhile), then the others.
      var drawn = 0;
      function next(options) {
        return search(query, PAGE_HITS, options).then(function (found) {
          if (asked !== current) return false;
          if (found.results.length > drawn || !drawn) draw(doc, query, found, drawn);
          else drawGlossary(doc, found);
          drawn = Math.max(drawn, found.results.length);
          return drawn < (found.total || 0) || found.later;  // later: the glossary entries are still to come
        });
      }
      // Each run in a task of its own (`yieldTask`): with its chunks loaded a run resolves at
      // once, and chained in one task the next runs would hold the first result's paint and
      // block the page (a phone's CPU: 150-200 ms a run).
      return next({ first: FIRST_DRAWN, soon: FIRST_SCREEN }).then(function (more) {
        return more && yieldTask().then(function () { return next({ first: FIRST_SCREEN }); }).then(function (rest) {
          return rest && yieldTask().then(function () { return next({}); });
        });
      });
    }).catch(function () {
      if (asked === current && status) {
        status.textContent = "Recherche impossible : une partie de l'index n'a pas pu être chargée (réseau coupé ?). Réessayez.";
      }
    });
  }

  function again(doc, query) {
    clear(doc);
    global.history.pushState(null, "", "?q=" + encodeURIComponent(query));
    show(doc, query);
  }

  // While a query is typed in the page's box, what it will read is fetched (the search is run,
  // nothing drawn): the chunks of its ranking, its first result's card and that card's extract:
  // at Enter, the answer is there. Run for the words typed so far at each key (once per text)
  // and for the whole text after a pause; for the word being typed, at each key: the chunks of
  // the words it may become, and the query it will likely be (`guess`).
  var TYPING_PAUSE = 400, PREFIX_CHUNKS = 2, pause = null, asked = new Set();
  var LAST_WORD = new RegExp("(?:" + TERM_WORD.source + ")$", "u");
  function ahead(query) {
    query = query.trim();
    if (!query || asked.has(query) || (global.judgeRuleQuery && global.judgeRuleQuery(query))) return;
    asked.add(query);
    search(query, PAGE_HITS, { ahead: true, first: FIRST_DRAWN }).catch(function () { asked.delete(query); });
  }

  // While a query is typed, the query it will likely be, its last word being typed (null when
  // not known): the words before it begin FR↔EN names (the names begun by the most of them)
  // whose next word begins with it: their rest as far as they agree (at least that next word);
  // or, none of them, the one word it may become that begins a name. Meanwhile, the chunks of
  // the terms it may become (in every language) are asked for.
  function guess(text) {
    var p = prepare(D.manifest()), typed = LAST_WORD.exec(text), rests = [];
    var before = typed ? text.slice(0, typed.index) : text, part = typed ? fold(typed[0]) : "";
    if (part) p.languages.forEach(function (language) { D.wantPrefix(language, part, PREFIX_CHUNKS); });
    var words = (fold(before).match(TERM_WORD) || []).map(singular);
    words.some(function (_, i) {  // the names begun by the words from the i-th on
      var n = words.length - i;
      (p.firsts.get(words[i]) || []).forEach(function (k) {
        if (k.length <= n || !k[n].startsWith(part)) return;
        for (var j = 1; j < n; j++) if (k[j] !== words[i + j]) return;
        rests.push(k.slice(n));
      });
      return rests.length > 0;
    });
    if (rests.length) {  // they agree on their first `same` words
      var same = 0;
      while (rests.every(function (r) { return same < r.length && r[same] === rests[0][same]; })) same++;
      return same ? before + rests[0].slice(0, same).join(" ") : null;
    }
    var starts = part ? D.nameStarts(part, PREFIX_CHUNKS) || [] : [];
    return starts.length === 1 ? before + starts[0] : null;
  }

  function typing(text) {
    var typed = LAST_WORD.exec(text);
    ahead(typed ? text.slice(0, typed.index) : text);
    if ((typed && DIGIT.test(typed[0])) || !text.trim() || !D.manifest()) return;  // a number begins no name
    // `guess` computes nothing a search keeps: nothing to forget when it misses a chunk.
    D.complete(function () { return guess(text); }, function () {}).then(function (found) {
      if (found) ahead(found);
    }).catch(function () {});
  }

  function listen(doc) {
    var form = doc.querySelector("form.search-box"), box = doc.getElementById("q");
    if (form && box) {
      box.addEventListener("input", function () {
        var text = box.value;
        clearTimeout(pause);
        typing(text);
        pause = setTimeout(function () { ahead(box.value); }, TYPING_PAUSE);
      });
      form.addEventListener("submit", function (event) {
        clearTimeout(pause);
        var query = box.value;
        // A rule number: the page opens it (rule-jump.js, without the index).
        if (!query.trim() || (global.judgeRuleQuery && global.judgeRuleQuery(query))) return;
        event.preventDefault();
        again(doc, query);
      });
    }
    var hint = doc.getElementById("search-suggestion");
    if (hint) {
      hint.addEventListener("click", function (event) {
        var link = event.target.closest("a");
        if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        again(doc, new URL(link.href).searchParams.get("q") || "");
      });
    }
    global.addEventListener("popstate", function () {
      clear(doc);
      show(doc, new URLSearchParams(global.location.search).get("q") || "");
    });
  }

  // The results from the `from`th on (the suggestion, glossary and status with the first ones).
  function draw(doc, query, found, from) {
    var list = doc.getElementById("results"), status = doc.getElementById("search-status");
    var results = found.results.slice(from), hint = doc.getElementById("search-suggestion");
    drawGlossary(doc, found);
    if (from) { results.forEach(function (r) { drawResult(doc, list, r); }); return; }
    if (hint && found.suggestion) {
      var link = doc.createElement("a");
      link.href = "?q=" + encodeURIComponent(found.suggestion);
      link.textContent = found.suggestion;
      hint.textContent = "Recherche aussi : ";
      hint.appendChild(link);
      hint.hidden = false;
    }
    var total = found.total || 0;
    status.textContent = total
      ? total + " résultat" + (total > 1 ? "s" : "") + " pour « " + query + " »"
      : "Aucun résultat pour « " + query + " ».";
    results.forEach(function (r) { drawResult(doc, list, r); });
  }

  // « , texte italien » after a rule or entry not in French (judge.corpus.languages, in the manifest).
  function textOf(language) {
    if (language === "fr") return "";
    var names = global.JUDGE_SEARCH_INDEX.language_names, known = names && names[language];
    return ", texte " + (known ? known.french : language);
  }

  // The glossary entries, once (they may come with the first result or the next ones).
  function drawGlossary(doc, found) {
    var terms = doc.getElementById("glossary-results");
    if (terms && found.glossary.length && terms.hidden) {
      var items = terms.querySelector("ul");
      found.glossary.forEach(function (g) {
        var li = doc.createElement("li"), a = doc.createElement("a"), where = doc.createElement("span");
        a.href = g.url;
        a.textContent = g.term;
        where.className = "hit-edition";
        where.textContent = " (édition " + g.edition + textOf(g.language) + ")";
        li.appendChild(a);
        li.appendChild(where);
        li.appendChild(doc.createTextNode(" — " + shortDefinition(g.text)));
        items.appendChild(li);
      });
      terms.hidden = false;
    }
  }

  function drawResult(doc, list, r) {
    var li = doc.createElement("li"), head = doc.createElement("p"), a = doc.createElement("a");
    var where = doc.createElement("span"), text = doc.createElement("p");
    li.className = "search-hit";
    head.className = "hit-head";
    a.href = r.url;
    a.textContent = (r.title ? r.number + " " + r.title : r.number) + (r.french ? " — « " + r.french + " »" : "");
    where.className = "hit-edition";
    where.textContent = " (édition " + r.edition + textOf(r.language) + ")";
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
  }

  global.judgeSearchRun = search;
  if (global.document) {
    listen(global.document);
    show(global.document, new URLSearchParams(global.location.search).get("q") || "");
  }
})(typeof window !== "undefined" ? window : globalThis);
