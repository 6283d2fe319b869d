"""The grammar and the assembler on snippets, on the real French corpus and on the English CRs."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
import source_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.corpus.documents import Plain, Reference, plain_text
from judge.corpus.parser import parse_bytes, parse_file, parse_inline, parse_text
from judge.errors import RuleSyntaxError, SourceError
from judge.resources import rules_dir

RULES = rules_dir()


def numbers(text: str) -> list[str]:
    return [r.number for r in parse_text(text).rules]


# ---------------------------------------------------------------- line shapes
@pytest.mark.parametrize(
    ("snippet", "expected"),
    [
        ("301. Phase de début\n\n301.1. La phase de début.\n", ["301", "301.1"]),
        ("306.2a. Une fois qu'elle a été déclarée.\n", ["306.2a"]),
        ("505.1.\n\nIl y a deux phases principales.\n", ["505.1"]),
        ("505.1a\n\nSeule la première phase.\n", ["505.1a"]),
        ("100.1a A two-player game is a game.\n", ["100.1a"]),
        ("302.1 First, all permanents phase out.\n", ["302.1"]),
        ("Phase\n\n301. Phase de début\n", ["301"]),
        ("Règles complètes de Magic: The Gathering\n\n505.2.\n\nTexte.", ["505.2"]),
    ],
)
def test_parse_text_line_shapes(snippet: str, expected: list[str]) -> None:
    assert numbers(snippet) == expected


def test_parse_text_number_alone_takes_next_paragraph() -> None:
    doc = parse_text("505.1.\n\nIl y a deux phases principales dans un tour.\n\n505.2.\n\nSuite.\n")
    assert [(r.number, r.text) for r in doc.rules] == [
        ("505.1", "Il y a deux phases principales dans un tour."),
        ("505.2", "Suite."),
    ]


def test_parse_text_section_keeps_title() -> None:
    rule = parse_text("303. Etape d'entretien\n").rules[0]
    assert (rule.kind, rule.title, rule.text) == ("section", "Etape d'entretien", "")


def test_parse_text_example_belongs_to_rule_above() -> None:
    doc = parse_text("308.3. Les capacités.\nExemple : un permanent a la capacité.\n\n308.4. Si aucune.\n")
    first, second = doc.rules
    assert [e.text for e in first.examples] == ["un permanent a la capacité."]
    assert second.examples == ()


def test_parse_text_removal_note_marks_next_rule_historical() -> None:
    doc = parse_text(
        "300.2. Une phase.\n\nLa règles suivante a disparue dans un changement de règles :\n"
        "300.3. Brûlure.\n\n300.4. Effets.\n"
    )
    status = {r.number: r.status for r in doc.rules}
    assert status == {"300.2": "current", "300.3": "historical", "300.4": "current"}
    assert doc.rules[1].notes == ("La règles suivante a disparue dans un changement de règles :",)


def test_parse_text_places_intro_and_headings() -> None:
    doc = parse_text("Les principaux segments d'un Tour. Les cinq phases.\n\nLes regles :\n300. Généralités\n")
    assert [(line.kind, line.text) for line in doc.other_lines] == [
        ("intro", "Les principaux segments d'un Tour. Les cinq phases."),
        ("heading", "Les regles :"),
    ]
    assert doc.unparsed == ()


def test_parse_text_example_without_rule_is_unparsed() -> None:
    doc = parse_text("Exemple : orphelin.\n")
    assert [u.line for u in doc.unparsed] == [1]


# ---------------------------------------------------------------- references
REFERENCE_FORMS = [
    ('Voir règle 217.8, "Hors phase" et règle 502.15, "Déphasage".',
     [("217.8", "Hors phase"), ("502.15", "Déphasage")]),
    ('(voir règle 422, "Gérer les actions illégales", et 500, "Attaques et blocages légaux")',
     [("422", "Gérer les actions illégales"), ("500", "Attaques et blocages légaux")]),
    ('Voir règle 212.6 "Terrains".', [("212.6", "Terrains")]),
    ("Voir règle 419.6e et 419.6f.", [("419.6e", None), ("419.6f", None)]),
    ("(cf. règle 506, « Phase de combat »)", [("506", "Phase de combat")]),
    ("(Cf. règle 305 « Terrains. »)", [("305", "Terrains")]),
    ("Cf. règle 500.2.", [("500.2", None)]),
    ('(See rule 502.15, "Phasing.")', [("502.15", "Phasing")]),
    ("See rules 419.6e and 419.6f", [("419.6e", None), ("419.6f", None)]),
    ("See rule 419.6e and rule 419.6f.", [("419.6e", None), ("419.6f", None)]),
    ("(Voir règle 303, “Étape d’entretien”.)", [("303", "Étape d’entretien")]),
    ("la double initiative (voir règle 502.25).", [("502.25", None)]),
    ("Il y a 300 cartes et 20 points de vie.", []),
]


@pytest.mark.parametrize(("text", "expected"), REFERENCE_FORMS)
def test_parse_inline_reference_forms(text: str, expected: list[tuple[str, str | None]]) -> None:
    segments = parse_inline(text)
    refs = [(s.number, s.title) for s in segments if isinstance(s, Reference)]
    assert refs == expected
    assert plain_text(segments) == text  # nothing lost, nothing added


def test_parse_inline_range() -> None:
    (ref,) = [s for s in parse_inline("as described in rules 306-311.") if isinstance(s, Reference)]
    assert (ref.number, ref.range_end) == ("306", "311")


def test_parse_inline_plain_text_is_one_segment() -> None:
    assert parse_inline("Aucun renvoi ici.") == (Plain(text="Aucun renvoi ici."),)


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("text", "line", "column", "reason"),
    [
        ("301. Phase\n\n301.1. Texte \x01 suite.\n", 3, 14, "caractère de contrôle inattendu (U+0001)"),
        ("\x1b[31m\n", 1, 1, "caractère de contrôle inattendu (U+001B)"),
    ],
)
def test_parse_text_syntax_error_has_position_and_caret(text: str, line: int, column: int, reason: str) -> None:
    with pytest.raises(RuleSyntaxError) as info:
        parse_text(text, file="essai.txt")
    err = info.value
    assert (err.line, err.column, err.reason) == (line, column, reason)
    message = str(err)
    assert message.startswith(f"essai.txt:{line}:{column}: erreur de syntaxe")
    caret_line = message.splitlines()[-1]
    assert caret_line.index("^") == 2 + column - 1


def test_parse_file_missing_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="fichier introuvable"):
        parse_file(tmp_path / "absent.txt")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_parse_text_arbitrary_input_parses_or_raises_syntax_error(text: str) -> None:
    try:
        doc = parse_text(text)
    except RuleSyntaxError as err:
        assert err.line >= 1 and err.column >= 1
        return
    for rule in doc.rules:
        assert plain_text(rule.segments) == rule.text


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["301. Phase de début", "301.1. Texte (voir règle 306, \"Combat\").", "505.1.", "Un paragraphe.",
             "Exemple : un cas.", "", "308.2a. Sous-règle, voir règle 419.6e et 419.6f.",
             "La règles suivante a disparue dans un changement de règles :", "Glossary", "Contents"]
        ),
        max_size=25,
    )
)
def test_parse_text_rule_shaped_input_keeps_every_line(lines: list[str]) -> None:
    doc = parse_text("\n".join(lines))
    placed = sum(1 for r in doc.rules) + len(doc.other_lines) + len(doc.unparsed)
    assert placed <= sum(1 for line in lines if line)


# ---------------------------------------------------------------- encodings
def _variants(text: str) -> dict[str, bytes]:
    crlf = text.replace("\n", "\r\n")
    cr = text.replace("\n", "\r")
    return {
        "utf-8": text.encode("utf-8"),
        "utf-8-sig crlf": codecs.BOM_UTF8 + crlf.encode("utf-8"),
        "utf-16-le cr": codecs.BOM_UTF16_LE + cr.encode("utf-16-le"),
        "utf-16-be crlf": codecs.BOM_UTF16_BE + crlf.encode("utf-16-be"),
        "cp1252 cr": cr.replace("’", "'").encode("cp1252"),
    }


def test_parse_bytes_same_graph_in_five_encodings() -> None:
    original = (RULES / "000_57306400b9ed3ddd.txt").read_text(encoding="utf-8")
    reference = parse_text(original.replace("’", "'")).rules
    encodings = set()
    for name, data in _variants(original).items():
        doc = parse_bytes(data, file=name)
        encodings.add(doc.encoding)
        ascii_rules = parse_text(original.replace("’", "'")).rules
        got = tuple(r for r in doc.rules)
        if name.startswith("cp1252"):
            assert got == ascii_rules, name
        else:
            assert tuple(r.number for r in got) == tuple(r.number for r in reference), name
            assert got == parse_text(original).rules, name
    assert encodings == {"utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "cp1252"}


def test_parse_text_keeps_original_apostrophes_and_nbsp() -> None:
    rule = parse_text("505.1a\n\nSeule la première phase principale d’un tour\u00a0: oui.\n").rules[0]
    assert "d’un" in rule.text and "\u00a0:" in rule.text


# ---------------------------------------------------------------- the real corpus
def test_parse_file_corpus_counts() -> None:
    """Each shipped text: one rule per numbered line of its body, its examples, nothing unplaced."""
    for path in sorted(RULES.glob("*.txt")):
        doc = parse_file(path, language="en" if path.name.startswith("CR-") else "fr")
        assert [r.number for r in doc.rules] == [n for _, n in source_text.numbered(path.name)], path.name
        assert doc.examples == source_text.examples(path.name), path.name
        assert doc.unparsed == (), path.name
    assert parse_file(RULES / "003_bc0c71f8460cf034.txt").title == "Règles complètes de Magic: The Gathering"


def test_parse_file_reference_span_points_at_number_in_source() -> None:
    path = RULES / "000_57306400b9ed3ddd.txt"
    doc = parse_file(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    checked = 0
    for rule in doc.rules:
        for ref in rule.references:
            assert ref.span is not None
            source = lines[ref.span.line - 1]
            assert source[ref.span.column - 1:].startswith(ref.number)
            checked += 1
    assert checked == 31


@pytest.mark.parametrize(
    ("fixture", "rules", "examples", "encoding"),
    [
        ("en2004", 767, 95, "utf-8"),
        ("en2010", 1871, 203, "utf-8"),
        ("en2022", 2931, 271, "utf-16-be"),
    ],
)
def test_parse_file_english_crs_place_every_line(
    fixture: str, rules: int, examples: int, encoding: str, request: pytest.FixtureRequest
) -> None:
    path = request.getfixturevalue(fixture)
    doc = parse_file(path, language="en")
    assert (len(doc.rules), doc.examples, doc.encoding) == (rules, examples, encoding)
    assert doc.unparsed == ()
    assert doc.glossary and doc.effective and doc.effective.startswith("These rules are")
    for rule in doc.rules:
        assert plain_text(rule.segments) == rule.text


def test_parse_file_english_2004_keeps_mana_burn_and_titles(en2004: Path) -> None:
    doc = parse_file(en2004, language="en")
    rule = next(r for r in doc.rules if r.number == "300.3")
    assert "mana burn" in rule.text
    assert [(r.number, r.title) for r in rule.references] == [("406", "Mana Abilities")]


def test_parse_text_whitespace_only_line_separates_glossary_entries() -> None:
    doc = parse_text(
        "100. General\n\n100.1. Text.\n\nGlossary\n\nAbandon\nTo turn a scheme face down.\n   \n"
        "Ability\nText that explains.\n"
    )
    assert [(e.term, e.text) for e in doc.glossary] == [
        ("Abandon", "To turn a scheme face down."),
        ("Ability", "Text that explains."),
    ]


def test_citation_word_before_a_number_glued_to_letters_is_plain_text() -> None:
    """`voir règle 306Exemple` is no citation (306E is no rule number): plain text, no error;
    in `306-311x` the range end is no number, so 306 alone is cited."""
    (rule,) = parse_text("100.1. voir règle 306Exemple : et voir règle 306-311x.\n").rules
    assert [(r.number, r.range_end) for r in rule.references] == [("306", None)]
    assert plain_text(rule.segments) == rule.text
