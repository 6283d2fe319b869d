"""The installed `judge` command against a hostile or careless user (issue 20): whatever the
input, a French message and exit 2 (never a traceback, never a hang), nothing of the user's
deleted, nothing read that the user did not name. Run as a user runs it: the `judge` script
of the environment, in a subprocess, with a timeout (a hang is a failure)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_support import MANA_BURN, RULES, judge, refused
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.inputs import (
    MAX_CONFIG_BYTES,
    MAX_EXTRA_STEPS,
    MAX_KEY_DEPTH,
    MAX_NESTING,
    MAX_RULE_TEXT_BYTES,
    MAX_SITUATION_BYTES,
)


# ---------------------------------------------------------------------- 1. judge build
def test_build_next_to_the_users_notes_keeps_them_and_refuses(tmp_path: Path) -> None:
    out = tmp_path / "projet" / "livre"
    out.mkdir(parents=True)
    (out / "notes.txt").write_text("mes notes")
    # Said at once, from an empty cache too: the folder is refused before the corpus is read.
    result = judge("build", "--out", str(out), cwd=tmp_path, env={"JUDGE_CACHE_DIR": str(tmp_path / "cache")})
    refused(result, str(out), "rien n'a été supprimé")
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())
    assert (out / "notes.txt").read_text() == "mes notes"
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("out", [".", "", "..", "./", "sous/.."])
def test_build_into_the_current_folder_or_an_ancestor_is_refused(tmp_path: Path, out: str) -> None:
    here = tmp_path / "projet"
    (here / "sous").mkdir(parents=True)
    (here / "notes.txt").write_text("à garder")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    refused(judge("build", "--out", out, cwd=here))
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert judge("rule", "300.3", cwd=here).returncode == 0  # the folder is still there


def test_build_replaces_its_own_build_only_and_removes_stale_staging(tmp_path: Path) -> None:
    # A killed build's staging (its process is gone) and an old-style one, long stale, are
    # removed; a folder of the same shape holding the user's files is not.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".site-build-{dead.pid}-abcdefgh"
    stale.mkdir()
    (stale / ".judge-build").write_text("judge build\n")
    legacy = tmp_path / ".site-old-abcd_fgh"
    legacy.mkdir()
    (legacy / "index.html").write_text("x")
    os.utime(legacy, (0, 0))
    foreign = tmp_path / f".site-build-{dead.pid}-zzzzzzzz"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("à moi")
    first = judge("build", "--out", "site", cwd=tmp_path)
    assert first.returncode == 0, first.stderr.decode()
    assert not stale.exists() and not legacy.exists() and (foreign / "mine.txt").exists()
    site = tmp_path / "site"
    assert (site / ".judge-build").is_file() and (site / "index.html").is_file()
    # Its own previous build: replaced. The user's file inside it: refused, kept.
    (site / "2004" / "mes-notes.txt").write_text("à garder")
    refused(judge("build", "--out", "site", cwd=tmp_path), "2004/mes-notes.txt", "rien n'a été supprimé")
    assert (site / "2004" / "mes-notes.txt").read_text() == "à garder" and (site / "index.html").is_file()
    (site / "2004" / "mes-notes.txt").unlink()
    assert judge("build", "--out", "site", cwd=tmp_path).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["site", foreign.name])


# ---------------------------------------------------------------------- 2. names, not paths
def _config(tmp_path: Path, edition_id: str = "extra", language: str = "fr", *, extra: str = "") -> Path:
    config = tmp_path / "conf.toml"
    config.write_text(
        f'[[edition]]\nid = {json.dumps(edition_id)}\nreleased = "2099-01-01"\ngame = "2004"\n{extra}'
        f'[[edition.text]]\nlanguage = {json.dumps(language)}\nfiles = ["{RULES / "004_17a8758e9cd78ccf.txt"}"]\n',
        encoding="utf-8")
    return config


@pytest.mark.parametrize(("edition_id", "language"), [
    ("../../PWNED", "fr"), ("/some/www", "fr"), ("extra", "../../X"), (".", "fr"), ("a/b", "fr"),
    ("extra", "fr/../.."), ("-x", "fr"), ("x" * 500, "fr"),
])
def test_edition_ids_and_languages_are_names_not_paths(tmp_path: Path, edition_id: str, language: str) -> None:
    config = _config(tmp_path, edition_id, language)
    err = refused(judge("--config", str(config), "build", "--out", str(tmp_path / "out"), cwd=tmp_path),
                  "n'est pas un nom valide", str(config))
    assert len(err) < 600  # a long id is cut
    assert not (tmp_path / "out").exists() and not (tmp_path.parent / "PWNED").exists()


# ---------------------------------------------------------------------- 3. only named files
def _mana_burn_answer(out: bytes) -> tuple[str, str]:
    text = out.decode("utf-8")
    edition = re.search(r"^Édition (\S+)", text, re.M)
    answer = re.search(r"Réponse : (\S+)", text)
    assert edition and answer, text
    return edition.group(1), answer.group(1)


def test_a_planted_judge_toml_changes_nothing(tmp_path: Path) -> None:
    # A planted edition, newest by its date, on the 2004 model (mana burn): read silently
    # before, it became the default and answered 3 where the rules say 0.
    _config(tmp_path, "2099").rename(tmp_path / "judge.toml")
    (tmp_path / "s.json").write_text(MANA_BURN, encoding="utf-8")
    plain = judge("check", "s.json", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr.decode()
    assert _mana_burn_answer(plain.stdout) == ("2010", "0")
    assert b"configuration lue" not in plain.stderr
    # Named, it is read (and said), but its edition is not the default by its date…
    named = judge("--config", "judge.toml", "check", "s.json", cwd=tmp_path)
    assert named.returncode == 0 and _mana_burn_answer(named.stdout) == ("2010", "0")
    assert named.stderr.decode().startswith("configuration lue : judge.toml")
    # … only when it says so.
    _config(tmp_path, "2099", extra="default = true\n").rename(tmp_path / "judge.toml")
    chosen = judge("check", "s.json", cwd=tmp_path, env={"JUDGE_CONFIG": "judge.toml"})
    assert chosen.returncode == 0 and _mana_burn_answer(chosen.stdout) == ("2099", "3")
    assert b"configuration lue : judge.toml" in chosen.stderr


# ---------------------------------------------------------------------- 4. every Python
def test_plain_stops_before_a_citation_on_this_python() -> None:
    # Python 3.11.2's re ran the possessive PLAIN past « Voir règle 406 » (line 12 of 004…txt):
    # every command failed with a syntax error there.
    from judge.corpus.parser import GRAMMAR_PATH

    (pattern,) = re.findall(r"^PLAIN: /(.*)/$", GRAMMAR_PATH.read_text(encoding="utf-8"), re.M)
    # No possessive group, no atomic group (single character-class runs may be possessive).
    assert not re.search(r"\)[*+?]\+|\)\{[0-9,]+\}\+|\(\?>", GRAMMAR_PATH.read_text(encoding="utf-8"))
    line = (RULES / "004_17a8758e9cd78ccf.txt").read_text(encoding="utf-8").splitlines()[11]
    match = re.compile(pattern).match(line)
    assert match is not None and line[match.end():].startswith(("Voir règle 406", "(Voir règle 406"))
    result = judge("rule", "300.3", "--edition", "2004", "--lang", "fr")
    assert result.returncode == 0 and "406" in result.stdout.decode(), result.stderr.decode()


# ---------------------------------------------------------------------- 5. bounded
@pytest.mark.parametrize("command", [["parse"], ["check"], ["--config"]])
def test_a_fifo_is_refused_without_blocking(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "tube.toml"
    os.mkfifo(fifo)
    args = [*command, str(fifo)] + (["rule", "300.3"] if command == ["--config"] else [])
    refused(judge(*args, timeout=60), str(fifo), "fichier ordinaire")


@pytest.mark.parametrize(("command", "device"), [(["parse"], "/dev/zero"), (["check"], "/dev/zero"),
                                                 (["check"], "/dev/null")])
def test_a_device_is_refused(command: list[str], device: str) -> None:
    refused(judge(*command, device, timeout=60), device, "fichier ordinaire")


def test_a_fifo_planted_in_the_cache_folder_hangs_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = {"JUDGE_CACHE_DIR": str(cache)}
    assert judge("rule", "300.3", env=env).returncode == 0
    for file in list(cache.iterdir()):
        if file.is_file():
            file.unlink()
            os.mkfifo(file)
    for args in (["rule", "300.3"], ["search", "mana"], ["glossary", "initiative"]):
        result = judge(*args, env=env, timeout=300)
        assert result.returncode == 0 and b"Traceback" not in result.stderr, result.stderr.decode()


@pytest.mark.parametrize(("command", "cap", "suffix"), [
    (["parse"], MAX_RULE_TEXT_BYTES, ".txt"), (["check"], MAX_SITUATION_BYTES, ".toml"),
    (["--config"], MAX_CONFIG_BYTES, ".toml"),
])
def test_files_over_their_cap_are_refused_unread(tmp_path: Path, command: list[str], cap: int, suffix: str) -> None:
    big = tmp_path / f"gros{suffix}"
    with big.open("wb") as handle:
        handle.truncate(cap + 1)  # sparse: costs no disk
    args = [*command, str(big)] + (["rule", "300.3"] if command == ["--config"] else [])
    refused(judge(*args, timeout=120), "trop grand")


def test_a_long_dotted_key_in_a_config_is_refused_at_once(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(".".join(["a"] * 20_000) + " = 1\n")  # 40 KB: 15 s and 1.5 GB before
    refused(judge("--config", str(config), "rule", "300.3", timeout=60), "clé pointée")


def test_extra_steps_are_capped(tmp_path: Path) -> None:
    steps = [{"after": "upkeep", "step": "upkeep"}] * (MAX_EXTRA_STEPS + 1)
    situation = {"active": "A", "step": "upkeep", "extra_steps": steps,
                 "questions": [{"ask": "rest_of_turn"}] * 100}
    (tmp_path / "s.json").write_text(json.dumps(situation))
    refused(judge("check", str(tmp_path / "s.json"), timeout=60), "extra_steps")


# ---------------------------------------------------------------------- 6. no traceback
def _nested_json(depth: int) -> str:
    return '{"players": ["A", "B"], "x": ' + "[" * depth + "]" * depth + "}"


def _nested_toml(depth: int) -> str:
    return 'players = ["A", "B"]\nx = ' + "[" * depth + "]" * depth + "\n"


@pytest.mark.parametrize(("name", "content", "words"), [
    ("deep.json", _nested_json(100_000), ["imbrication"]),
    ("deep.toml", _nested_toml(100_000), ["imbrication"]),
    ("int.json", '{"players": ["A", "B"], "lands_played": ' + "9" * 5000 + "}", ["nombre trop long"]),
    ("int.toml", 'players = ["A", "B"]\nlands_played = ' + "9" * 5000 + "\n", ["nombre trop long"]),
    ("sur.json", '{"players": ["\\ud800", "B"], "step": "upkeep"}', ["\\ud800"]),
    ("bad.toml", 'players = ["A", "B"]\nstep = \n', ["bad.toml:2:8", "TOML"]),
    ("latin1.toml", None, ["UTF-8"]),
])
def test_hostile_situations_are_french_errors(tmp_path: Path, name: str, content: str | None,
                                              words: list[str]) -> None:
    path = tmp_path / name
    if content is None:
        path.write_bytes('players = ["Zoé", "B"]\n'.encode("latin-1"))
    else:
        path.write_text(content, encoding="utf-8")
    refused(judge("check", str(path), timeout=60), *words)
    refused(judge("check", "-", stdin=path.read_bytes(), timeout=60))


def test_a_deeply_nested_config_is_a_french_error(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    refused(judge("--config", str(config), "rule", "300.3", timeout=60), "imbrication", str(config))
    config.write_text('[[edition]]\nid = "x"\nlabel = \n')
    refused(judge("--config", str(config), "rule", "300.3", timeout=60), f"{config}:3:9", "TOML invalide")


def test_config_on_a_folder_says_so(tmp_path: Path) -> None:
    err = refused(judge("--config", str(tmp_path), "rule", "300.3"), "est un dossier")
    assert "introuvable" not in err


def test_full_disk_on_stdout_is_a_french_error() -> None:
    with open("/dev/full", "wb") as full:
        result = judge("rule", "300.3", stdout=full.fileno())
    refused(result, "plus de place sur le disque")


def test_non_utf8_argument_and_file_name(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/r\xe9gles.txt"
    with open(name, "wb") as handle:
        handle.write(b"300.1. Texte.\n")
    strict = {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "fr_FR.UTF-8"}
    for args in ([b"parse", name], [b"rule", b"30\xff"], [b"check", name], [b"search", b"\xff\xfe"],
                 [b"rule", b"300.3", b"--edition", b"\xe9"]):
        result = judge(*args, env=strict, timeout=120)
        err = result.stderr.decode("utf-8", "replace")
        assert result.returncode in (0, 1, 2) and "Traceback" not in err, err


def test_lint_of_an_unknown_edition_is_an_error() -> None:
    refused(judge("lint", "--edition", "nope"), "édition inconnue", "nope")


def test_an_unknown_edition_is_cut_in_the_message() -> None:
    err = refused(judge("rule", "300.3", "--edition", "x" * 131_000))
    assert len(err) < 400


@pytest.mark.parametrize(("args", "words"), [
    (["--port", "99999"], ["--port", "65535"]), (["--port", "0"], ["--port"]),
    (["--host", "hôte.invalide"], ["--host"]), (["--host", "256.1.1.1"], ["--host"]),
])
def test_serve_bad_port_or_host_is_exit_2(args: list[str], words: list[str]) -> None:
    refused(judge("serve", *args, timeout=60), *words)


def test_serve_on_a_port_in_use_is_exit_2() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        err = refused(judge("serve", "--host", "127.0.0.1", "--port", str(port), timeout=60), "adresse déjà utilisée")
    assert "uvicorn" not in err.lower() and "address already in use" not in err.lower()


# ---------------------------------------------------------------------- 9. generated cases
FILE_KINDS = st.sampled_from(["fifo", "folder", "devnull", "symlink-to-folder", "missing"])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=FILE_KINDS, command=st.sampled_from(["parse", "check", "--config"]))
def test_generated_file_types(tmp_path_factory: pytest.TempPathFactory, kind: str, command: str) -> None:
    folder = tmp_path_factory.mktemp("kind")
    path = folder / "entrée.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "devnull":
        path = Path("/dev/null")
    elif kind == "symlink-to-folder":
        path.symlink_to(folder)
    args = [command, str(path)] + (["rule", "300.3"] if command == "--config" else [])
    refused(judge(*args, timeout=60))


@settings(max_examples=8, deadline=None)
@given(depth=st.integers(MAX_NESTING + 2, 100_000), fmt=st.sampled_from(["json", "toml"]),  # under 1 MiB
       kind=st.sampled_from(["list", "table"]))
def test_generated_nesting(depth: int, fmt: str, kind: str) -> None:
    if kind == "list":
        value = "[" * depth + "1" + "]" * depth
    else:
        value = ('{"k": ' if fmt == "json" else "{k = ") * depth + "1" + "}" * depth
    text = ('{"players": ["A", "B"], "x": ' + value + "}" if fmt == "json"
            else 'players = ["A", "B"]\nx = ' + value + "\n")
    refused(judge("check", "-", stdin=text.encode(), timeout=60), "imbrication")


@settings(max_examples=6, deadline=None)
@given(parts=st.integers(MAX_KEY_DEPTH + 2, 30_000))
def test_generated_dotted_keys(parts: int) -> None:
    text = 'players = ["A", "B"]\n' + ".".join(["k"] * parts) + " = 1\n"
    refused(judge("check", "-", stdin=text.encode(), timeout=60), "clé pointée")


@settings(max_examples=10, deadline=None)
@given(data=st.binary(max_size=300) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
       encoding=st.sampled_from(["utf-8", "utf-16", "latin-1", "raw"]))
def test_generated_bytes_never_a_traceback(data: bytes, encoding: str) -> None:
    if encoding != "raw":
        data = data.decode("latin-1").encode(encoding, "replace")
    result = judge("check", "-", stdin=data, timeout=60)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode in (0, 1, 2) and "Traceback" not in err, err


def _terminal(name: str) -> re.Pattern[str]:
    from judge.corpus.parser import GRAMMAR_PATH

    (pattern,) = re.findall(rf"^{name}(?:\.\d+)?: /(.*)/$", GRAMMAR_PATH.read_text(encoding="utf-8"), re.M)
    return re.compile(pattern)


LINE_PIECES = st.sampled_from(["voir règle 305", "Voir la règle 306.2a", "see rules 500", "rule 12", "cf. 300",
                               "règles 302-303", "1234", "12", "9", "٣", "\x01", "\x0c", "\t", "ſee rule 300",
                               "vsrc", "VSCR", "é", "«", " ", ".", "rule", "voir"])


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(LINE_PIECES | st.text(max_size=5), max_size=12))
def test_plain_ends_where_a_citation_or_a_control_character_starts(pieces: list[str]) -> None:
    # The same text on every Python: what PLAIN takes, written as its definition (up to the
    # first CITE, control character or line end), with plain greedy regexes.
    line = "".join(pieces).replace("\n", " ")
    cite = _terminal("CITE")
    stops = [m.start() for m in (cite.search(line, i) for i in range(len(line) + 1)) if m]
    stops += [i for i, ch in enumerate(line) if ch in "\n\r\x0b" or (ord(ch) < 0x20 and ch not in "\t\x0c")
              or ch == "\x7f"]
    end = min([len(line), *stops])
    match = _terminal("PLAIN").match(line)
    assert (match.end() if match else 0) == end


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(LINE_PIECES | st.text(max_size=5), min_size=1, max_size=12))
def test_a_line_without_three_digits_is_one_text_token(pieces: list[str]) -> None:
    line = "".join(pieces).replace("\n", " ")
    text = _terminal("_REST")
    plain = (line != "" and not re.search(r"[0-9]{3}|[^\x00-\x7f](?<=\d)", line)
             and not re.search(r"[\x00-\x08\x0b\x0d-\x1f\x7f]", line))
    match = text.match(line + "\n")
    assert (match is not None and match.end() == len(line) + 1) == plain
