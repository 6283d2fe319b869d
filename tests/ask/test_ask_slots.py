"""The slot reader (issue 40): a question the grammar leaves words of is read by its slots —
edition, moment, mana left, cards in hand, a land already played, the empty stack, priority —
and answered by the checks; a word of game meaning that fills no slot still declines it."""

from __future__ import annotations

from judge.ask.answer import ask
from judge.ask.reader import read
from judge.ask.slots import slot_parts

BURN = "il me reste quatre manas flottants dans ma réserve à la fin de ma phase principale. Brûlure ?"


def _kinds(question: str) -> list[str]:
    reading = read(question)
    parts = slot_parts(reading.words, reading.asked)
    assert parts is not None
    return [part.kind for part in parts]


def test_mana_left_at_a_phase_end_burns_in_2004_only() -> None:
    old = ask("Règles de 2004 : " + BURN, with_search=False)
    assert old.understood is True and [a["answer"] for a in old.answers] == [4]
    assert any(rule["number"].endswith("300.3") for rule in old.rule_texts)
    new = ask("Règles de 2010 : " + BURN, with_search=False)
    assert new.understood is True and [a["answer"] for a in new.answers] == [0]


def test_a_story_word_no_slot_takes_declines_the_question() -> None:
    question = "En 2004, j'ai lancé un sort et " + BURN
    reading = read(question)
    assert slot_parts(reading.words, reading.asked) is None
    result = ask(question, with_search=False)
    assert result.understood is False and result.declined == "not_understood"


def test_a_land_told_as_played_is_a_fact_and_the_second_is_refused() -> None:
    question = ("En 2004, j'ai déjà joué une forêt dans ma première phase principale. Dans ma seconde "
                "phase principale, pile vide, j'en pose un autre ?")
    assert _kinds(question) == ["edition", "land_played", "moment", "stack_empty", "question"]
    result = ask(question, with_search=False)
    assert result.understood is True and [a["answer"] for a in result.answers] == [False]


def test_no_land_played_yet_allows_one_with_priority_and_empty_stack() -> None:
    result = ask("En 2004, je n'ai pas encore joué de terrain. Dans ma seconde phase principale, pile vide, "
                 "j'ai la priorité : je pose une forêt ?", with_search=False)
    assert result.understood is True and [a["answer"] for a in result.answers] == [True]


def test_the_opponents_main_phase_refuses_a_land() -> None:
    result = ask("PP1 adverse, pile vide, j'ai la prio. Je pose un terrain ?", with_search=False)
    assert result.understood is True and [a["answer"] for a in result.answers] == [False]


def test_a_question_of_another_kind_is_not_read_by_slots() -> None:
    reading = read("En 2004, mon ours 2/2 attaque et il me reste trois manas : il bloque avec quoi ?")
    assert slot_parts(reading.words, reading.asked) is None


def test_a_player_named_by_a_first_name_is_the_player_of_her_turn() -> None:
    # one player named, no « je »: Chloé's turn (« sa première phase principale »), her second land
    question = ("En 2004, Chloé a déjà posé une forêt dans sa première phase principale. Dans sa seconde "
                "phase principale, pile vide, elle en pose un autre ?")
    result = ask(question, with_search=False)
    assert result.understood is True and [a["answer"] for a in result.answers] == [False]
    assert result.situation is not None and result.situation["active"] == "A"
    assert result.answers[0]["player"] == "A"


def test_the_opponents_mana_burns_the_opponent_and_is_never_my_loss() -> None:
    told = "En 2004, mon tour, étape de fin : mon adversaire a 2 manas dans sa réserve qu'il n'a pas utilisés"
    question = told + ", quand la phase de fin se termine il perd des points de vie ou pas"
    assert read(question).unknown  # the grammar leaves words: the slots read it
    theirs = ask(question, with_search=False)
    assert theirs.understood is True and [a["answer"] for a in theirs.answers] == [2]
    mine = read(told + ", quand la phase de fin se termine je perds des points de vie ou pas")
    assert slot_parts(mine.words, mine.asked) is None


def test_the_grammar_too_never_charges_one_player_for_the_others_mana() -> None:
    question = ("En 2004, mon adversaire a 2 manas dans sa réserve à la fin de ma phase principale : "
                "je perds combien de points de vie ?")
    result = ask(question, with_search=False)
    assert result.understood is False and result.declined == "missing"
    mine = ask(question.replace("mon adversaire a 2 manas dans sa", "j'ai 2 manas dans ma"), with_search=False)
    assert mine.understood is True and [a["answer"] for a in mine.answers] == [2]


