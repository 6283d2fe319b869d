/* Rule numbers without the search index, in the static book.

   On the search page (this script's tag has data-then; async, in its <head>), its first script:
   shows the query at once, opens a typed rule number without the search index, and only then
   loads the search (the scripts named by data-then, fetched at once, run in order once the
   page is there). On every other page (deferred, in <head>): the
   header's box opens a typed rule number directly, the number list fetched when the box gets
   the focus.

   A rule number, a range or a section, in every form `judge` reads (300.3, R305.4, r. 309.2a,
   310.2 c, CR 704.5g, règle 502, 303,1, § 308, 302-303, 308.2a-c: the grammar of
   judge.corpus.numbers, given as data by the page), is looked up in
   rule-numbers.<digest>.js (named by this script's data-numbers: every rule number of each
   edition and language, judge/site/offline_index.py):
   one edition has it, its rule opens (first language that has it, as judge.corpus.selection);
   several have it, a choice of editions is shown above the search results. The URL of a rule
   is made as judge.site.templating.rule_url makes it. */
(function (global) {
  "use strict";
  var doc = global.document, script = doc.currentScript;
  var root = script ? new URL(".", script.src).href : "";
  var NUMBERS = (script && script.getAttribute("data-numbers")) || "rule-numbers.js";
  // The grammar of typed numbers, judge.corpus.numbers.TYPED_GRAMMAR, written into the page
  // by `judge build` (this script's data-grammar): {w} a word character, {d} a digit.
  var GRAMMAR = JSON.parse((script && script.getAttribute("data-grammar")) || "{}");
  function pattern(name, flags) {
    var source = (GRAMMAR[name] || "(?!)").replace(/\{w\}/g, "\\p{L}\\p{N}_").replace(/\{d\}/g, "\\p{Nd}");
    return new RegExp(source, "u" + (flags || ""));
  }
  var PREFIX = pattern("prefix", "g"), COMMA = pattern("comma", "g"), LETTER = pattern("letter", "g");
  var QUERY = pattern("query"), MAX_TYPED = GRAMMAR.max || 80;  // judge.corpus.numbers.MAX_TYPED

  // judge.corpus.numbers.plain_numbers: every typed number written plainly (lower-case text).
  function plain(text) {
    return text.replace(PREFIX, " ").replace(COMMA, "$1.$2").replace(LETTER, "$1$2");
  }

  // judge.corpus.numbers.read_rule_query: a rule query as {low, high} (high null for one
  // number), or null for words to search.
  function parse(text) {
    if (Array.from(text).length > MAX_TYPED) return null;
    var q = plain(text.toLowerCase().split(/\s+/).filter(Boolean).join(" ")).trim().replace(/[. ]+$/, "");
    var m = QUERY.exec(q);
    if (!m) return null;
    var high = m[2] || null;
    if (high && high.length === 1) {  // 308.2a-c: the letters of one rule
      if (!/[a-z]$/.test(m[1])) return null;
      high = m[1].slice(0, -1) + high;
    }
    return { low: m[1], high: high };
  }

  function sortKey(n) {  // judge.corpus.numbers.sort_key
    var cut = n.indexOf("."), head = cut < 0 ? n : n.slice(0, cut), tail = cut < 0 ? "" : n.slice(cut + 1);
    var digits = tail.replace(/[a-z]+$/, "");
    return [parseInt(head, 10), digits ? parseInt(digits, 10) : -1, tail.slice(digits.length)];
  }
  function compare(a, b) {
    for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }
  function inRange(n, low, high) {  // judge.corpus.selection._in_range
    var k = sortKey(n), lo = sortKey(low), hi = sortKey(high);
    return lo[0] <= k[0] && k[0] <= hi[0] && compare(lo, k) <= 0 && (compare(k, hi) <= 0 || n.startsWith(high));
  }

  // A long section is cut into one page per rule (judge/site/parts.py): its rules' pages.
  function url(edition, language, n) {
    var section = n.split(".")[0], top = /^\d{3}\.\d+/.exec(n);
    var split = " " + ((edition.split || {})[language] || "") + " ";
    var page = top && split.indexOf(" " + section + " ") >= 0 ? top[0] : section;
    var folder = edition.id + "/" + (language === edition.languages[0] ? "" : language + "/");
    return root + folder + page + ".html#R" + n.replace(/[.-]/g, "");
  }

  // A number found in one edition of several: the page it opens says the others lack it.
  var NOTE = "judge-jump-note";
  function only(data, hit) {
    if (data.editions.length < 2) return;
    var others = data.editions.filter(function (e) { return e !== hit.edition; }).map(function (e) { return e.label; });
    var text = "Règle " + hit.number + " : seulement dans les " + hit.edition.label
      + (hit.language === hit.edition.languages[0] ? "" : " (texte " + hit.edition.names[hit.language] + ")")
      + " ; absente de " + others.join(", ") + ".";
    try { sessionStorage.setItem(NOTE, text); } catch (e) { /* private mode: no note */ }
  }
  function open(data, hit, replace) {
    only(data, hit);
    if (replace) global.location.replace(hit.url); else global.location.assign(hit.url);
  }

  // Where the query's rule is, per edition: [{edition, language, number, url}].
  function targets(data, asked) {
    var found = [];
    data.editions.forEach(function (edition) {
      var languages = edition.languages, hit = null;
      if (asked.high === null) {
        languages.some(function (language) {
          var numbers = " " + edition.numbers[language] + " ";
          if (numbers.indexOf(" " + asked.low + " ") < 0) return false;
          hit = { language: language, number: asked.low };
          return true;
        });
      } else {
        var language = languages[0];
        var first = edition.numbers[language].split(" ").find(function (n) { return n && inRange(n, asked.low, asked.high); });
        if (first) hit = { language: language, number: first };
      }
      if (hit) {
        hit.edition = edition;
        hit.url = url(edition, hit.language, hit.number);
        found.push(hit);
      }
    });
    return found;
  }

  // The scripts fetched at once and run in order; `done` once the last has run (or failed).
  function load(names, done) {
    var left = names.length;
    if (!left) { if (done) done(); return; }
    names.forEach(function (name) {
      var tag = doc.createElement("script");
      function one() { if (--left === 0 && done) done(); }
      tag.src = root + name;
      tag.async = false;
      tag.addEventListener("load", one);
      tag.addEventListener("error", one);
      (doc.body || doc.head).appendChild(tag);
    });
  }

  function choices(query, found) {
    var box = doc.getElementById("rule-choice");
    if (!box) return;
    var title = doc.createElement("p"), list = doc.createElement("ul");
    title.textContent = "« " + query.trim() + " » dans plusieurs éditions :";
    list.className = "tap-list";
    found.forEach(function (hit) {
      var li = doc.createElement("li"), a = doc.createElement("a");
      a.href = hit.url;
      a.textContent = "Règle " + hit.number + " — " + hit.edition.label
        + (hit.language === hit.edition.languages[0] ? "" : " (texte " + hit.edition.names[hit.language] + ")");
      li.appendChild(a);
      list.appendChild(li);
    });
    box.appendChild(title);
    box.appendChild(list);
    box.hidden = false;
  }

  global.judgeRuleQuery = parse;
  global.judgeRuleNumbers = { parse: parse, plain: plain, pattern: pattern, inRange: inRange };
  var searchPage = !!(script && script.hasAttribute("data-then"));

  // Every other page of the static book: the note a typed number left (see `only`), and
  // on a long section's index (cut into one page per rule), an anchor of one of its rules
  // (702.html#R70219a, an old link) opens that rule's page (702.19.html#R70219a).
  if (!searchPage) {
    var left = null;
    try { left = sessionStorage.getItem(NOTE); sessionStorage.removeItem(NOTE); } catch (e) { left = null; }
    var box = left && doc.getElementById("jump-note");
    if (box) { box.textContent = left; box.hidden = false; }
    var resolve = function () {
      var m = /^#R(\d{3})(\d+)([a-z]*)$/.exec(global.location.hash);
      if (!m || !doc.querySelector("[data-parts]") || doc.getElementById(global.location.hash.slice(1))) return;
      global.location.replace(m[1] + "." + m[2] + ".html" + global.location.hash);
    };
    resolve();
    global.addEventListener("hashchange", resolve);
  }

  // Every other page of the static book: the header's box. The number list is fetched when the
  // box gets the focus; a rule number typed there opens its rule directly (no search page).
  if (!searchPage) {
    var ready = null;
    var numbers = function (done) {
      if (global.JUDGE_RULE_NUMBERS) { done(); return; }
      if (!ready) { ready = []; load([NUMBERS], function () { ready.forEach(function (f) { f(); }); }); }
      ready.push(done);
    };
    var form = doc.querySelector("form.search-box"), input = form && form.querySelector("input[name=q]");
    if (!form || !input) return;
    input.addEventListener("focus", function () { numbers(function () {}); }, { once: true });
    form.addEventListener("submit", function (event) {
      var asked = parse(input.value);
      if (!asked) return;
      event.preventDefault();
      numbers(function () {
        var found = global.JUDGE_RULE_NUMBERS ? targets(global.JUDGE_RULE_NUMBERS, asked) : [];
        if (found.length === 1) open(global.JUDGE_RULE_NUMBERS, found[0], false);
        else form.submit();  // several editions, or none: the search page says which
      });
    });
    return;
  }

  // The search page: this script is in its <head> (async): the page's elements are awaited,
  // not the fetches (the index's while the page is read, the rule numbers' for a number).
  var then = ((script && script.getAttribute("data-then")) || "").split(/\s+/).filter(Boolean);
  var query = new URLSearchParams(global.location.search).get("q") || "";
  var asked = query.trim() ? parse(query) : null;

  function ready(done) {
    if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", done, { once: true });
    else done();
  }
  function say(text) {
    var status = doc.getElementById("search-status");
    if (status && query.trim()) status.textContent = "« " + query.trim() + " » : " + text;
  }
  function search() {
    ready(function () {
      say("chargement de l'index…");
      load(then);
    });
  }
  if (!asked) {  // words: the index is fetched at once (run once the page is there)
    then.forEach(function (name) {
      var link = doc.createElement("link");
      link.rel = "preload";
      link.as = "script";
      link.href = root + name;
      doc.head.appendChild(link);
    });
  }
  ready(function () {
    var box = doc.getElementById("q");
    if (box) box.value = query;
    if (asked) say("ouverture de la règle…");
  });
  if (!asked) { search(); return; }
  load([NUMBERS], function () {
    var data = global.JUDGE_RULE_NUMBERS, found = data ? targets(data, asked) : [];
    if (found.length === 1) { open(data, found[0], true); return; }
    ready(function () {
      if (found.length > 1) choices(query, found);
      search();
    });
  });
})(window);
