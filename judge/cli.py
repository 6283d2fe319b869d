"""The `judge` command: parses arguments, calls library functions, prints. Nothing else.

Every `JudgeError` becomes one French message on stderr and its exit code (2 bad input,
1 not found); no traceback for a user mistake. Heavy modules are imported per command.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from judge import __version__
from judge.errors import JudgeError, NotFound

TYPE_CHECKING = False  # `typing` costs a cold start 3 ms; mypy reads this block as true
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout at the terminal's width, found as `shutil.get_terminal_size`
    does ($COLUMNS, else the terminal, else 80) without importing `shutil`: argparse makes a
    formatter for every argument it is given, and `shutil` costs a cold start 2 ms."""

    def __init__(self, prog: str) -> None:
        try:
            columns = int(os.environ.get("COLUMNS", "0"))
        except ValueError:
            columns = 0
        if columns <= 0:
            try:
                columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
            except (AttributeError, ValueError, OSError):
                columns = 0
        super().__init__(prog, width=(columns or 80) - 2)


class _Parser(argparse.ArgumentParser):
    """argparse with French help and usage errors (exit 2, no traceback)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        add_help = kwargs.pop("add_help", True)
        kwargs["add_help"] = False  # our own -h, with a French help text
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = "arguments"
        self._optionals.title = "options"
        if add_help:
            self.add_argument("-h", "--help", action="help", help="afficher cette aide et quitter")

    def format_usage(self) -> str:
        return super().format_usage().replace("usage:", "utilisation :", 1)

    def format_help(self) -> str:
        return super().format_help().replace("usage:", "utilisation :", 1)

    def error(self, message: str) -> Any:
        message = (
            message.replace("the following arguments are required", "arguments obligatoires manquants")
            .replace("unrecognized arguments", "arguments inconnus")
            .replace("invalid choice", "choix invalide")
            .replace("expected one argument", "une valeur est attendue")
            .replace("invalid int value", "entier invalide")
        )
        self.print_usage(sys.stderr)
        sys.stderr.write(f"judge : erreur : {message}\n")
        raise SystemExit(2)


def _emit(data: Any) -> None:
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _graph(args: argparse.Namespace) -> Any:
    from judge.corpus.loader import load_graph

    return load_graph(args.config)


# ---------------------------------------------------------------------- commands
def cmd_rule(args: argparse.Namespace) -> int:
    # The rule store (built from the graph once per corpus) holds each rule as it is shown.
    from judge.checks.store import load_store
    from judge.corpus.selection import select

    store = load_store(args.config)
    selection = select(store.catalogue, args.number, args.edition, args.lang)
    both = args.lang is None  # French then English of the same release, unless one is asked for
    if args.json:
        _emit([store.json(key, with_translations=both) for key in selection.exact])
        return 0
    print("\n\n".join(store.text(key, brief=key not in selection.exact, with_translations=both)
                       for key in selection.shown))
    return 0


def _one_line(text: str) -> str:
    """A message on one line: control and line-break characters (quoted from the user's
    input, e.g. a player named "0\\r0") written as escapes."""
    import unicodedata

    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
    )


def _rule_number(text: str) -> str:
    from judge.corpus.numbers import RULE_NUMBER

    number = text.strip().removeprefix("règle").removeprefix("rule").strip().rstrip(".")
    if not re.fullmatch(RULE_NUMBER, number):
        raise JudgeError(f"numéro de règle invalide : « {text} » (attendu par exemple 300, 300.3 ou 306.2a)")
    return number


def cmd_history(args: argparse.Namespace) -> int:
    from judge.corpus.history import histories, history_json, history_text

    number = _rule_number(args.number)
    graph = _graph(args)
    found = histories(graph, number, args.edition)
    if args.json:
        _emit([history_json(graph, h) for h in found])
    else:
        print("\n\n".join(history_text(graph, h) for h in found))
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from judge.corpus.history import changes, changes_json, changes_text

    if args.section is not None and not re.fullmatch(r"\d{3}", args.section.strip()):
        raise JudgeError(f"numéro de section invalide : « {args.section} » (attendu par exemple 305)")
    graph = _graph(args)
    result = changes(graph, args.source, args.target, args.section and args.section.strip())
    if args.json:
        _emit(changes_json(result))
    else:
        print(changes_text(graph, result))
    return 0


def cmd_glossary(args: argparse.Namespace) -> int:
    from judge.corpus.export import glossary_json, glossary_text
    from judge.corpus.glossary import find

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
    if args.json:
        _emit(glossary_json(graph, matches))
    else:
        print(glossary_text(graph, matches))
    return 0


def cmd_parse(args: argparse.Namespace) -> int:
    from judge.corpus.export import parse_json, parse_text_report
    from judge.corpus.parser import parse_file

    doc = parse_file(args.path, language=args.lang)
    if args.json:
        _emit(parse_json(doc))
    else:
        print(parse_text_report(doc))
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    from judge.corpus.export import lint_json, lint_text
    from judge.corpus.lint import lint

    findings = lint(_graph(args))
    if args.edition:
        findings = tuple(f for f in findings if f.edition == args.edition)
    if args.json:
        _emit(lint_json(findings))
    else:
        print(lint_text(findings))
    return 1 if args.strict and any(f.severity != "info" for f in findings) else 0


def cmd_search(args: argparse.Namespace) -> int:
    from judge.search.light import search
    from judge.search.output import result_json, result_text

    result = search(args.query, edition=args.edition, limit=args.limit, lang=args.lang, config=args.config)
    if args.json:
        _emit(result_json(result))
    else:
        print(result_text(result))
    return 0 if result.hits else 1


def cmd_check(args: argparse.Namespace) -> int:
    from judge.checks.report import check, report_json, report_text
    from judge.game.situation import load_situation_file

    stdin_text = sys.stdin.read() if args.file == "-" else None
    situation = load_situation_file(args.file, stdin_text)
    from judge.checks.store import load_store

    report = check(load_store(args.config).catalogue, situation)
    if args.json:
        _emit(report_json(report))
    else:
        print(report_text(report))
    return 0


def cmd_checks(args: argparse.Namespace) -> int:
    from judge.checks.coverage import coverage, coverage_json, coverage_text

    cov = coverage(_graph(args))
    if args.json:
        _emit(coverage_json(cov))
    else:
        print(coverage_text(cov))
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from judge.site.build import base_url, build_site

    base = base_url(args.base_url) if args.base_url is not None else None
    index = build_site(_graph(args), args.out, base_url=base)
    print(f"Livre de règles écrit : {index}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from judge.web.app import serve

    if args.processes is not None and not 1 <= args.processes <= 64:
        raise JudgeError(f"--processes : de 1 à 64 processus (reçu {args.processes})")
    serve(_graph(args), host=args.host, port=args.port, processes=args.processes)
    return 0


# ---------------------------------------------------------------------- parser
def _rule_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("number", metavar="NUMERO", help="numéro (300, 300.3, 306.2a) ou intervalle (306-308)")
    p.add_argument("--edition", help="édition (2004, 2010)")
    p.add_argument("--lang", choices=("fr", "en"),
                   help="une seule langue (par défaut : le français puis l'anglais de la même version)")
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _history_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("number", metavar="NUMERO", help="numéro de règle (305.4)")
    p.add_argument("--edition", help="l'édition du numéro (sinon chaque édition qui l'a)")
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _diff_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", metavar="DE", help="édition de départ (2004)")
    p.add_argument("target", metavar="VERS", help="édition d'arrivée (2010)")
    p.add_argument("--section", metavar="N", help="une section de l'édition de départ (305)")
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", metavar="REQUETE", help="mots, expression ou numéro de règle")
    p.add_argument("--edition", help="limiter à une édition (2004, 2010)")
    p.add_argument("--limit", type=int, default=10, help="nombre maximal de résultats (10)")
    p.add_argument("--lang", choices=("fr", "en"),
                   help="une seule langue (par défaut : les deux, celle de la requête d'abord)")
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _glossary_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("term", metavar="TERME", help="terme, en anglais ou en français (« initiative », « first strike »)")
    p.add_argument("--edition", help="édition (2004, 2010)")
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _parse_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="FICHIER", help="texte de règles (UTF-8, UTF-16, cp1252)")
    p.add_argument("--lang", choices=("fr", "en"), default="fr", help="langue du texte (fr)")
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _lint_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--edition", help="limiter à une édition (2004, 2010)")
    p.add_argument("--strict", action="store_true", help="code de sortie 1 s'il y a un avertissement")
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FICHIER", help="situation TOML ou JSON, ou - pour l'entrée standard")
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _checks_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="sortie JSON stable")


def _build_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default="site", metavar="DOSSIER", help="dossier de sortie (site)")
    p.add_argument("--base-url", metavar="URL",
                   help="préfixe de tous les liens (/regles/ pour un sous-chemin) ; sans : liens relatifs")


def _serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="adresse d'écoute (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (8000)")
    p.add_argument("--processes", type=int, metavar="N",
                   help="processus de calcul des situations et des recherches, de 1 à 64 "
                        "(par défaut : le nombre de cœurs, entre 2 et 8)")


# Each command: its name, its help line, its arguments, what runs it.
COMMANDS: tuple[tuple[str, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]], ...] = (
    ("rule", "afficher une règle, ses sous-règles et ses renvois", _rule_arguments, cmd_rule),
    ("history", "une règle dans chaque édition : contrepartie, changement, différences", _history_arguments, cmd_history),
    ("diff", "tous les changements entre deux éditions, par section", _diff_arguments, cmd_diff),
    ("search", "recherche plein texte (français et anglais)", _search_arguments, cmd_search),
    ("glossary", "chercher un terme du glossaire des règles complètes", _glossary_arguments, cmd_glossary),
    ("parse", "analyser un fichier de règles et dire ce qui a été trouvé", _parse_arguments, cmd_parse),
    ("lint", "incohérences du corpus (renvois, titres, numéros)", _lint_arguments, cmd_lint),
    ("check", "répondre aux questions d'une situation de jeu", _check_arguments, cmd_check),
    ("checks", "couverture des règles par les vérifications", _checks_arguments, cmd_checks),
    ("build", "écrire le livre de règles HTML", _build_arguments, cmd_build),
    ("serve", "servir le livre, la recherche et les situations", _serve_arguments, cmd_serve),
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `command`, only that command's arguments (a start-up
    builds what it parses: each argument costs argparse a help formatter)."""
    # `--config` is accepted before and after the command. The subcommands' copy is SUPPRESSed
    # so that, when absent after the command, it does not overwrite a value given before it.
    common = _Parser(add_help=False)
    common.add_argument("--config", default=argparse.SUPPRESS, metavar="FICHIER",
                        help="fichier de configuration (textes, éditions supplémentaires), voir README")
    parser = _Parser(
        prog="judge",
        description="Règles de Magic: The Gathering pour arbitres : consulter, chercher, vérifier.",
    )
    parser.add_argument("--config", default=None, metavar="FICHIER",
                        help="fichier de configuration (textes, éditions supplémentaires), voir README")
    parser.add_argument("--version", action="version", version=f"judge {__version__}",
                        help="afficher la version et quitter")
    sub = parser.add_subparsers(dest="command", metavar="COMMANDE", parser_class=_Parser)
    for name, help_text, add_arguments, run in COMMANDS:
        if command is None or name == command:
            p = sub.add_parser(name, parents=[common], help=help_text)
            add_arguments(p)
            p.set_defaults(func=run)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The command `argv` names (its first word, `--config FILE` aside), or None: then the
    whole parser is built (help, version, a mistyped command)."""
    words = iter(argv)
    for word in words:
        if word == "--config":
            next(words, None)
        elif not word.startswith("--config="):
            return word if any(word == name for name, *_ in COMMANDS) else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(_command_of(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except JudgeError as exc:
        sys.stderr.write(f"judge : {_one_line(str(exc))}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("judge : interrompu\n")
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    raise SystemExit(main())
