"""The `judge` command as a user runs it: JSON contract, French errors, exit codes, help, docs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import source_text

from judge.cli import main
from judge.cli.argparser import build_parser

ROOT = Path(__file__).resolve().parent.parent.parent


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "judge", *args], capture_output=True, text=True, input=stdin, timeout=120
    )


def test_rule_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "302.3", "--json"]) == 0
    rule, *others = json.loads(capsys.readouterr().out)
    # 2010 has no French 302.3, but its English text has one: shown, marked English only.
    assert [(r["edition"], r["language"], r["only_language"]) for r in others] == [("2010", "en", "en")]
    assert "302.3" in source_text.numbers(source_text.EN_2010)
    for key in ("edition", "language", "number", "title", "text", "status", "parent", "children", "examples",
                "references", "referenced_by", "source"):
        assert key in rule
    assert (rule["edition"], rule["number"], rule["title"], rule["status"], rule["parent"]) == (
        "2004", "302.3", None, "current", "302")
    assert rule["text"].startswith("Aucun joueur ne reçoit la priorité")
    assert rule["references"][0] == {"number": "303", "title": "Étape d'entretien", "range_end": None,
                                      "resolved": True, "edition": "2004", "language": "fr", "doubt": None}
    assert rule["source"] == {"file": "rules/000_57306400b9ed3ddd.txt", "line": 14}
    # French first, then the English text of the same release, in the same shape.
    assert rule["only_language"] is None
    (english,) = rule["translations"]
    assert (english["edition"], english["language"], english["number"]) == ("2004", "en", "302.3")
    assert source_text.line_of(source_text.EN_2004, "302.3").endswith(english["text"])
    assert english["source"]["file"] == "rules/CR-2004-06-01.txt"


def test_rule_json_unresolved_and_historical(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "300.3", "--edition", "2004", "--json"]) == 0
    (rule,) = json.loads(capsys.readouterr().out)
    assert rule["status"] == "historical" and rule["removed_in"] == ["2010"]
    assert rule["removed_by"] == ["le changement de règles de Magic 2010 (juillet 2009)"]
    # No French 406 in 2004: the reference leads to the English text of the same release.
    assert rule["references"] == [{"number": "406", "title": "Capacités de mana", "range_end": None,
                                   "resolved": True, "edition": "2004", "language": "en", "doubt": None}]


def test_rule_shows_french_then_english_with_the_doubtful_citation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "306.1", "--edition", "2004"]) == 0
    out = capsys.readouterr().out
    french, english = out.index("[2004] 306.1."), out.index("[2004 · en] 306.1.")
    assert french < english
    assert "⚠ citation douteuse : « double initiative » ne désigne pas 502.25 (« Fear »)" in out
    assert "règle probable : 502.28 « Double Strike »" in out
    assert "double strike (see rule 502.28)" in out.replace("\n  ", " ")


def test_rule_lang_shows_one_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "306.1", "--edition", "2004", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[2004 · en] 306.1.") and "[2004] " not in out
    assert main(["rule", "306.1", "--edition", "2004", "--lang", "fr", "--json"]) == 0
    (rule,) = json.loads(capsys.readouterr().out)
    assert rule["language"] == "fr" and rule["translations"] == []
    doubt = rule["references"][2]["doubt"]
    assert (rule["references"][2]["number"], doubt["likely"], doubt["likely_title"]) == ("502.25", "502.28", "Double Strike")


@pytest.mark.parametrize(("edition", "number"), [("2004", "502.4"), ("2010", "510.2")])
def test_rule_only_in_english_is_shown_and_marked(capsys: pytest.CaptureFixture[str], edition: str, number: str) -> None:
    french = {"2004": source_text.FR_2004, "2010": source_text.FR_2010}[edition]
    english = {"2004": source_text.EN_2004, "2010": source_text.EN_2010}[edition]
    assert number not in set().union(*(source_text.numbers(n) for n in french))
    assert number in source_text.numbers(english)
    assert main(["rule", number, "--edition", edition]) == 0
    assert capsys.readouterr().out.startswith(f"[{edition} · en] {number}.  (texte anglais seulement)")


def test_glossary_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["glossary", "initiative", "--edition", "2004"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[2004 · en] First Strike  (glossaire)") and "Renvois : 502.28, 502.2" in out
    assert main(["glossary", "double initiative", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["edition"], d["term"], d["found_by"]) for d in data] == [
        ("2004", "Double Strike", "lexicon"), ("2010", "Double Strike", "lexicon")]
    assert data[1]["references"] == [{"number": "702.4", "title": "Double Strike", "resolved": True, "language": "en"}]
    assert main(["glossary", "xylophone"]) == 1
    assert "absent du glossaire" in capsys.readouterr().err


def test_rule_backlinks_json(capsys: pytest.CaptureFixture[str]) -> None:
    main(["rule", "306.2", "--edition", "2004", "--json"])
    (rule,) = json.loads(capsys.readouterr().out)
    assert [b["number"] for b in rule["referenced_by"]] == ["308.2g", "309.2e"]
    assert rule["children"] == ["306.2a", "306.2b"]


def test_rule_human_prefix_shows_subrules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "308.2"]) == 0
    out = capsys.readouterr().out
    assert "[2004] 308.2." in out and "[2004] 308.2g." in out
    assert "absente du corpus" not in out
    assert "→ 422 « Gérer les actions illégales » — 422. Handling Illegal Actions (texte anglais)" in out


def test_rule_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "302-303", "--json"]) == 0
    numbers = [r["number"] for r in json.loads(capsys.readouterr().out)]
    assert numbers == ["302", "302.1", "302.2", "302.3", "303", "303.1"]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["rule", "999"], 1, "règle 999 introuvable"),
        (["rule", "505.1", "--edition", "2004", "--lang", "fr"], 1, "introuvable en « fr » dans l'édition 2004"),
        (["rule", "300.3", "--edition", "2010"], 1, "règle 300.3 supprimée"),
        (["rule", "abc"], 2, "numéro de règle invalide"),
        (["rule", "300", "--edition", "1999"], 2, "édition inconnue : « 1999 »"),
        (["parse", "/nonexistent/regles.txt"], 2, "fichier introuvable"),
        (["rule"], 2, "arguments obligatoires manquants"),
        (["frobnicate"], 2, "choix invalide : 'frobnicate' (au choix :"),
        (["rule", "300.3", "--lang", "de"], 2, "choix invalide : 'de' (au choix :"),
    ],
)
def test_cli_errors_are_french_without_traceback(args: list[str], code: int, message: str) -> None:
    result = run(*args)
    assert result.returncode == code
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_parse_syntax_error_shows_caret(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"301. Phase\n\n301.1. Texte \x02 ici.\n")
    result = run("parse", str(bad))
    assert result.returncode == 2
    assert f"{bad}:3:14: erreur de syntaxe" in result.stderr and "^" in result.stderr


def test_cli_parse_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(ROOT / "rules" / "000_57306400b9ed3ddd.txt"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rules"], data["examples"], data["references"], data["unparsed"]) == (72, 2, 31, [])


def test_cli_parse_english_2022(en2022: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(en2022), "--lang", "en", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["encoding"], data["rules"], data["examples"], data["unparsed"]) == ("utf-16-be", 2931, 271, [])


def test_cli_lint_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "--json"]) == 0
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert {"kind", "severity", "edition", "number", "message"} <= set(findings[0])
    assert any(f["kind"] == "term_numbers" and f["number"] == "502.25" for f in findings)
    assert main(["lint", "--strict"]) == 1


def test_cli_every_command_has_help_and_is_documented() -> None:
    parser = build_parser()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name, sub in subparsers.choices.items():
        assert sub.format_help().strip(), name
        assert f"judge {name}" in readme, f"README ne documente pas « judge {name} »"


def test_cli_help_is_french() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name, sub in [("judge", parser), *subparsers.choices.items()]:
        text = sub.format_help()
        assert text.startswith("utilisation :"), name
        assert "show this help" not in text and "positional arguments" not in text, name


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "examples").iterdir()))
def test_cli_examples_of_the_readme_are_answered(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(ROOT / "examples" / name), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["answers"] and all(a["rules"] for a in report["answers"])
    if name == "attaque-2004.toml":
        assert (report["answers"][0]["answer"], report["answers"][0]["rules"]) == (False, ["212.3d", "308.2a"])
    if name == "brulure-2010.json":
        burn = next(a for a in report["answers"] if a["ask"] == "mana_burn")
        assert (burn["answer"], burn["rules"]) == (0, ["500.4", "2004:300.3"])


@pytest.mark.parametrize("position", ["before", "after"])
def test_cli_missing_config_file_is_a_french_error(position: str, tmp_path: Path) -> None:
    missing = str(tmp_path / "absent.toml")
    args = ["--config", missing, "rule", "300.3"] if position == "before" else ["rule", "300.3", "--config", missing]
    result = run(*args)
    assert result.returncode == 2
    assert "fichier de configuration introuvable" in result.stderr and missing in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("position", ["before", "after"])
def test_cli_config_edition_usable_in_either_position(position: str, tmp_path: Path) -> None:
    # A user edition made of a copy of the 2004 French text under another id: its rules are
    # then found under that id, whichever side of the command `--config` is written.
    source = ROOT / "rules" / "000_57306400b9ed3ddd.txt"
    config = tmp_path / "perso.toml"
    config.write_text(
        '[[edition]]\nid = "perso"\nlabel = "Copie de test"\n[[edition.text]]\nlanguage = "fr"\n'
        f'files = ["{source}"]\n',
        encoding="utf-8",
    )
    rule = ["rule", "302.3", "--edition", "perso", "--json"]
    args = ["--config", str(config), *rule] if position == "before" else [*rule, "--config", str(config)]
    result = run(*args)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [d["edition"] for d in data] == ["perso"]
    assert data[0]["text"].startswith("Aucun joueur ne reçoit la priorité")


def test_cli_invalid_config_file_is_a_french_error(tmp_path: Path) -> None:
    config = tmp_path / "cassé.toml"
    config.write_text("edition = [\n", encoding="utf-8")
    result = run("--config", str(config), "rule", "300.3")
    assert result.returncode == 2 and "TOML invalide" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_every_command_and_option_is_in_docs_cli() -> None:
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name, sub in subparsers.choices.items():
        assert f"## judge {name}" in doc, f"docs/cli.md ne documente pas « judge {name} »"
        section = doc.split(f"## judge {name}", 1)[1].split("\n## ", 1)[0]
        for action in sub._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag not in ("--help", "--config"):
                    assert flag in section, f"docs/cli.md : « judge {name} » sans l'option {flag}"


# ---------------------------------------------------------------------- history and diff
def test_history_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "305.4", "--edition", "2004", "--json"]) == 0
    (item,) = json.loads(capsys.readouterr().out)
    assert [(s["edition"], s["number"], s["change"]) for s in item["steps"]] == [
        ("2004", "305.4", None), ("2010", "505.5b", "edited")]
    assert main(["history", "305.4", "--edition", "2004"]) == 0
    out = capsys.readouterr().out
    assert "Historique de la règle 305.4" in out and "2010 — 505.5b : modifiée" in out


def test_diff_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "2004", "2010", "--section", "305", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"from", "to", "pairs", "removed", "added"} <= set(data)
    assert {"from": "305.4", "to": "505.5b", "change": "edited"}.items() <= next(
        p for p in data["pairs"] if p["from"] == "305.4").items()
    assert main(["diff", "2004", "2010"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Changements 2004 → 2010") and "supprimées : " in out and "300.3" in out


@pytest.mark.parametrize(("args", "code", "message"), [
    (("history", "abc"), 2, "numéro de règle invalide"),
    (("history", "999.9"), 1, "règle 999.9 absente"),
    (("history", "305.4", "--edition", "1999"), 2, "édition inconnue"),
    (("diff", "2004", "2004"), 2, "deux éditions différentes"),
    (("diff", "2004", "1999"), 2, "édition inconnue"),
    (("diff", "2004", "2010", "--section", "3a"), 2, "numéro de section invalide"),
    (("diff", "2004", "2010", "--section", "999"), 1, "section 999 absente"),
])
def test_history_and_diff_errors(args: tuple[str, ...], code: int, message: str) -> None:
    result = run(*args)
    assert result.returncode == code and message in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_checks_gives_the_share_of_all_rules_first_then_the_reasons(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["checks"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Couverture : ") and "de toutes les règles" in lines[0]
    assert any(line.strip().startswith("500.11") and "définition" in line for line in lines)
    assert any(line.strip().startswith("302.1") and "untap" in line for line in lines)
    assert any(line.strip().startswith("510.2") and "replay" in line for line in lines)
    assert main(["checks", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert 0 < data["percent_of_all_rules"] < data["percent"] == 100.0


def test_check_prints_the_trail_of_a_replay_as_a_numbered_journal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(ROOT / "examples" / "tour-rejoue.toml")]) == 0
    out = capsys.readouterr().out
    assert "Journal du tour :" in out and "  1. [action du tour] " in out
    assert "[événement 4] A joue un terrain" in out


def test_check_prints_the_turn_structure_answers_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    # 2004 310.4a-c: the blocker sacrificed with damage on the stack still deals its damage,
    # the attacker's damage to it is not dealt.
    assert main(["check", str(ROOT / "examples" / "blessures-sur-la-pile-2004.toml")]) == 0
    out = capsys.readouterr().out
    assert "infligées ?\n   Réponse : Mogg Fanatic → Grizzly Bears : 1\n" in out
    assert "Non infligées, car leur destinataire n'est plus en jeu : 2 blessures de Grizzly Bears" in out
    assert "Règles : 306.2b, 310.1, 310.2a, 310.2c, 310.2d, 310.3, 310.4, 310.4a, 310.4b, 310.4c" in out
    assert "encore en combat ? (créature : Mogg Fanatic)\n   Réponse : non\n" in out
    cleanup = ROOT / "tests" / "situations" / "cleanup_2004_effects.toml"
    text = cleanup.read_text(encoding="utf-8").split("[[expect]]")[0]
    done = run("check", "-", stdin=text)
    assert done.returncode == 0, done.stderr
    assert ("Réponse : cartes défaussées : 2 ; blessures retirées : Ours ; effets qui cessent : "
            "Croissance gigantesque, Brouillard ; priorité : non") in done.stdout


def test_rule_text_names_its_checks_by_the_french_question(capsys: pytest.CaptureFixture[str]) -> None:
    # 305.4 decides whether a land may be played: the text output says so in French; the
    # JSON keeps the stable check names.
    assert main(["rule", "305.4", "--edition", "2004", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "– Ce joueur peut-il jouer un terrain ?" in out and "play_land" not in out
    assert main(["rule", "305.4", "--edition", "2004", "--lang", "fr", "--json"]) == 0
    assert "play_land" in json.loads(capsys.readouterr().out)[0]["checks"]

