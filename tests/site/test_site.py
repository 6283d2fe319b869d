"""The static rulebook: pages, links, markers, validity, determinism, atomicity, goldens
(its search: tests/site/test_search_browser.py)."""

from __future__ import annotations

import filecmp
import os
import re
from pathlib import Path
from xml.etree import ElementTree

import html5lib
import pytest

from judge.errors import JudgeError
from judge.normalize import fold
from judge.site.build import SiteError, SiteRenderer, build_site
from judge.site.templating import make_environment, rule_anchor

GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"


def fixed_checks(edition: str, number: str) -> tuple[str, ...]:
    return ("priority",) if (edition, number) == ("2004", "302.3") else ()


def parse(path: Path) -> ElementTree.Element:
    return html5lib.parse(path.read_bytes(), namespaceHTMLElements=False)


def by_id(root: ElementTree.Element, ident: str) -> ElementTree.Element:
    found = root.find(f".//*[@id='{ident}']")
    assert found is not None, ident
    return found


def text_of(element: ElementTree.Element) -> str:
    return "".join(element.itertext())


def test_templating_rule_anchor_drops_dots() -> None:
    assert rule_anchor("306.2a") == "R3062a"
    assert rule_anchor("505") == "R505"


def test_templating_environment_is_strict_and_escapes() -> None:
    env = make_environment()
    assert env.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"
    with pytest.raises(Exception, match="undefined"):
        env.from_string("{{ missing }}").render()


def test_site_layout_has_edition_folders_and_section_pages(site: Path) -> None:
    assert (site / "index.html").is_file()
    assert {p.name for p in (site / "2004").glob("*.html")} >= {"index.html", "300.html", "305.html", "314.html"}
    # 2010 has no `505` section line: its rules are grouped under 505 anyway.
    # (`505.1.html` … are the per-rule redirect pages.)
    assert sorted(p.name for p in (site / "2010").glob("*.html") if p.name.count(".") == 1) == [
        "505.html", "glossaire.html", "index.html"]
    page = parse(site / "2004" / "308.html")
    for number in ("308", "308.2a", "308.3"):
        assert by_id(page, rule_anchor(number)).tag == "article"


def test_site_every_rule_has_an_element(site: Path, graph) -> None:
    for edition in ("2004", "2010"):
        for rule in graph.rules(edition):
            page = parse(site / edition / f"{rule.number.split('.')[0]}.html")
            element = by_id(page, rule_anchor(rule.number))
            assert rule.number in text_of(element)


@pytest.fixture(scope="module")
def strict_pages(site: Path) -> dict[Path, list[tuple[str, dict[str, str]]]]:
    """Every HTML page of the session's book, parsed once for the tests that read them all:
    strictly (html5lib raises on a page's first HTML5 parse error), each as its links (href,
    the link's attributes), in document order."""
    out = {}
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    for page in sorted(site.rglob("*.html")):
        root = parser.parse(page.read_bytes())
        out[page] = [(a.get("href") or a.get("{http://www.w3.org/1999/xlink}href") or "", dict(a.attrib))
                     for a in [*root.iter("a"), *root.iter(f"{SVG}a")]]
    return out


def test_site_references_never_link_to_another_edition(
        site: Path, graph, strict_pages: dict[Path, list[tuple[str, dict[str, str]]]]) -> None:
    checked = 0
    for page, links in strict_pages.items():
        for href, a in links:
            if "ref" in (a.get("class") or "").split():
                edition = page.relative_to(site).parts[0]
                target = (page.parent / href.partition("#")[0]).resolve()
                assert target.relative_to(site.resolve()).parts[0] == edition, f"{page}: {href}"
                checked += 1
    # At least every reference of the English 2004 rules, each shown on its English page.
    assert checked >= sum(len(r.references) for r in graph.rules("2004", "en")) > 0


def _columns(rule: ElementTree.Element) -> dict[str, ElementTree.Element]:
    (bilingual,) = [d for d in rule.iter("div") if d.get("class") == "bilingual"]
    return {d.get("lang") or "": d for d in bilingual if d.tag == "div"}


