"""Markdown to safe HTML for case texts.

Case packages are authored by admins but still treated as untrusted: the HTML is sanitised with
nh3 (an allow-list of tags), so a package cannot inject script into a player's page.
"""

from __future__ import annotations

import markdown as md
import nh3

_TAGS = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "strong", "em", "code", "pre",
    "blockquote", "a", "table", "thead", "tbody", "tr", "th", "td", "hr", "br",
}  # fmt: skip


def render_markdown(text: str) -> str:
    html = md.markdown(text, extensions=["tables", "fenced_code", "sane_lists"])
    return nh3.clean(html, tags=_TAGS, attributes={"a": {"href", "title"}}, link_rel="noopener")
