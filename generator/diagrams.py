"""Mermaid diagrams: a ```` ```mermaid ```` fence kept as its text, for the browser to draw.

The fence becomes ``<pre class="mermaid">`` holding the diagram's source, escaped: readable
as text where no script runs, and what Mermaid reads (it decodes the entities) where one
does. The theme loads its vendored Mermaid only on pages holding such a block
(``templates/base.html``, ``assets/js/mermaid.js``).
"""

from __future__ import annotations

from html import escape
from typing import Any

MERMAID_CLASS = "mermaid"


def mermaid_block(source: str, language: str, class_name: str, options: dict, md: Any, **kwargs: Any) -> str:
    """superfences' formatter for a mermaid fence: its source, escaped, in ``<pre class="mermaid">``."""
    return f'<pre class="{MERMAID_CLASS}">{escape(source, quote=False)}</pre>'


MERMAID_FENCE = {"name": "mermaid", "class": MERMAID_CLASS, "format": mermaid_block}
