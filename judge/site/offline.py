"""The installable, offline book: its web app manifest, icons and service worker.

Owns `offline_files`: the files `judge build` adds so that the book installs on a phone and
works without network after one visit, on a slow link too. The service worker
(`templates/service-worker.js`, written as `sw.js` with this build's version) reads its file
lists from `offline-files.<digest>.js` (`importScripts`: `sw.js` stays small, since the browser
fetches it again at each visit to look for a new build). The lists come in three tiers:
`INSTALL`, stored before the worker activates (the shell: home, search page, the search
manifest, the offline page, the assets; a few hundred kB, activated within seconds); `READY`,
stored first once active (the pages in each edition's first language and every chunk of the
search: the book is then « prêt hors ligne »); `REST`, stored afterwards in small batches
(other languages, glossaries, changes). Each build has its own cache (its version is a digest
of every other file). Rule URLs (`2004/300.3.html`, one small redirect page each) are not
stored: the worker answers them offline by opening the rule's page. The manifest and the icons
are made here (the icons drawn from the favicon's shape), so that the book needs no binary
file in its sources.
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator

from judge.resources import templates_dir
from judge.site.templating import asset_name, compact_script

MANIFEST = "manifest.webmanifest"
WORKER = "sw.js"
OFFLINE_PAGE = "hors-ligne.html"
ORGANISERS_PAGE = "organisateurs.html"  # the command lines, kept off the reader's pages
# Tiers of the offline book (`offline_files`'s `tier`): stored at install, first once active, then.
INSTALL, READY, REST = 0, 1, 2
ICON_SIZES = (192, 512)
THEME = "#1a4f8b"
BACKGROUND = "#fdfdfb"
NAME = "Juge — Règles de Magic"
SHORT_NAME = "Règles Magic"


def static_only() -> tuple[str, ...]:
    """The files only the static book has (the served book is not an offline app)."""
    return (MANIFEST, WORKER, OFFLINE_PAGE, ORGANISERS_PAGE, *(icon_path(size) for size in ICON_SIZES))


def icon_path(size: int) -> str:
    return f"icon-{size}.png"


def manifest(version: str) -> str:
    """The web app manifest: its URLs are relative to its own (the site root)."""
    data = {
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": "Règles complètes de Magic: The Gathering en français, consultables hors ligne.",
        "lang": "fr",
        "dir": "ltr",
        "start_url": "index.html",
        "scope": "./",
        "id": "index.html",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [{"src": icon_path(size), "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
                  for size in ICON_SIZES] + [{"src": asset_name("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# The search's chunks (over a thousand small files) travel to the worker in bundles of about
# this many bytes (`offline/<digest>.json`): on a slow link each request costs a round trip.
BUNDLE_BYTES = 250_000


def bundles(contents: list[tuple[str, str]]) -> list[tuple[str, str, list[str]]]:
    """`contents` (path, text) in bundles: each its path, its JSON text ({path: text}) and paths."""
    out: list[tuple[str, str, list[str]]] = []
    group: dict[str, str] = {}
    size = 0

    def close() -> None:
        text = json.dumps(group, ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
        out.append((f"offline/{digest}.json", text, list(group)))

    for path, text in contents:
        group[path] = text
        size += len(text)
        if size >= BUNDLE_BYTES:
            close()
            group, size = {}, 0
    if group:
        close()
    return out


def file_lists(tiers: dict[int, list[str]], packed: dict[str, list[str]] | None = None) -> tuple[str, str]:
    """`offline-files.<digest>.js`, path and content: the worker's three lists of paths, and
    the bundles (`packed`: a bundle's path, in the lists, and the paths it holds)."""
    data = {"install": tiers[INSTALL], "ready": tiers[READY], "rest": tiers[REST], "bundles": packed or {}}
    content = "self.JUDGE_FILES=" + json.dumps(data, separators=(",", ":")) + ";\n"
    return f"offline-files.{hashlib.sha256(content.encode('utf-8')).hexdigest()[:10]}.js", content


def service_worker(lists: str, version: str) -> str:
    """`sw.js`: the worker's source with this build's version and the name of its file lists."""
    source = (templates_dir() / "service-worker.js").read_text(encoding="utf-8")
    filled = source.replace('"__VERSION__"', json.dumps(version)).replace('"__FILES__"', json.dumps(lists))
    if filled == source or "__FILES__" in filled:
        raise ValueError("service-worker.js: placeholders missing")
    return compact_script(filled)


# ---------------------------------------------------------------------- icons
def _spans(y: float, radius: float = 6.0) -> tuple[tuple[float, float] | None, list[tuple[float, float]]]:
    """Row `y` of the favicon (viewBox 0 0 32 32): the rounded blue square's span of x, and the
    spans of its white « J » (top bar, stem, the hook at the bottom)."""
    cy = min(max(y, radius), 32 - radius)
    dy2 = (y - cy) ** 2
    square = None if dy2 > radius * radius else (radius - math.sqrt(radius * radius - dy2),
                                                  32 - radius + math.sqrt(radius * radius - dy2))
    glyph = []
    if 7 <= y <= 10:
        glyph.append((9.0, 23.0))
    if 10 <= y <= 21:
        glyph.append((15.0, 18.0))
    if 20 <= y <= 21:
        glyph.append((8.0, 11.0))
    if y >= 21 and (y - 21) ** 2 <= 25:  # the hook: a ring of radii 2 and 5 around (13, 21)
        outer = math.sqrt(25 - (y - 21) ** 2)
        inner = math.sqrt(4 - (y - 21) ** 2) if (y - 21) ** 2 < 4 else 0.0
        glyph += [(13 - outer, 13 - inner), (13 + inner, 13 + outer)]
    return square, glyph


def icon_png(size: int) -> bytes:
    """The book's icon as an RGBA PNG of `size`×`size` pixels (pixel centres sampled, row by
    row: each row's spans of colour computed, then painted)."""
    blue = bytes((0x1A, 0x4F, 0x8B, 255))
    white = bytes((255, 255, 255, 255))
    scale = 32 / size

    def pixels(span: tuple[float, float]) -> range:  # the pixels whose centre lies in the span
        return range(max(0, math.ceil(span[0] / scale - 0.5)), min(size, math.floor(span[1] / scale - 0.5) + 1))

    rows = []
    for j in range(size):
        square, glyph = _spans((j + 0.5) * scale)
        row = bytearray(4 * size)  # transparent
        if square is not None:
            inside = pixels(square)
            row[4 * inside.start:4 * inside.stop] = blue * len(inside)
            for span in glyph:
                stroke = range(max(inside.start, pixels(span).start), min(inside.stop, pixels(span).stop))
                if stroke:
                    row[4 * stroke.start:4 * stroke.stop] = white * len(stroke)
        rows.append(b"\x00" + bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


# ---------------------------------------------------------------------- the build's offline files
class Digest:
    """The version of a build: a digest of every file's path and content, in order."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.paths: list[str] = []

    def add(self, path: str, content: str | bytes) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        self._hash.update(path.encode("utf-8") + b"\0" + data + b"\0")
        self.paths.append(path)

    @property
    def version(self) -> str:
        return self._hash.hexdigest()[:16]


def offline_files(pages: Iterable[tuple[str, str | bytes]], tier: Callable[[str], int | None]
                  ) -> Iterator[tuple[str, str | bytes]]:
    """Every page of `pages`, then the icons, the manifest, the worker's file lists and `sw.js`;
    `tier(path)`: when the worker stores a file (`INSTALL`, `READY`, `REST`), or None (never:
    a rule's redirect page). The icons and the manifest are stored at install."""
    digest = Digest()
    tiers: dict[int, list[str]] = {INSTALL: [], READY: [], REST: []}
    chunks: list[tuple[str, str]] = []  # the search's chunks stored once ready: sent in bundles
    for path, content in pages:
        digest.add(path, content)
        where = tier(path)
        if where == READY and path.startswith("search/") and isinstance(content, str):
            chunks.append((path, content))
        elif where is not None:
            tiers[where].append(path)
        yield path, content
    packed: dict[str, list[str]] = {}
    for path, text, held in bundles(chunks):
        yield path, text
        packed[path] = held
        tiers[READY].append(path)
    for size in ICON_SIZES:
        png = icon_png(size)
        digest.add(icon_path(size), png)
        tiers[INSTALL].append(icon_path(size))
        yield icon_path(size), png
    text = manifest(digest.version)
    digest.add(MANIFEST, text)
    tiers[INSTALL].append(MANIFEST)
    yield MANIFEST, text
    lists = file_lists(tiers, packed)
    yield lists
    yield WORKER, service_worker(lists[0], digest.version)
