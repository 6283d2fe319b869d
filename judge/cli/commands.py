"""The commands of `judge`: each one's arguments (as data) and what runs it.

A command calls library functions and prints; nothing else. Its arguments are a table that
`judge.cli.argparser` gives argparse. Heavy modules are imported per command.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from judge.errors import JudgeError, NotFound, cut

if TYPE_CHECKING:
    from argparse import Namespace
    from collections.abc import Callable, Sequence
    from typing import Any

    # What a command is given: argparse's namespace.
    Arguments = Namespace
    # One argument: the names, then the options, that `ArgumentParser.add_argument` takes.
    Argument = tuple[tuple[str, ...], dict[str, Any]]


def _emit(data: Any) -> None:
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _show(args: Arguments, as_json: Callable[[], Any], as_text: Callable[[], str]) -> None:
    """Print the command's answer: its JSON with `--json`, else its French text."""
    if args.json:
        _emit(as_json())
    else:
        print(as_text())


def _graph(args: Arguments) -> Any:
    from judge.corpus.loader import load_graph

    return load_graph(args.config)


# ---------------------------------------------------------------------- commands
def cmd_rule(args: Arguments) -> int:
    # The rule store (built from the graph once per corpus) holds each rule as it is shown.
    from judge.checks.store import load_store
    from judge.corpus.selection import select

    store = load_store(args.config)
    selection = select(store.catalogue, args.number, args.edition, args.lang)
    both = args.lang is None  # French then English of the same release, unless one is asked for
    if args.json:
        _emit([store.json(key, with_translations=both) for key in selection.exact])
        return 0
    text = "\n\n".join(store.text(key, brief=key not in selection.exact, with_translations=both)
                       for key in selection.shown)
    if args.no_gloss:
        from judge.corpus.gloss import without_glosses

        text = without_glosses(text)
    print(text)
    return 0


def cmd_history(args: Arguments) -> int:
    from judge.corpus.history import histories, history_json, history_text
    from judge.corpus.numbers import read_rule_number

    number = read_rule_number(args.number)
    graph = _graph(args)
    found = histories(graph, number, args.edition)
    _show(args, lambda: [history_json(graph, h) for h in found],
          lambda: "\n\n".join(history_text(graph, h) for h in found))
    return 0


def cmd_diff(args: Arguments) -> int:
    from judge.corpus.history import changes, changes_json, changes_text
    from judge.corpus.numbers import read_rule_number

    section = None if args.section is None else read_rule_number(args.section, section=True)
    graph = _graph(args)
    result = changes(graph, args.source, args.target, section)
    _show(args, lambda: changes_json(result), lambda: changes_text(graph, result))
    return 0


def cmd_concordance(args: Arguments) -> int:
    from judge.corpus.concordance import generate, write_table

    path, text = generate(_graph(args), args.source, args.target)
    if not args.write:
        sys.stdout.write(text)
        return 0
    write_table(path, text)
    print(f"Table de concordance écrite : {path}")
    return 0


def cmd_export(args: Arguments) -> int:
    from judge.checks.store import load_store, read_store, store_path
    from judge.corpus.sqlite_export import export_sqlite

    def knowledge_base() -> str | None:  # the file copied, its tables fresh (None: not written)
        store, path = load_store(args.config), store_path(args.config)
        found = read_store(path)
        return path if found is not None and found.digest == store.digest else None

    counts = export_sqlite(args.sqlite, knowledge_base, lambda: _graph(args))
    rows = ", ".join(f"{name} {count}" for name, count in counts.items())
    print(f"Base SQLite écrite : {args.sqlite} ({rows})")
    return 0


def cmd_glossary(args: Arguments) -> int:
    from judge.corpus.glossary import find
    from judge.corpus.render import glossary_json, glossary_text

    graph = _graph(args)
    if args.edition:
        graph.edition(args.edition)
    term = args.term.strip()
    if not term:
        raise JudgeError("terme vide : indiquez un terme du glossaire (ex. « initiative », « first strike »)")
    matches = find(graph, term, args.edition)
    if not matches:
        where = f" de l'édition {args.edition}" if args.edition else ""
        raise NotFound(f"« {term[:60]} » absent du glossaire{where}")
    _show(args, lambda: glossary_json(graph, matches), lambda: glossary_text(graph, matches))
    return 0