# ---------------------------------------------------------------- round 13: reading by meaning
def _answers(question: str) -> list[object]:
    result = ask(question, with_search=False)
    assert result.understood is True, result.understood_as
    return [a["answer"] for a in result.answers]


def test_a_number_in_words_and_the_end_of_my_turn_read_without_a_grammar_rule() -> None:
    # the issue's own example: « fin » and « neuf » were unknown words
    assert _answers("J'ai neuf cartes en main à la fin de mon tour : j'en défausse combien ?") == [2]


def test_a_card_type_said_of_a_creature_decides_the_block() -> None:
    # 2010 702.33b (fear): artifact and/or black creatures only; « artefact » must never be skipped
    told = "Il m'attaque avec son spectre qui a la peur. J'ai un "
    assert _answers(told + "golem, créature artefact : il peut bloquer ?") == [True]
    assert _answers(told + "ours vert : il peut bloquer ?") == [False]


def test_players_named_by_first_names_own_their_creatures() -> None:
    told = "Le Griffon d'Alice, qui a le vol, attaque. Bruno peut-il le bloquer avec son Ours, qui "
    assert _answers(told + "n'a pas le vol ?") == [False]
    assert _answers(told + "a la portée ?") == [True]


def test_verb_forms_are_one_lemma() -> None:
    for verb in ("bloqué", "bloquée"):
        assert _answers(f"Mon ours 2/2 {verb} par son loup 3/3 : qu'est-ce qui est infligé ?") == [
            [{"source": "ours", "target": "loup", "amount": 2}, {"source": "loup", "target": "ours", "amount": 3}]]


def test_an_open_moment_the_answer_does_not_depend_on_is_answered_for_all() -> None:
    result = ask("Est-ce que je peux jouer un terrain pendant le tour de mon adversaire ?", with_search=False)
    assert result.understood is True and [a["answer"] for a in result.answers] == [False]
    assert "à n'importe quel moment de ce tour" in result.understood_as
    # when it depends on the moment, it is asked
    mine = ask("Je peux jouer un terrain ?", with_search=False)
    assert mine.understood is False and mine.declined == "missing"


def test_a_deciding_word_no_slot_takes_stops_the_slot_reader() -> None:
    reading = read("Mon ours 2/2 a été sacrifié : il peut attaquer ?")
    assert slot_parts(reading.words, reading.asked) is None


def test_a_dictated_year_and_power_toughness_are_read() -> None:
    # a floor judge dictating: no punctuation, numbers in words (2004 308.2a: a Wall can't attack)
    result = ask("en deux mille quatre mon mur zéro quatre est dégagé il est là depuis trois tours "
                 "il peut attaquer", with_search=False)
    assert result.understood is True and result.situation is not None
    assert result.situation["edition"] == "2004"
    assert [a["answer"] for a in result.answers] == [False]
    wall = result.situation["creatures"][0]
    assert (wall["power"], wall["toughness"]) == (0, 4)


def test_priority_passed_told_says_who_holds_it() -> None:
    # 2010 117.3c: after a player passes, the next player in turn order receives priority
    told = "C'est le tour de mon adversaire, son étape de pioche, pile vide : il m'a passé la priorité. "
    result = ask(told + "Je peux lancer un éphémère ?", with_search=False)
    assert result.understood is True and [a["answer"] for a in result.answers] == [True]
    assert result.situation is not None and result.situation["priority"] == "B"


def test_no_attackers_said_decides_what_follows_the_declaration() -> None:
    # 2004 308.4 / 2010 508.8: no attackers, the blockers' and damage steps are skipped
    done = ask("J'ai déclaré aucun attaquant. Après la déclaration des attaquants, on passe à quelle étape ?",
               with_search=False)
    assert done.understood is True
    assert [a["answer"] for a in done.answers] == [{"phase": "combat", "step": "end_of_combat"}]
    open_question = ask("On est à la déclaration des attaquants. Quelle étape vient ensuite ?", with_search=False)
    assert open_question.understood is False and open_question.declined == "missing"