def test_site_cross_reference_302_3_links_to_303_in_each_language(site: Path) -> None:
    columns = _columns(by_id(parse(site / "2004" / "302.html"), "R3023"))
    assert list(columns) == ["fr", "en"]
    hrefs = {lang: [a.get("href") for a in c.iter("a") if a.get("class") == "ref"] for lang, c in columns.items()}
    assert hrefs == {"fr": ["../2004/303.html#R303"], "en": ["../2004/en/303.html#R303"]}


def test_site_2010_305_terrains_links_to_2010_english_305_not_2004(site: Path) -> None:
    rule = by_id(parse(site / "2010" / "505.html"), "R5055b")
    links = [a for a in _columns(rule)["fr"].iter("a") if a.get("class") == "ref"]
    assert [a.get("href") for a in links] == ["../2010/en/305.html#R305"]
    assert links[0].get("title") == "Règle 305 — Lands (anglais)"
    assert not [s for s in rule.iter("span") if s.get("class") == "ref-missing"]
    assert by_id(parse(site / "2010" / "en" / "305.html"), "R305") is not None


def test_site_references_to_english_rules_say_so(site: Path) -> None:
    column = _columns(by_id(parse(site / "2004" / "302.html"), "R3021"))["fr"]
    links = [(a.get("href"), a.get("title")) for a in column.iter("a") if a.get("class") == "ref"]
    # 217 and 502 (English) are long sections: each of their rules has its page (judge.site.parts).
    assert links == [("../2004/en/217.8.html#R2178", "Règle 217.8 — Phased-Out (anglais)"),
                     ("../2004/en/502.15.html#R50215", "Règle 502.15 — Phasing (anglais)")]
    assert not [s for s in column.iter("span") if s.get("class") == "ref-missing"]


def test_site_rule_shows_backlinks_parent_children_neighbours_permalink(site: Path) -> None:
    page = parse(site / "2004" / "303.html")
    section = by_id(page, "R303")
    text = text_of(section)
    assert "Citée par" in text and "302.3" in text
    # Its subrules follow just below on the same page: not listed again.
    assert "Sous-règles" not in text and by_id(page, "R3031") is not None
    hrefs = {a.get("href") for a in section.iter("a")}
    assert "#R303" in hrefs  # permalink
    assert "../2004/302.html#R3023" in hrefs  # cited by, and previous
    rule = by_id(page, "R3031")
    assert {"../2004/303.html#R303", "../2004/304.html#R304"} <= {a.get("href") for a in rule.iter("a")}


def test_site_historical_rule_is_marked_with_its_note(site: Path) -> None:
    rule = by_id(parse(site / "2004" / "300.html"), "R3003")
    assert "historical" in rule.get("class", "").split()
    text = text_of(rule)
    assert "Règle historique" in text
    assert "La règles suivante a disparue dans un changement de règles" in text
    assert "Supprimée par le changement de règles de Magic 2010 (juillet 2009)" in text
    assert "Règles complètes du 16 juillet 2010 (Magic 2011)" in text


def test_site_edition_banner_names_release_and_languages(site: Path) -> None:
    text = text_of(parse(site / "2004" / "index.html"))
    assert "Règles complètes 2004" in text and "1er juin 2004" in text
    assert "Langues : français, anglais." in text and "Vue côte à côte FR | EN" in text
    text = text_of(parse(site / "2010" / "index.html"))
    assert "16 juillet 2010" in text and "Magic 2011" in text and "Vue côte à côte FR | EN" in text


def test_site_checks_are_listed_under_their_rule(graph) -> None:
    from judge.site.templating import make_environment

    html = SiteRenderer(graph, checks_for=fixed_checks,
                        env=make_environment(app_url="http://192.168.1.10:8000/")).render_section("2004", "302")
    from judge.checks.questions import QUESTION_BY_ASK

    # Without a server to check them on, a phone reader is not told about the form.
    plain = SiteRenderer(graph, checks_for=fixed_checks).render_section("2004", "302")
    assert QUESTION_BY_ASK["priority"].label not in plain and "formulaire" not in plain

    # As the French question the check answers, not its code name.
    assert f">{QUESTION_BY_ASK['priority'].label}</a></li>" in html
    assert html.count('class="checks"') == 1 and "<code>priority</code>" not in html