def cmd_parse(args: Arguments) -> int:
    from judge.corpus.parser import parse_file
    from judge.corpus.render import parse_json, parse_text_report

    doc = parse_file(args.path, language=args.lang)
    _show(args, lambda: parse_json(doc), lambda: parse_text_report(doc))
    return 0


def cmd_lint(args: Arguments) -> int:
    from judge.corpus.lint import lint
    from judge.corpus.render import lint_json, lint_text

    graph = _graph(args)
    if args.edition:
        graph.edition(args.edition)  # an unknown edition is an error (exit 2), not "nothing found"
    findings = lint(graph)
    if args.edition:
        findings = tuple(f for f in findings if f.edition == args.edition)
    _show(args, lambda: lint_json(findings), lambda: lint_text(findings))
    return 1 if args.strict and any(f.severity != "info" for f in findings) else 0


def cmd_search(args: Arguments) -> int:
    from judge.search.engine import search
    from judge.search.output import result_json, result_text

    result = search(args.query, edition=args.edition, limit=args.limit, lang=args.lang, config=args.config)
    _show(args, lambda: result_json(result), lambda: result_text(result))
    return 0 if result.hits else 1


def cmd_check(args: Arguments) -> int:
    from judge.checks.report import check, report_json, report_text
    from judge.game.situation import load_situation_file

    situation = load_situation_file(args.file)  # `-`: standard input, bounded, in UTF-8
    from judge.checks.store import load_store

    report = check(load_store(args.config).catalogue, situation)
    _show(args, lambda: report_json(report), lambda: report_text(report))
    return 0


def cmd_ask(args: Arguments) -> int:
    from judge.ask.answer import ask

    result = ask(args.question, edition=args.edition, config=args.config)
    _show(args, result.json, result.text)
    return 0 if result.understood else 1


def cmd_checks(args: Arguments) -> int:
    from judge.checks.coverage import coverage, coverage_json, coverage_text

    cov = coverage(_graph(args))
    _show(args, lambda: coverage_json(cov), lambda: coverage_text(cov))
    return 0


def cmd_build(args: Arguments) -> int:
    from judge.site.build import app_url, base_url, build_site, build_target

    base = base_url(args.base_url) if args.base_url is not None else None
    app = app_url(args.app_url) if args.app_url is not None else None
    build_target(args.out)  # a refused folder is said at once, before the corpus is loaded
    index = build_site(_graph(args), args.out, base_url=base, app_url=app)
    pages = sum(1 for _ in index.parent.rglob("*.html"))
    print(f"Livre de règles écrit : {index} ({pages} pages)")
    print(f"Ensuite : ouvrir {index} dans un navigateur (il marche tel quel depuis le disque) ; "
          f"pour les téléphones, publier le dossier {index.parent} tel quel chez un hébergeur "
          "statique (le livre s'installe puis marche sans réseau), ou lancer `judge serve --host "
          "ADRESSE` sur le réseau local ; la marche à suivre : "
          f"{index.parent / 'organisateurs.html'}")
    return 0


def cmd_serve(args: Arguments) -> int:
    from judge.web.app import serve

    if args.processes is not None and not 1 <= args.processes <= 64:
        raise JudgeError(f"--processes : de 1 à 64 processus (reçu {args.processes})")
    _check_listen(args.host, args.port)
    serve(_graph(args), host=args.host, port=args.port, processes=args.processes,
          allow_hosts=args.allow_host or ())
    return 0


def _check_listen(host: str, port: int) -> None:
    """`--host` and `--port` checked before the server starts: a port out of range, a host
    that names no address of this machine or a port in use is a French error (exit 2)."""
    import socket

    from judge.errors import os_reason

    if not 1 <= port <= 65535:
        raise JudgeError(f"--port : de 1 à 65535 (reçu {cut(str(port), 20)})")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError):
        raise JudgeError(f"--host : adresse inconnue « {cut(host)} »") from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise JudgeError(f"impossible d'écouter sur {cut(host)}:{port} ({os_reason(exc)})") from None


