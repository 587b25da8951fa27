"""sitegen's own Pygments styles: readable code in light and in dark pages.

Most of Pygments' styles have a token colour below WCAG's 4.5:1 contrast
against their background, or against the background of highlighted lines
(``hl_lines``): ``friendly``'s comments, ``github-dark``'s text on its grey
``hll``. These two keep the look of Pygments' ``default`` and ``github-dark``,
with each colour that fell short made darker (lighter) until every token
reaches 4.7:1 on both backgrounds. ``highlight.style_named`` finds them by
name beside Pygments' own, so site.yaml can name them like any style.
"""

from __future__ import annotations

from pygments.style import Style
from pygments.styles.default import DefaultStyle
from pygments.styles.gh_dark import GhDarkStyle
from pygments.token import Comment, Error, Generic, Keyword, Name, Operator, String, Text


class SitegenLight(Style):
    """Pygments' ``default``, on a lighter grey, with seven colours darkened."""

    name = "sitegen-light"
    background_color = "#f6f8fa"
    highlight_color = "#fff5b1"
    line_number_color = "#57606a"
    line_number_background_color = "transparent"
    line_number_special_color = "#1f2328"
    line_number_special_background_color = "#fff5b1"
    styles = {
        **DefaultStyle.styles,
        Comment: "italic #3a7474",
        Comment.Preproc: "noitalic #925e00",
        Keyword: "bold #007b00",
        Operator.Word: "bold #a008ff",
        Name.Builtin: "#007b00",
        Name.Exception: "bold #c53a34",
        Name.Label: "#6c6c00",
        Name.Entity: "bold #6c6c6c",
        Name.Attribute: "#617020",
        Name.Tag: "bold #007b00",
        Name.Decorator: "#a008ff",
        String.Interpol: "bold #9d5672",
        String.Escape: "bold #a1581d",
        String.Regex: "#9d5672",
        String.Other: "#007b00",
        Generic.Inserted: "#007a00",
        Generic.Error: "#da0000",
        Generic.Output: "#6c6c6c",
    }


class SitegenDark(Style):
    """Pygments' ``github-dark``, with a dark highlighted-line colour and lighter greys."""

    name = "sitegen-dark"
    background_color = "#0d1117"
    highlight_color = "#2d3139"
    line_number_color = "#9198a1"
    line_number_background_color = "transparent"
    line_number_special_color = "#e6edf3"
    line_number_special_background_color = "#2d3139"
    styles = {
        **GhDarkStyle.styles,
        Error: "#f9726b",
        Comment: "italic #969ea7",
        Comment.Preproc: "bold #969ea7",
        Comment.Special: "bold italic #969ea7",
        Generic.Output: "#969ea7",
        Generic.Prompt: "#969ea7",
        Text.Whitespace: "#6e7681",
    }


STYLES = {style.name: style for style in (SitegenLight, SitegenDark)}


def style_named(name: str) -> type[Style]:
    """The style called ``name``: one of these, or one of Pygments' (``ClassNotFound`` if neither)."""
    from pygments.styles import get_style_by_name

    return STYLES.get(name) or get_style_by_name(name)


def style_names() -> list[str]:
    from pygments.styles import get_all_styles

    return sorted({*STYLES, *get_all_styles()})