def test_site_turn_diagram_links_each_step_to_its_rule(site: Path) -> None:
    page = parse(site / "2004" / "index.html")
    diagram = page.find(".//ol[@class='turn']")
    assert diagram is not None
    hrefs = [a.get("href") for a in diagram.iter("a")]
    assert len(hrefs) == 15  # 5 phases (two main phases share 305) + 10 steps
    assert {h.split("#")[1] for h in hrefs} == {f"R{n}" for n in range(301, 315)}
    diagram2010 = parse(site / "2010" / "index.html").find(".//ol[@class='turn']")
    assert diagram2010 is not None
    # 2010's French text has only 505: the other steps open the English rules (500–514), and say so.
    boxes = list(diagram2010.iter("a"))
    assert len(boxes) == 15
    hrefs = {a.get("href") for a in boxes}
    assert "../2010/505.html#R5051" in hrefs
    assert {h.split("#")[0] for h in hrefs} - {"../2010/505.html"} == {f"../2010/en/{n}.html" for n in range(501, 515)} - {"../2010/en/505.html"}
    english = [a for a in boxes if "texte anglais" in "".join(a.itertext())]
    assert len(english) == 15 - 2  # both main phases are in French
    assert "pas de règle dans ce corpus" not in "".join(diagram2010.itertext())


def test_site_pages_are_valid_html5_in_french(site: Path, strict_pages: dict[Path, object]) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 20
    assert sorted(strict_pages) == pages  # each parsed strictly, without a parse error
    for page in pages:
        content = page.read_text(encoding="utf-8")
        assert '<html lang="fr">' in content
        assert 'name="viewport"' in content


def test_site_has_no_external_resources(site: Path) -> None:
    for file in site.rglob("*"):
        if file.suffix in {".html", ".css", ".js"}:
            content = file.read_text(encoding="utf-8")
            content = content.replace('xmlns="http://www.w3.org/2000/svg"', "")
            assert not re.search(r"""(src|href)=["']?(https?:)?//""", content), file
            assert "@import" not in content and "url(http" not in content


def test_site_build_is_deterministic(graph, site: Path, tmp_path: Path) -> None:
    first = site  # the session's build, made earlier in another folder
    second = build_site(graph, tmp_path / "b").parent
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    _match, mismatch, errors = filecmp.cmpfiles(first, second, files, shallow=False)
    assert (mismatch, errors) == ([], [])