# ---------------------------------------------------------------------- arguments
_JSON: Argument = (("--json",), {"action": "store_true", "help": "sortie JSON stable"})
_EDITION: Argument = (("--edition",), {"help": "édition (2004, 2010)"})

RULE_ARGUMENTS: tuple[Argument, ...] = (
    (("number",), {"metavar": "NUMERO", "help": "numéro tel qu'on le tape (300, 306.2a, R305.4, 303,1, § 308) ou intervalle (306-308, 308.2a-c)"}),
    _EDITION,
    (("--lang",), {"choices": ("fr", "en"),
                   "help": "une seule langue (par défaut : le français puis l'anglais de la même version)"}),
    (("--no-gloss",), {"action": "store_true",
                       "help": "sans la ligne « Termes en français » des règles en anglais seulement"}),
    _JSON,
)
HISTORY_ARGUMENTS: tuple[Argument, ...] = (
    (("number",), {"metavar": "NUMERO", "help": "numéro de règle (305.4, R305.4, 305,4)"}),
    (("--edition",), {"help": "l'édition du numéro (sinon chaque édition qui l'a)"}),
    _JSON,
)
DIFF_ARGUMENTS: tuple[Argument, ...] = (
    (("source",), {"metavar": "DE", "help": "édition de départ (2004)"}),
    (("target",), {"metavar": "VERS", "help": "édition d'arrivée (2010)"}),
    (("--section",), {"metavar": "N", "help": "une section de l'édition de départ (305)"}),
    _JSON,
)
CONCORDANCE_ARGUMENTS: tuple[Argument, ...] = (
    (("source",), {"metavar": "DE", "help": "édition la plus ancienne (2004)"}),
    (("target",), {"metavar": "VERS", "help": "édition la plus récente (2010)"}),
    (("--write",), {"action": "store_true",
                    "help": "écrire la table (rules/concordance/DE-VERS.toml) au lieu de l'afficher"}),
)
EXPORT_ARGUMENTS: tuple[Argument, ...] = (
    (("--sqlite",), {"metavar": "FICHIER", "required": True,
                     "help": "écrire la base de connaissances en SQLite (schéma : docs/sqlite.md)"}),
)
SEARCH_ARGUMENTS: tuple[Argument, ...] = (
    (("query",), {"metavar": "REQUETE", "help": "mots, expression ou numéro de règle"}),
    (("--edition",), {"help": "limiter à une édition (2004, 2010)"}),
    (("--limit",), {"type": int, "default": 10, "help": "nombre maximal de résultats (10)"}),
    (("--lang",), {"choices": ("fr", "en"),
                   "help": "une seule langue (par défaut : les deux, celle de la requête d'abord)"}),
    _JSON,
)
GLOSSARY_ARGUMENTS: tuple[Argument, ...] = (
    (("term",), {"metavar": "TERME", "help": "terme, en anglais ou en français (« initiative », « first strike »)"}),
    _EDITION,
    _JSON,
)
PARSE_ARGUMENTS: tuple[Argument, ...] = (
    (("path",), {"metavar": "FICHIER", "help": "texte de règles (UTF-8, UTF-16, cp1252)"}),
    (("--lang",), {"choices": ("fr", "en"), "default": "fr", "help": "langue du texte (fr)"}),
    _JSON,
)
LINT_ARGUMENTS: tuple[Argument, ...] = (
    (("--edition",), {"help": "limiter à une édition (2004, 2010)"}),
    (("--strict",), {"action": "store_true", "help": "code de sortie 1 s'il y a un avertissement"}),
    _JSON,
)
CHECK_ARGUMENTS: tuple[Argument, ...] = (
    (("file",), {"metavar": "FICHIER", "help": "situation TOML ou JSON, ou - pour l'entrée standard"}),
    _JSON,
)
CHECKS_ARGUMENTS: tuple[Argument, ...] = (_JSON,)
ASK_ARGUMENTS: tuple[Argument, ...] = (
    (("question",), {"metavar": "QUESTION", "help": "la question, en français (entre guillemets)"}),
    (("--edition",), {"help": "édition (sinon celle que la question nomme, sinon la plus récente)"}),
    _JSON,
)
BUILD_ARGUMENTS: tuple[Argument, ...] = (
    (("--out",), {"default": "site", "metavar": "DOSSIER", "help": "dossier de sortie (site)"}),
    (("--base-url",), {"metavar": "URL",
                       "help": "préfixe de tous les liens (/regles/ pour un sous-chemin) ; sans : liens relatifs"}),
    (("--app-url",), {"metavar": "URL",
                      "help": "adresse d'un judge serve (http://192.168.1.10:8000/) vers laquelle le livre "
                              "renvoie pour poser une question ou vérifier une situation"}),
)
SERVE_ARGUMENTS: tuple[Argument, ...] = (
    (("--host",), {"default": "127.0.0.1", "help": "adresse d'écoute (127.0.0.1)"}),
    (("--port",), {"type": int, "default": 8000, "help": "port (8000)"}),
    (("--processes",), {"type": int, "metavar": "N",
                        "help": "processus de calcul des situations et des recherches, de 1 à 64 "
                                "(par défaut : le nombre de cœurs, entre 2 et 8)"}),
    (("--allow-host",), {"action": "append", "metavar": "NOM",
                         "help": "nom d'hôte accepté en plus de localhost, 127.0.0.1, [::1] et --host "
                                 "(déploiement en réseau local ; répétable)"}),
)