def test_assumptions_are_said() -> None:
    result = ask("En 2004, dans ma première phase principale, je peux jouer un terrain ?", with_search=False)
    assert result.understood is True and [a["answer"] for a in result.answers] == [True]
    assert "je suppose qu'aucun terrain n'a encore été joué ce tour" in result.understood_as
    assert "je suppose la pile vide" in result.understood_as


def test_a_damage_share_to_a_creature_no_block_was_told_of_is_asked() -> None:
    result = ask("J'attaque avec mon wurm 5/5, il le bloque avec ses deux ours 2/2 qu'il appelle Tic et Tac. "
                 "Je peux mettre 1 blessure sur Tic et 4 sur Tac ?", with_search=False)
    assert result.understood is False and result.answers == ()


def test_a_deciding_first_word_is_never_taken_for_the_question() -> None:
    # the question's word position defaulted to 0 for some kinds and marked the first word read
    reading = read("Sacrifié : j'ai neuf cartes en main à la fin de mon tour, j'en défausse combien ?")
    assert slot_parts(reading.words, reading.asked) is None


# ---- round 14: extra turns, several players, names, a judge's report, citations

def _answer(question: str) -> object:
    result = ask(question, with_search=False)
    assert result.understood is True, result.understood_as
    assert len(result.answers) == 1
    return result.answers[0]["answer"]


def test_extra_turns_the_last_created_is_taken_first() -> None:
    # 2004 300.6 / 2010 500.7: the most recently created extra turn is taken first.
    question = ("En 2004, pendant mon tour je lance un rituel qui me donne un tour supplémentaire, puis mon "
                "adversaire s'en donne un aussi avec un éphémère. À qui sont les trois prochains tours ?")
    assert _answer(question) == ["B", "A", "B"]


def test_an_extra_turn_named_by_first_names_is_answered_with_them() -> None:
    question = ("Pendant le tour d'Alice, un effet lui donne un tour supplémentaire, puis un autre effet donne un "
                "tour supplémentaire à Bruno. À qui seront les trois prochains tours ?")
    assert _answer(question) == ["Bruno", "Alice", "Bruno"]


def test_three_named_players_with_the_attack_multiple_option_all_defend() -> None:
    # 2010 802.2: with « attack multiple players », every opponent is a defending player.
    question = ("On joue à trois, moi, puis Karim, puis Léa, avec l'option attaquer plusieurs joueurs. "
                "C'est mon tour, on est en combat : qui sont les joueurs défenseurs ?")
    assert _answer(question) == ["Karim", "Léa"]
    without = ask("On joue à trois, moi, puis Karim, puis Léa. C'est mon tour, on est en combat : qui sont "
                  "les joueurs défenseurs ?", with_search=False)
    assert without.understood is False and "option" in without.understood_as


def test_a_player_named_is_answered_by_name_not_by_letter() -> None:
    # 2010 509.5 (after blockers are declared, the active player receives priority).
    question = ("Sophie est la joueuse active. À l'étape de déclaration des bloqueurs, une fois que son adversaire "
                "a déclaré ses bloqueurs, qui reçoit la priorité en premier ?")
    result = ask(question, with_search=False)
    assert result.understood is True and [a["answer"] for a in result.answers] == ["Sophie"]
    assert "Sophie (A)" in result.understood_as


def test_a_judge_reporting_an_appeal_is_read_as_the_players_question() -> None:
    question = ("Un joueur m'appelle : en 2004, pendant l'étape de dégagement de son adversaire, il veut lancer un "
                "éphémère. Il me demande s'il en a le droit. Que dois-je répondre ?")
    result = ask(question, with_search=False)
    assert result.understood is True, result.understood_as
    assert [a["answer"] for a in result.answers] == [False]  # 2004 302.3: no priority in the untap step
    assert "vous" not in result.understood_as


def test_a_rule_number_cited_is_no_fact_of_the_game() -> None:
    question = "En 2004 (la 302.3 si je me souviens bien), pendant mon étape de dégagement, mon adversaire peut-il lancer un éphémère ?"
    assert _answer(question) is False


def test_triggers_of_a_card_not_read_are_not_answered() -> None:
    # « son autel » is no creature noun the reader knows: answering with the Malédiction alone
    # would leave a trigger out.
    question = ("En 2004, au début de l'entretien de A, son autel se déclenche et la Malédiction de B aussi. "
                "Dans quel ordre vont-elles sur la pile ?")
    result = ask(question, with_search=False)
    assert result.understood is False