def test_site_build_replaces_existing_folder_atomically(graph, tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "site"
    out.mkdir()
    build_site(graph, out)  # an empty folder
    # A page the previous build wrote and this one does not: removed with the previous build.
    (out / "stale.html").write_text("old")
    marker = out / ".judge-build"
    marker.write_text(marker.read_text(encoding="utf-8") + "stale.html\n", encoding="utf-8")
    build_site(graph, out)
    assert not (out / "stale.html").exists() and (out / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("judge.site.build.write_site", broken)
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    with pytest.raises(SiteError, match="impossible d'écrire le site"):
        build_site(graph, out)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_site_build_into_unwritable_place_is_a_judge_error(graph, tmp_path: Path) -> None:
    blocker = tmp_path / "fichier"
    blocker.write_text("x")
    with pytest.raises(JudgeError, match="impossible d'écrire le site"):
        build_site(graph, blocker)
    with pytest.raises(JudgeError, match="impossible d'écrire le site"):
        build_site(graph, blocker / "site")


@pytest.mark.shared
def test_site_doubtful_citation_has_a_note_and_the_likely_rule(site: Path) -> None:
    column = _columns(by_id(parse(site / "2004" / "306.html"), "R3061"))["fr"]
    (note,) = [s for s in column.iter("span") if s.get("class") == "ref-doubt"]
    assert "citation douteuse : « double initiative » ne désigne pas 502.25" in text_of(note)
    (likely,) = [a.get("href") for a in note.iter("a")]
    assert likely == "../2004/en/502.28.html#R50228"
    # The note follows the 502.25 link.
    links = [a.get("href") for a in column.iter("a") if a.get("class") == "ref"]
    assert "../2004/en/502.25.html#R50225" in links


def test_site_glossary_page_links_its_rules(site: Path, graph) -> None:
    page = parse(site / "2004" / "glossaire.html")
    term = by_id(page, "G-first-strike")
    assert text_of(term) == "First Strike — initiative"
    entries = [d for d in page.iter("dt")]
    assert len(entries) == len(graph.glossary("2004", "en"))
    index = parse(site / "2004" / "index.html")
    assert "../2004/glossaire.html" in [a.get("href") for a in index.iter("a")]
    (definition,) = [d for d in page.iter("dd") if "First strike is a static ability" in text_of(d)]
    assert [a.get("href") for a in definition.iter("a")] == ["../2004/en/502.28.html#R50228", "../2004/en/502.2.html#R5022"]


def test_site_side_by_side_fr_en_by_default(site: Path) -> None:
    """Every French rule with an English text of the same number shows both, French first."""
    columns = _columns(by_id(parse(site / "2004" / "302.html"), "R3023"))
    assert "No player receives priority" in text_of(columns["en"])
    columns = _columns(by_id(parse(site / "2010" / "505.html"), "R5051"))
    assert list(columns) == ["fr", "en"]
    assert "There are two main phases in a turn" in text_of(columns["en"])


GOLDEN_PAGES = (("index.html", "render_index", ()), ("2004/302.html", "render_section", ("2004", "302")),
                ("2004/300.html", "render_section", ("2004", "300")),
                ("2010/505.html", "render_section", ("2010", "505")))


@pytest.mark.parametrize(("name", "method", "args"), GOLDEN_PAGES, ids=[p[0] for p in GOLDEN_PAGES])
def test_site_page_matches_golden(graph, name: str, method: str, args: tuple[str, ...]) -> None:
    renderer = SiteRenderer(graph, checks_for=fixed_checks)
    html = getattr(renderer, method)(*args) if args else renderer.render_index("")
    # An asset's name carries a digest of its content (style.0123456789.css): not the page's matter.
    html = re.sub(r"\.[0-9a-f]{10}\.(css|js|svg)\b", r".\1", html)
    golden = GOLDEN / name.replace("/", "_")
    if os.environ.get("JUDGE_REGENERATE_GOLDEN"):
        golden.write_text(html, encoding="utf-8")
        pytest.skip(f"page de référence réécrite : {golden.name} (relire le diff)")
    assert golden.is_file(), f"golden absent : {golden} (JUDGE_REGENERATE_GOLDEN=1)"
    assert html == golden.read_text(encoding="utf-8")




def test_glossary_lists_its_french_names_a_to_z_with_the_english_term(site: Path) -> None:
    page = parse(site / "2004" / "glossaire.html")
    (french,) = [d for d in page.iter("details") if d.get("id") == "noms-francais"]
    links = [(text_of(a), a.get("href")) for a in french.iter("a") if not (a.get("href") or "").startswith("#fr-")]
    assert ("brûlure de mana — Mana Burn", "#G-mana-burn") in links
    assert ("initiative — First Strike", "#G-first-strike") in links
    names = [fold(label.split(" — ")[0]) for label, _ in links]
    assert names == sorted(names)
    anchors = {element.get("id") for element in page.iter() if element.get("id")}
    assert all(href[1:] in anchors for _, href in links)


def test_static_book_links_to_a_configured_judge_serve(graph, tmp_path: Path) -> None:
    """With --app-url, the book's footer and a rule's checks link to that server's question and
    situation pages; without, the footer says how to start `judge serve`."""
    from judge.site.build import app_url, write_site

    app = app_url("http://192.168.1.10:8000")
    assert app == "http://192.168.1.10:8000/"
    folder = tmp_path / "with"
    folder.mkdir()
    write_site(graph, folder, checks_for=fixed_checks, app_url=app)
    page = parse(folder / "2004" / "302.html")
    hrefs = [a.get("href") for a in page.iter("a")]
    assert f"{app}question" in hrefs and f"{app}situation" in hrefs
    assert any(h and h.startswith(f"{app}situation?modele=") for h in hrefs)  # a rule's checks
    assert "judge build --app-url" not in text_of(page)
    # Without: no command line on a reader's page; the organisers' page holds them.
    plain = SiteRenderer(graph, checks_for=fixed_checks).render_section("2004", "302")
    assert "judge serve" not in plain and "<code>" not in plain and "?modele=" not in plain
    assert '<a href="../organisateurs.html">' in plain
    organisers = (folder / "organisateurs.html").read_text(encoding="utf-8")
    assert "judge serve --host 0.0.0.0" in organisers and "judge build --out livre/ --app-url" in organisers


@pytest.mark.parametrize("bad", ["192.168.1.10:8000", "ftp://x/", "http://x/../", "javascript:alert(1)", ""])
def test_app_url_refuses_what_is_not_a_server_address(bad: str) -> None:
    from judge.site.build import app_url

    with pytest.raises(JudgeError, match="--app-url invalide"):
        app_url(bad)


def test_site_search_page_preloads_its_scripts(site: Path) -> None:
    page = parse(site / "search.html")
    preloaded = [link.get("href") for link in page.iter("link") if link.get("rel") == "preload"]
    script = next(s for s in page.iter("script") if s.get("data-then"))
    then = script.get("data-then", "").split()
    assert then[0].startswith("search/index.")  # the manifest, then the search's scripts
    # The manifest too (issue 34: one round trip less before the first result, words being what
    # is searched most; a rule number opens without it, 16 kB later).
    assert preloaded == then
    for href in preloaded:
        assert (site / href).is_file(), href


def test_site_scripts_keep_their_code_lines_without_indentation_and_comments(site: Path) -> None:
    from judge.resources import templates_dir
    from judge.site.templating import asset_name

    for name in ("search.js", "search-match.js", "search-data.js", "rule-jump.js", "book.js"):
        source = (templates_dir() / name).read_text(encoding="utf-8")
        shipped = (site / asset_name(name)).read_text(encoding="utf-8")
        assert len(shipped) < 0.9 * len(source), name
        lines = shipped.splitlines()
        assert not [line for line in lines if line != line.strip() or line.startswith("//") or not line], name
        # every line of code is there, in order (the block comments and // lines are not)
        code = [line.strip() for line in re.sub(r"^\s*/\*.*?\*/", "", source, flags=re.S | re.M).splitlines()]
        assert lines == [line for line in code if line and not line.startswith("//")], name


def test_every_asset_of_the_book_is_fingerprinted_and_stored_by_the_worker(site: Path) -> None:
    # Only the pages, the web app manifest, the icons it names and the worker keep their names:
    # every script, stylesheet and picture the pages load is named by a digest of its content.
    digest = re.compile(r"\.[0-9a-f]{10}\.(?:js|css|svg)$")
    kept = {"sw.js", "hors-ligne.html", "organisateurs.html", "manifest.webmanifest", "icon-192.png", "icon-512.png", ".judge-build"}
    top = [p.name for p in site.iterdir() if p.is_file() and not p.name.endswith(".html")]
    assert [name for name in top if name not in kept and not digest.search(name)] == []
    assert [p.name for p in (site / "search").iterdir() if not digest.search(p.name)] == []
    assert any(name.startswith("rule-numbers.") for name in top) and any(name.startswith("favicon.") for name in top)
    page = (site / "2004" / "302.html").read_text(encoding="utf-8")
    numbers = re.search(r'data-numbers="([^"]+)"', page).group(1)
    icon = re.search(r'rel="icon" href="\.\./([^"]+)"', page).group(1)
    assert (site / numbers).is_file() and (site / icon).is_file()
    lists = next(site.glob("offline-files.*.js"))
    assert f'importScripts("{lists.name}")' in (site / "sw.js").read_text(encoding="utf-8")
    worker = lists.read_text(encoding="utf-8")
    manifest = (site / "manifest.webmanifest").read_text(encoding="utf-8")
    assert f'"{numbers}"' in worker and f'"{icon}"' in worker and f'"{icon}"' in manifest
