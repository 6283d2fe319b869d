"""Typed readers for the fields of parsed TOML/JSON data, each failing with a `SituationError`.

Owns the generic checks (table, known keys, string, bool, int, list, slug, player) and the
field-path spelling (`creatures[1].tapped`); what each situation key means is `judge.game.situation`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.errors import SituationError
from judge.game.aliases import fold_name

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Set
    from typing import TypeVar

    T = TypeVar("T")


def join_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def read_table(value: object, path: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise SituationError(path, "une table est attendue")
    return value


def check_keys(table: Mapping[str, object], path: str, allowed: tuple[str, ...],
               known: Set[str] = frozenset()) -> None:
    """Every key of `table` is one of `allowed`, listed in their order when one is not.
    `known`: some of `allowed` as a set, so that a table of them only is checked at once."""
    if table.keys() <= known:
        return
    for key in table:
        if key not in allowed:
            raise SituationError(
                join_path(path, key), f"clé inconnue (clés possibles : {', '.join(allowed)})"
            )


def read_string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise SituationError(path, "une chaîne est attendue")
    text = value.strip()
    if not text:
        raise SituationError(path, "une chaîne non vide est attendue")
    return text


def read_bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise SituationError(path, "un booléen est attendu")
    return value


def read_int(value: object, path: str, *, minimum: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SituationError(path, "un entier est attendu")
    if minimum is not None and value < minimum:
        raise SituationError(path, f"un entier supérieur ou égal à {minimum} est attendu")
    return value


def read_list(value: object, path: str) -> list[object]:
    if not isinstance(value, list):
        raise SituationError(path, "une liste est attendue")
    return value


def read_items(value: object, path: str, read: Callable[[object, str], T]) -> tuple[T, ...]:
    items = read_list(value, path)
    return tuple([read(item, f"{path}[{i}]") for i, item in enumerate(items)]) if items else ()


def read_slug(value: object, path: str, aliases: Mapping[str, str], what: str) -> str:
    text = read_string(value, path)
    slug = aliases.get(fold_name(text))
    if slug is None:
        known = ", ".join(sorted(set(aliases.values())))
        raise SituationError(path, f"{what} inconnu(e) « {text} » (valeurs possibles : {known})")
    return slug


def read_player(value: object, path: str, players: tuple[str, ...]) -> str:
    name = read_string(value, path)
    if name not in players:
        raise SituationError(path, f"joueur inconnu « {name} » (joueurs : {', '.join(players)})")
    return name


def read_optional(value: object, path: str, read: Callable[[object, str], T]) -> T | None:
    return None if value is None else read(value, path)


def english_name(key: str, aliases: Mapping[str, str]) -> str:
    """The English name of a key (`aliases`, compared folded); any other key as it is."""
    return aliases.get(fold_name(key), key)


def english_names(keys: Iterable[str], aliases: Mapping[str, str]) -> frozenset[str]:
    """Those of `keys` that `aliases` leaves as they are (`english_keys`'s `unchanged`)."""
    return frozenset(key for key in keys if english_name(key, aliases) == key)


def english_keys(table: dict[str, object], path: str, aliases: Mapping[str, str],
                 unchanged: Set[str] = frozenset()) -> dict[str, object]:
    """The table with French key names (`aliases`, compared folded) replaced by the English ones.
    `unchanged`: keys known to be left as they are (`english_names`), so that a table of them
    only is returned without folding each key."""
    if table.keys() <= unchanged or all(english_name(key, aliases) == key for key in table):
        return table  # the English names
    out: dict[str, object] = {}
    for key, value in table.items():
        name = english_name(key, aliases)
        if name in out:
            raise SituationError(join_path(path, key), f"clé « {name} » donnée deux fois")
        out[name] = value
    return out
