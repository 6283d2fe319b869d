"""Link crawling shared by the static-site and web-app tests: every href/src of a page, its ids."""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser


@dataclass(frozen=True, slots=True, kw_only=True)
class PageLinks:
    """The links (href/src, in document order) and element ids of one HTML page."""

    links: tuple[str, ...]
    ids: frozenset[str]


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "refresh":
            content = values.get("content") or ""
            if "url=" in content:
                self.links.append(content.split("url=", 1)[1].strip())
        for name in ("href", "src", "action"):
            value = values.get(name)
            if value is not None and not (tag == "form" and name == "action" and value == ""):
                self.links.append(value)


def page_links(html: str) -> PageLinks:
    collector = _Collector()
    collector.feed(html)
    return PageLinks(links=tuple(collector.links), ids=frozenset(collector.ids))
