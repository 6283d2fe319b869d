"""Issue 38, readers: every reader of a user's file linear or bounded. The installed `judge`
in a subprocess with a timeout (a hang is a failure, never a timed assertion): an escaped-quote
string of the size allowed refused at once wherever TOML or JSON is read, a rule number of any
length refused in French."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import judge, refused

from judge.inputs import MAX_CONFIG_BYTES, MAX_SITUATION_BYTES, structure_problem


def _escaped_quotes(head: str, cap: int) -> str:
    """An unterminated string of `\\"` filling `cap` bytes (before: 80 KB took 13 s, 1 MB ≈ 35 min)."""
    return head + '\\"' * ((cap - len(head) - 1) // 2)


# A JSON text holding more brackets than the depth cap is scanned whole (fewer are let through).
JSON_HEAD = "[" * 70 + '{"active": "'


@pytest.mark.parametrize(("fmt", "head"), [("json", JSON_HEAD), ("toml", 'active = "')])
def test_the_structure_check_is_linear(fmt: str, head: str) -> None:
    # 1 MB in a few hundredths of a second now; a quadratic scan would not end within the
    # subprocess timeouts below: this call, in-process, is the direct witness.
    text = _escaped_quotes(head, MAX_SITUATION_BYTES)
    assert structure_problem(text, fmt) in (None, structure_problem(JSON_HEAD, fmt))


def test_a_word_of_a_megabyte_is_scanned_once() -> None:
    assert structure_problem("a" * MAX_CONFIG_BYTES, "toml") is None  # before: 40 s for 40 KB


def test_escaped_quotes_on_standard_input_are_refused_at_once() -> None:
    text = _escaped_quotes(JSON_HEAD, MAX_SITUATION_BYTES).encode()
    refused(judge("check", "-", stdin=text, timeout=60))


def test_escaped_quotes_in_a_situation_file_are_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(_escaped_quotes('active = "', MAX_SITUATION_BYTES))
    refused(judge("check", str(path), timeout=60), "chaîne non terminée")


def test_escaped_quotes_in_a_config_are_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(_escaped_quotes('x = "', MAX_CONFIG_BYTES))
    refused(judge("--config", str(path), "rule", "300.3", timeout=60), "chaîne non terminée")


@pytest.fixture(scope="module")
def long_number_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("nombre")
    (folder / "long.txt").write_text("100. Généralités\n\n100.1 Une règle.\n\n100." + "9" * 5000 + " Une règle au long numéro.\n")
    (folder / "judge.toml").write_text('[[edition]]\nid = "x"\nlabel = "X"\nreleased = "2020-01-01"\n'
                                      '[[edition.text]]\nlanguage = "fr"\nfiles = ["long.txt"]\n')
    return folder


@pytest.mark.parametrize("args", [["lint"], ["rule", "100.1"], ["search", "règle"]])
def test_a_rule_number_of_any_length_is_refused_in_french(long_number_config: Path, args: list[str]) -> None:
    env = {"JUDGE_CACHE_DIR": str(long_number_config / "cache")}
    result = judge("--config", str(long_number_config / "judge.toml"), *args, env=env, timeout=300)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, (result.returncode, err[-2000:])
    assert "Traceback" not in err and "Exceeds the limit" not in err, err[-2000:]
    assert "numéro de règle trop long" in err, err[-2000:]


def test_a_long_rule_number_asked_for_is_refused_in_french() -> None:
    result = judge("rule", "100." + "9" * 5000, timeout=300)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2 and "Traceback" not in err and "numéro de règle invalide" in err, err[-2000:]


def test_a_long_line_is_not_read_whole_for_each_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: every search hitting a 4 MB rule line tokenised and stemmed all of it (42.6 s).
    from types import SimpleNamespace

    from judge.search import output

    read: list[int] = []
    tokens = output.folded_tokens

    def counted(text: str, stop: frozenset[str]):
        read.append(len(text))
        return tokens(text, stop)

    monkeypatch.setattr(output, "folded_tokens", counted)
    line = "le joueur attaque avec une créature au combat " * 90_000  # 4 MB
    card = SimpleNamespace(texts=(line, ""), title="")
    snippet = output._snippet(card, frozenset(), lambda term: term.startswith("combat"))
    assert "<mark>combat</mark>" in snippet and len(snippet) < 1000
    assert sum(read) <= output.SNIPPET_SCAN
