"""`judge ask`: a judge's question read, shown as understood, answered through `judge check`.

The questions here are the issue's own examples and plain judge phrasings; the measured set
written by someone who never read the grammar is `test_ask_questions.py`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge.ask.answer import ask
from judge.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, timeout=180)


def asked(capsys: pytest.CaptureFixture[str], question: str, *options: str) -> tuple[int, dict[str, Any]]:
    code = main(["ask", question, "--json", *options])
    return code, json.loads(capsys.readouterr().out)


def test_json_contract_from_the_installed_command(tmp_path: Path) -> None:
    done = run("ask", "Mon adversaire peut-il lancer un éphémère pendant mon étape d'entretien ?", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"understood", "not_understood", "understood_as", "situation", "answers", "search",
                         "answer", "rules", "declined", "skipped"}
    assert data["answer"] == data["answers"][0]["why"] and data["declined"] is None
    assert {r["number"] for r in data["rules"]} <= set(data["answers"][0]["rules"]) and data["rules"]
    assert data["understood"] is True and data["not_understood"] == []
    assert data["understood_as"].startswith("J'ai compris : règles de 2010 ; c'est le tour de A")
    assert "entretien" in data["understood_as"]
    (answer,) = data["answers"]
    assert (answer["ask"], answer["player"], answer["kind"], answer["answer"]) == ("cast", "B", "instant", True)
    assert answer["rules"]
    # The situation is the documented format: `judge check` reads it and answers the same.
    situation = tmp_path / "situation.json"
    situation.write_text(json.dumps(data["situation"], ensure_ascii=False), encoding="utf-8")
    checked = run("check", str(situation), "--json")
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["answers"] == data["answers"]


def test_text_output_answers_first_then_rules_then_what_it_understood() -> None:
    done = run("ask", "En 2004, puis-je lancer un rituel pendant mon entretien ?")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Non : ") and "entretien" in lines[0]
    assert lines[2] == "Règles décisives :"
    understood = next(i for i, line in enumerate(lines) if line.startswith("J'ai compris : règles de 2004"))
    assert understood > 2
    assert "Réponse : non" in done.stdout
    assert "Règles : " in done.stdout


def test_trample_damage_to_the_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = asked(capsys, "Mon 3/3 avec le piétinement est bloqué par un 1/1 : combien au joueur ?")
    assert code == 0
    assert data["understood_as"].endswith("reçoit-il ?")  # a question's mark, no full stop after it
    (answer,) = data["answers"]
    to_player = [d for d in answer["answer"] if d["target"] == "B"]
    assert [d["amount"] for d in to_player] == [2]
    assert answer["rules"]


def test_where_after_a_sequence_of_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = asked(capsys, "Après dégagement, entretien, pioche et un terrain joué, on en est où ?")
    assert code == 0
    assert data["situation"]["events"][-1] == {"play_land": "A"}
    (answer,) = data["answers"]
    assert answer["answer"]["phase"] == "precombat_main"
    assert answer["answer"]["priority"] == "A"


def test_partly_understood_lists_the_words_and_answers_nothing() -> None:
    done = run("ask", "Puis-je cibler la créature avec un Éclair ?", "--json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["understood"] is False
    assert "cibler" in data["not_understood"]
    assert data["answers"] == [] and data["situation"] is None
    assert data["search"] and {"edition", "number"} <= set(data["search"][0])
    # Targets are outside the checks (issue 40): declined for that reason, naming the word.
    assert data["declined"] == "out_of_scope"
    assert data["understood_as"].startswith("Hors de mon champ : la question parle de « cibler »")


def test_out_of_scope_is_declined(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = asked(capsys, "Combien coûte un booster au magasin ?")
    assert code == 1 and data["understood"] is False and data["answers"] == []


def test_missing_piece_is_not_guessed(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = asked(capsys, "En réponse, puis-je lancer un rituel ?")
    assert code == 1 and data["answers"] == []
    assert "en réponse à quoi" in data["understood_as"]


@pytest.mark.parametrize(("question", "edition"), [
    ("En 2004, mon ours arrivé ce tour-ci peut-il attaquer ?", "2004"),
    ("Avant Magic 2010, mon ours arrivé ce tour-ci peut-il attaquer ?", "2004"),
    ("Avec la brûlure de mana, mon ours arrivé ce tour-ci peut-il attaquer ?", "2004"),
    ("Sans la brûlure de mana, mon ours arrivé ce tour-ci peut-il attaquer ?", "2010"),
    ("Mon ours arrivé ce tour-ci peut-il attaquer ?", "2010"),
])
def test_edition_from_the_question(question: str, edition: str) -> None:
    result = ask(question.replace("ours", "2/2"), with_search=False)
    assert result.understood, result.understood_as
    assert result.situation is not None and result.situation["edition"] == edition


def test_edition_option_and_conflict(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = asked(capsys, "Qui a la priorité pendant mon entretien ?", "--edition", "2004")
    assert code == 0 and data["situation"]["edition"] == "2004"
    code, data = asked(capsys, "En 2004, qui a la priorité pendant mon entretien ?", "--edition", "2010")
    assert code == 1 and data["answers"] == []


def test_invalid_input_exit_2() -> None:
    assert run("ask", "   ").returncode == 2
    too_long = run("ask", "Puis-je attaquer ? " * 120)  # 2,280 characters (at most 2,000)
    assert too_long.returncode == 2
    assert "question trop longue" in too_long.stderr
    assert run("ask", "Qui a la priorité ?", "--edition", "1999").returncode != 0
