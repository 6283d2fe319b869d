"""`judge ask` reads meaning, not every word (issue 40): a story told before the question is
read (its setting and the words with no game fact skipped and shown), a question is never
answered as another kind than its asking sentence's words ask, and a name of which nothing is
said is not taken for a card."""

from __future__ import annotations

from judge.ask.answer import ask
from judge.ask.kinds import asked_kinds, misread
from judge.ask.reader import asking_part
from judge.ask.words import words_of

STORY = ("Alors voilà, je vous raconte, c'était la finale de notre tournoi du vendredi soir, bref, une "
         "soirée très longue, on était fatigués, mon copain rigolait, il faisait chaud, enfin bon, vous "
         "voyez le genre, hier soir, mon copain, bref, une soirée très longue, enfin bon, et c'était "
         "avec les règles de 2004. C'est mon tour, je suis dans mon entretien. Est-ce que je peux jouer un "
         "terrain ?")
# Words of the rule texts (« salle », « monde », « tard », « jouait ») carry game meaning: told in
# the story and not understood, they would stop the answer — these carry none.


def test_a_story_told_before_the_question_is_read_and_its_setting_skipped() -> None:
    assert len(words_of(STORY)) > 64  # the old cap refused it
    result = ask(STORY, with_search=False)
    assert result.understood is True
    assert result.situation is not None and result.situation["edition"] == "2004"
    assert [a["answer"] for a in result.answers] == [False]  # no land during the upkeep (2004 300.2/305.x)
    assert "tournoi" in result.skipped and "bref" in result.skipped


def test_a_setting_asked_about_is_out_of_scope() -> None:
    result = ask("En tournoi, quelle pénalité pour un terrain joué en trop ?", with_search=False)
    assert result.declined == "out_of_scope"


def test_the_asking_part_is_the_sentence_with_the_question_mark() -> None:
    assert asking_part("Nous sommes au combat. Il attaque ; je bloque ?") == " Il attaque ; je bloque ?"
    assert asking_part("Je bloque avec mon ours") == "Je bloque avec mon ours"


def test_a_question_whose_words_ask_another_kind_is_not_answered_as_the_kind_read() -> None:
    question = "Nous sommes à l'étape de fin de combat. Lorsque cette étape se termine, dans quelle phase entre-t-on ?"
    result = ask(question, with_search=False)
    assert result.understood is False and result.answers == ()
    assert "Quelle étape suit ?" in result.understood_as


def test_kind_cues_come_from_the_words_that_ask() -> None:
    assert "next" in asked_kinds(("dans", "quelle", "phase", "entre", "t", "on"))
    assert misread({"where"}, ("quelle", "etape", "suit"), ("quelle", "etape", "suit")) is not None
    assert misread({"next"}, ("quelle", "etape", "suit"), ("quelle", "etape", "suit")) is None
    assert misread({"cast"}, ("2e", "terrain"), ("2e", "terrain")) is not None
    assert misread({"cast"}, ("ok",), ("ok",)) is None  # a terse question says no kind: not checked
    # a fact told in the asking sentence (« bloqué ») is not what it asks
    words = ("mon", "3/3", "est", "bloque", "par", "un", "1/1", "combien", "au", "joueur")
    assert misread({"damage_dealt"}, words, words) is None


def test_a_first_name_is_a_player_not_a_card() -> None:
    # « ma seconde phase principale »: the speaker's turn; Bruno is the other player (not a card)
    result = ask("Est-ce que Bruno peut jouer un terrain pendant ma seconde phase principale, la pile étant vide ?",
                 with_search=False)
    assert result.understood is True
    assert result.situation is not None and not result.situation.get("creatures")
    assert [a["answer"] for a in result.answers] == [False]
    assert result.answers[0]["player"] == "B"
