"""What an HTML page would run inline and which addresses it loads, read from its markup.

Shared by the browser page's file checks (tests/browser/test_page_files.py)
and the API docs page's (tests/service/test_api_docs.py).
"""

from __future__ import annotations

from html.parser import HTMLParser


class Markup(HTMLParser):
    """Collects inline script (script bodies, on* attributes, javascript: URLs) and loaded URLs."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.urls: list[str] = []
        self.in_script = False
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on") or (value or "").strip().lower().startswith("javascript:"):
                self.inline.append(f"<{tag} {name}=...>")
            if name in ("src", "href") and value is not None:
                self.urls.append(value)
        self.in_script = tag == "script"
        if tag == "script" and not dict(attrs).get("src"):
            self.inline.append("<script> without src")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            self.inline.append(data)
