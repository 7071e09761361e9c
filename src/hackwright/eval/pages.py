"""Evaluation pages, as Markdown and as self-contained HTML, from titled sections.

A section is ``(heading, parts)``; a part is a :class:`~hackwright.eval.tables.Table`, a
paragraph (str), ``("heading", text)`` (a sub-heading), ``("plot", name)``, ``("list", [lines])`` or
``("sources", [(n, text, url)])``.
"""

from __future__ import annotations

import base64
import html
from typing import Any, Mapping, Optional, Sequence

from hackwright.eval.tables import Table

Section = tuple[str, list[Any]]


def markdown_page(title: str, lede: str, sections: Sequence[Section], makers: Optional[Mapping] = None) -> str:
    """The page as Markdown; ``makers`` maps each plot name to its (caption, maker)."""
    out = [f"# {title}", "", lede, ""]
    for heading, parts in sections:
        out += [f"## {heading}", ""]
        for p in parts:
            if isinstance(p, Table):
                out += [p.markdown(), ""]
            elif isinstance(p, str):
                out += [p, ""]
            elif p[0] == "heading":
                out += [f"### {p[1]}", ""]
            elif p[0] == "plot":
                caption = (makers or {})[p[1]][0]
                out += [f"### {caption}", "", f"![{caption}](plots/{p[1]}.png)", ""]
            elif p[0] == "list":
                out += [f"- {x}" for x in p[1]] + [""]
            elif p[0] == "sources":
                out += [f"{k}. {text}" + (f" <{url}>" if url else "") for k, text, url in p[1]] + [""]
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1200px;
       padding: 0 1rem; color: #1b1b1b; line-height: 1.4; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
.lede { color: #555; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.88rem; margin: 0.6rem 0; }
th, td { border: 1px solid #d0d0d0; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
tr.published td { background: #fbf7e9; font-style: italic; }
tr.measured td:first-child { font-weight: 600; }
figure { margin: 1rem 0; } figcaption { font-weight: 600; margin-bottom: 0.3rem; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
"""


def html_page(title: str, lede: str, sections: Sequence[Section], makers: Optional[Mapping] = None,
              images: Optional[Mapping[str, bytes]] = None) -> str:
    """The page as self-contained HTML; plots are embedded from ``images`` (PNG bytes by name)."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{html.escape(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{html.escape(title)}</h1>", f'<p class="lede">{html.escape(lede)}</p>']
    for heading, parts in sections:
        out.append(f"<h2>{html.escape(heading)}</h2>")
        for p in parts:
            if isinstance(p, Table):
                out.append(f'<div class="scroll">{p.html()}</div>')
            elif isinstance(p, str):
                out.append(f"<p>{html.escape(p)}</p>")
            elif p[0] == "heading":
                out.append(f"<h3>{html.escape(p[1])}</h3>")
            elif p[0] == "plot":
                caption = (makers or {})[p[1]][0]
                data = base64.b64encode((images or {})[p[1]]).decode("ascii")
                out.append(f'<figure id="{p[1]}"><figcaption>{html.escape(caption)}</figcaption>'
                           f'<img alt="{html.escape(caption)}" src="data:image/png;base64,{data}"></figure>')
            elif p[0] == "list":
                out.append("<ul>" + "".join(f"<li>{html.escape(x)}</li>" for x in p[1]) + "</ul>")
            elif p[0] == "sources":
                items = []
                for k, text, url in p[1]:
                    link = f' <a href="{html.escape(url)}">{html.escape(url)}</a>' if url else ""
                    items.append(f'<li value="{k}">{html.escape(text)}{link}</li>')
                out.append("<ol>" + "".join(items) + "</ol>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