# Each command: its name, its help line, its arguments, what runs it.
COMMANDS: tuple[tuple[str, str, tuple[Argument, ...], Callable[[Arguments], int]], ...] = (
    ("rule", "afficher une règle, ses sous-règles et ses renvois", RULE_ARGUMENTS, cmd_rule),
    ("history", "une règle dans chaque édition : contrepartie, changement, différences", HISTORY_ARGUMENTS, cmd_history),
    ("diff", "tous les changements entre deux éditions, par section", DIFF_ARGUMENTS, cmd_diff),
    ("concordance", "calculer la concordance de deux éditions (table de données, extra history)",
     CONCORDANCE_ARGUMENTS, cmd_concordance),
    ("export", "écrire la base de connaissances (règles, renvois, glossaire, historique) en SQLite",
     EXPORT_ARGUMENTS, cmd_export),
    ("search", "recherche plein texte (français et anglais)", SEARCH_ARGUMENTS, cmd_search),
    ("glossary", "chercher un terme du glossaire des règles complètes", GLOSSARY_ARGUMENTS, cmd_glossary),
    ("parse", "analyser un fichier de règles et dire ce qui a été trouvé", PARSE_ARGUMENTS, cmd_parse),
    ("lint", "incohérences du corpus (renvois, titres, numéros)", LINT_ARGUMENTS, cmd_lint),
    ("check", "répondre aux questions d'une situation de jeu", CHECK_ARGUMENTS, cmd_check),
    ("ask", "poser une question en français : ce que judge a compris, puis la réponse", ASK_ARGUMENTS, cmd_ask),
    ("checks", "couverture des règles par les vérifications", CHECKS_ARGUMENTS, cmd_checks),
    ("build", "écrire le livre de règles HTML", BUILD_ARGUMENTS, cmd_build),
    ("serve", "servir le livre, la recherche et les situations", SERVE_ARGUMENTS, cmd_serve),
)
# `--config`, accepted before and after the command.
CONFIG_HELP = "fichier de configuration (textes, éditions supplémentaires), voir README"


def command_of(argv: Sequence[str]) -> str | None:
    """The command `argv` names (its first word, `--config FILE` aside), or None: then the
    whole parser is built (help, version, a mistyped command)."""
    words = iter(argv)
    for word in words:
        if word == "--config":
            next(words, None)
        elif not word.startswith("--config="):
            return word if any(word == name for name, *_ in COMMANDS) else None
    return None
