"""The settings of ``site.yaml``, typed and validated: sitegen's own keys, and the loader of any section.

The schema is the dataclasses below: each field's type annotation says what
the key must hold and its default says whether it may be left out. One generic
loader checks any section against its dataclass, so an unknown key, a wrong
type or a missing value is reported the same way everywhere: the file, the
key's dotted path, and what was expected. What a value must mean beyond its
type (a positive count, names that are unique) is checked by the section's
``validate(path, prefix)``, beside its fields, when the file is loaded:
a mistake stops the build before any work, whatever feature would use it.
The keys of an output (feeds, search, archives, the docs wing's versions and
tutorials) are its planner's section (``Planner.section``), declared with the planner,
its types in :mod:`generator.schema` where the site's model reads them too;
:func:`generator.configure.load_config`, above the planners, gathers them into the
:class:`Config` that every stage reads (``config.feeds``).
"""

from __future__ import annotations

import dataclasses
import re
import string
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote, urlsplit

from generator.cache import digest
from generator.errors import SiteError
from generator.layout import ASSETS, STATE_DIR


@dataclass(frozen=True)
class NavItem:
    title: str
    url: str

    def validate(self, path: Path, prefix: str) -> None:
        check_link(self.url, f"{prefix}url", path)


LINK_SCHEMES = ("", "http", "https", "mailto")     # what a link of site.yaml or authors.yml may open


def check_link(url: str, key: str, path: Path) -> None:
    """Refuse a URL that settings make into a link but that runs or smuggles content when
    clicked (``javascript:``, ``data:``, ``vbscript:``): a typo is not how it gets there."""
    scheme = urlsplit(url).scheme       # lowercased, with the spaces and tabs browsers skip removed
    if scheme not in LINK_SCHEMES:
        raise SiteError(f"key '{key}': a link may be a path of the site, http(s):// or mailto:, "
                        f"not {scheme}: ({url!r})", path)


@dataclass(frozen=True)
class SassSettings:
    """How the ``.scss`` and ``.sass`` files of the static folders are compiled (generator/sass.py),
    as Jekyll's ``sass:`` settings say: where ``@import`` looks, and the CSS's style."""

    load_paths: list[str] = field(default_factory=list)    # folders of the site: Jekyll's sass_dir
    style: Literal["expanded", "nested", "compact", "compressed"] = "expanded"

    def validate(self, path: Path, prefix: str) -> None:
        for i, name in enumerate(self.load_paths):
            if name.startswith("/") or any(part in ("", ".", "..") for part in name.strip("/").split("/")):
                raise SiteError(f"key '{prefix}load_paths[{i}]': expected a folder inside the site, got {name!r}",
                                path)


@dataclass(frozen=True)
class Publish:
    branch: str = "asf-site"
    remote: str = "origin"
    keep: list[str] = field(default_factory=lambda: [".asf.yaml", "docs"])
    asf_yaml: bool = True

    def validate(self, path: Path, prefix: str) -> None:
        for i, entry in enumerate(self.keep):
            kept = entry.strip("/")
            if not kept or any(part in ("", ".", "..") for part in kept.split("/")):
                raise SiteError(f"key '{prefix}keep[{i}]': {entry!r} is not a path inside the branch", path)


@dataclass(frozen=True)
class Check:
    allow_hosts: list[str] = field(default_factory=list)   # hosts pages may fetch resources from
    html: bool = False                                      # validate with the Nu Html Checker (needs Java)
    # path glob -> Nu checker messages (substrings) reported as warnings there, not errors:
    # legacy markup a migrated site carries and browsers accept (``width="512px"``, ``<center>``)
    allow_html: dict[str, list[str]] = field(default_factory=dict)


ANALYTICS_HOSTS = {"plausible": "plausible.io", "google": "www.googletagmanager.com"}   # matomo: its own
ANALYTICS_IDS = {"plausible": (r"[\w.-]+\.[a-z]{2,}", "the site's domain, as example.org"),
                 "matomo": (r"\d{1,9}", "the site's number in Matomo, as 1"),
                 "google": (r"G-[A-Z0-9]{4,20}", "a measurement ID, as G-ABC123XYZ")}
HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d{1,5})?")


@dataclass(frozen=True)
class Colors:
    """The theme's colours: ``primary`` of links, ``accent`` of the header bar (see generator/branding.py)."""

    primary: str = ""
    accent: str = ""

    def validate(self, path: Path, prefix: str) -> None:
        from generator.branding import problem

        for name in ("primary", "accent"):
            why = getattr(self, name) and problem(name, getattr(self, name))
            if why:
                raise SiteError(f"key '{prefix}{name}': {why}", path)

    @property
    def css(self) -> str:
        """The colour variables, light and dark, that a page's head sets over the theme's stylesheet."""
        from generator.branding import stylesheet

        return stylesheet(self.primary, self.accent)


@dataclass(frozen=True)
class Announcement:
    """A banner above every page's header; a closed one stays closed until its ``id`` changes."""

    text: str                   # Markdown, one paragraph
    id: str = ""                # default: one made from the text, so a new text shows again
    dismissible: bool = True    # a close button, remembered in the reader's browser

    def validate(self, path: Path, prefix: str) -> None:
        if not self.text.strip() or "\n\n" in self.text.strip():
            raise SiteError(f"key '{prefix}text': expected one paragraph of Markdown, got {self.text!r}", path)
        if self.id and not re.fullmatch(r"[\w-]{1,64}", self.id, re.ASCII):
            raise SiteError(f"key '{prefix}id': expected letters, digits, '-' or '_', got {self.id!r}", path)

    @property
    def key(self) -> str:
        return self.id or "a" + digest(self.text)[:12]


@dataclass(frozen=True)
class Analytics:
    """A visitor counter's script on every page; without this setting, pages load none."""

    provider: Literal["plausible", "matomo", "google"]
    id: str
    host: str = ""      # the server the script comes from: Matomo's (required), a self-hosted Plausible

    def validate(self, path: Path, prefix: str) -> None:
        pattern, what = ANALYTICS_IDS[self.provider]
        if not re.fullmatch(pattern, self.id):
            raise SiteError(f"key '{prefix}id': expected {what} for {self.provider}, got {self.id!r}", path)
        if self.host and (self.provider == "google" or not HOST.fullmatch(self.host)):
            raise SiteError(f"key '{prefix}host': expected a host name such as stats.example.org"
                            + (" (not for google)" if self.provider == "google" else "") + f", got {self.host!r}",
                            path)
        if self.provider == "matomo" and not self.host:
            raise SiteError(f"missing required key '{prefix}host' (the Matomo server, such as stats.example.org)",
                            path)

    @property
    def script_host(self) -> str:
        return self.host or ANALYTICS_HOSTS[self.provider]


@dataclass(frozen=True)
class Theme:
    """``theme`` as a mapping: the theme folder (what a plain ``theme: NAME`` names) and the branding."""

    folder: str = ""            # a folder in the site with templates/ and assets/, over the default theme
    logo: str = ""              # a picture of the site, beside its title in the header
    favicon: str = ""           # the browser tab's icon (default: /assets/favicon.svg)
    colors: Colors = field(default_factory=Colors)
    announcement: Announcement | None = None
    analytics: Analytics | None = None
    social_cards: bool = False  # a card for each post and page, for link previews (outputs/social.py)
    social_card: str = ""       # the cards' background picture (default: the header's colour)

    def validate(self, path: Path, prefix: str) -> None:
        for name in ("logo", "favicon", "social_card"):
            value = getattr(self, name)
            if value and (not value.startswith("/") or value.startswith("//") or "/../" in value + "/"):
                raise SiteError(f"key '{prefix}{name}': expected a path in the site starting with '/', "
                                f"got {value!r}", path)


@dataclass(frozen=True)
class Repository:
    """Where the site's sources are kept, for each page's "Edit this page" link.

    ``edit`` is the link's pattern: ``{path}`` is the source's path in the site's
    folder (``content/posts/2024-01-02-x.md``); the default is GitHub's (and
    Gitea's) edit URL. A site in a subfolder of its repository puts the folder
    in the pattern: ``"{url}/edit/{branch}/website/{path}"``. No ``url``: no links.
    """

    url: str = ""
    branch: str = "main"
    edit: str = "{url}/edit/{branch}/{path}"

    def validate(self, path: Path, prefix: str) -> None:
        if not self.url:
            return
        if not re.match(r"https?://[^/\s]+(/\S*)?\Z", self.url):
            raise SiteError(f"key '{prefix}url': expected the repository's web address "
                            f"(https://host/owner/name), got {self.url!r}", path)
        if not self.branch or re.search(r"\s|\.\.|^/|/$", self.branch):
            raise SiteError(f"key '{prefix}branch': {self.branch!r} is not a branch name", path)
        try:
            fields = {name for _, name, _, _ in string.Formatter().parse(self.edit) if name is not None}
        except ValueError as exc:
            raise SiteError(f"key '{prefix}edit': {exc} in {self.edit!r}", path) from None
        if "path" not in fields or fields - {"url", "branch", "path"}:
            raise SiteError(f"key '{prefix}edit': expected a pattern with {{path}} (and {{url}}, "
                            f"{{branch}}), got {self.edit!r}", path)
        pattern = self.edit.format(url=self.url.rstrip("/"), branch=self.branch, path="{path}")
        check_link(pattern, f"{prefix}edit", path)

    def edit_url(self, source: str) -> str:
        """The link that edits the file ``source`` (a path in the site's folder); "" without a ``url``."""
        if not self.url:
            return ""
        return self.edit.format(url=self.url.rstrip("/"), branch=self.branch, path=quote(source, safe="/"))


@dataclass(frozen=True)
class CodeStyles:
    """The Pygments styles of code: one for light pages, one for dark (``prefers-color-scheme``
    or the reader's choice). A single name (``pygments_style: friendly``) is used in both."""

    light: str = "sitegen-light"
    dark: str = "sitegen-dark"

    def validate(self, path: Path, prefix: str) -> None:
        for mode in ("light", "dark"):
            _check_style(getattr(self, mode), path, f"{prefix}{mode}")


OWN_STYLES = ("sitegen-light", "sitegen-dark")   # generator.code_styles's: checked without loading Pygments


def _check_style(name: str, path: Path, key: str) -> None:
    if name in OWN_STYLES:
        return
    from generator.code_styles import style_names

    known = style_names()
    if name not in known:
        raise SiteError(f"key '{key}': no Pygments style is named {name!r} (known: {', '.join(known)})", path)


@dataclass(frozen=True)
class Limits:
    """Inputs larger than these are refused, naming their size: a log pasted into a
    post by mistake should stop the build at once, not after minutes of rendering.

    Each tag of a post is a page listing the post, its tags among it: 10,000 tags
    on one post made 3.2 GB of pages. Real posts carry a handful (the largest
    sites measured here, a dozen), so 500 leaves room for any tagging habit.
    """

    max_source_bytes: int = 10_000_000   # one post, page or docs page (Markdown or HTML)
    max_tags: int = 500                  # a post's or page's tags, categories and authors, each
    max_output_bytes: int = 50_000_000   # the page made of one post, page or docs page

    def validate(self, path: Path, prefix: str) -> None:
        _at_least_one(self, ("max_source_bytes", "max_tags", "max_output_bytes"), path, prefix)


@dataclass(frozen=True)
class MarkdownSettings:
    """How Markdown is read; the defaults are what Jekyll's defaults (kramdown, ``input: GFM``) give."""

    header_ids: Literal["gfm", "kramdown"] = "gfm"   # kramdown: the rule of kramdown's own input
    toc_levels: list[int] = field(default_factory=lambda: [1, 2, 3, 4, 5, 6])   # those a {:toc} outline lists
    excerpt_separator: str = ""   # the excerpt: the body before it, as Jekyll cuts it (""): the first paragraph
    # \(x\) and \[x\] are math; kramdown reads them as escaped brackets (the import sets it false)
    backslash_math: bool = True

    def options(self) -> dict[str, Any]:
        """What :func:`generator.markdown.render_markdown` takes of these settings, for a post's or page's text."""
        return {"header_ids": self.header_ids, "toc_levels": tuple(self.toc_levels),
                "backslash_math": self.backslash_math}

    def validate(self, path: Path, prefix: str) -> None:
        if not self.toc_levels or any(level not in range(1, 7) for level in self.toc_levels):
            raise SiteError(f"key '{prefix}toc_levels': expected heading levels 1 to 6, got {self.toc_levels}", path)


@dataclass(frozen=True)
class LiquidSettings:
    """Liquid in posts and pages (generator/liquid.py), and how much work one document's may do.

    The limits are python-liquid's own, which it leaves off: a loop over every
    post's tags of a 10,000-post site is 10**5 or 10**6 iterations, a page listing
    them all a few megabytes, so the defaults stop only runaway loops, strings
    doubled by ``append`` and includes that include themselves.
    """

    unknown: Literal["error", "warning"] = "error"   # a tag, filter or variable sitegen does not know
    loop_iterations: int = 1_000_000   # of nested loops together (a loop in a loop: the product)
    output_bytes: int = 50_000_000     # what one document's Liquid writes
    variables_bytes: int = 50_000_000  # what its assign and capture hold at once
    include_depth: int = 30            # includes inside includes

    def validate(self, path: Path, prefix: str) -> None:
        _at_least_one(self, ("loop_iterations", "output_bytes", "variables_bytes", "include_depth"), path, prefix)


def _at_least_one(section: Any, names: tuple[str, ...], path: Path, prefix: str) -> None:
    """Refuse a limit below 1, naming its key: a limit of 0 would stop every document."""
    for name in names:
        if getattr(section, name) < 1:
            raise SiteError(f"key '{prefix}{name}': expected 1 or more, got {getattr(section, name)}", path)


@dataclass(frozen=True)
class Collection:
    """A collection of pages, as Jekyll's are: the pages of ``content/pages/_NAME/``, listed as
    ``site.NAME`` (and in ``site.collections``) and not in ``site.pages``; published (at their
    permalinks) only if ``output``. Listed by ``order`` (their paths in the folder, the others
    after them), else by the front matter key ``sort_by``, else by date and path, as Jekyll 4.3."""

    output: bool = True
    sort_by: str = ""
    order: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Config:
    """The whole of site.yaml: sitegen's own keys below, and in ``sections`` the keys the
    planners own (:func:`generator.configure.load_config` gathers them), read alike
    (``config.title``, ``config.feeds``). ``root`` is the site's folder, not a key."""

    title: str
    url: str
    description: str = ""
    baseurl: str = ""
    author: str = ""
    language: str = "en"
    timezone: str = "UTC"
    permalink: str = "/:year/:month/:day/:slug.html"
    posts_per_page: int = 10
    output: str = "_site"
    pygments_style: str | CodeStyles = field(default_factory=CodeStyles)
    theme: str | Theme = ""   # a folder in the site with templates/ and assets/, or a Theme: that and branding
    nav: list[NavItem] = field(default_factory=list)
    publish: Publish = field(default_factory=Publish)
    check: Check = field(default_factory=Check)
    limits: Limits = field(default_factory=Limits)
    allow_symlinks_outside: bool = False     # publish files that symbolic links bring in from outside
    markdown: MarkdownSettings = field(default_factory=MarkdownSettings)
    liquid: LiquidSettings = field(default_factory=LiquidSettings)
    sass: SassSettings = field(default_factory=SassSettings)
    # Generated outputs switched off by name: {sitemap: false, robots: false, "404": false, ...}
    # (the names of generator/outputs' planners; feeds, search and archives have their own keys too).
    outputs: dict[str, bool] = field(default_factory=dict)
    repository: Repository = field(default_factory=Repository)
    static: list[str] = field(default_factory=list)   # folders (or files) published at their own URLs
    # Collections of pages, by name (Jekyll's): site.NAME lists content/pages/_NAME/ (Collection).
    collections: dict[str, Collection] = field(default_factory=dict)
    # Front matter keys the posts and pages carry that no template reads (kept for other tools,
    # or from an import): no warning names them. Any other key nothing reads is warned of (a typo).
    front_matter_keys: list[str] = field(default_factory=list)
    # Values of the site's own, read as site.NAME in Liquid and templates, as Jekyll reads
    # _config.yml's keys (an import carries those sitegen has no key for here).
    variables: dict[str, Any] = field(default_factory=dict)
    # not in the repr, of which the digest of all the settings is made: a site moved to another
    # folder (a CI's checkout beside a restored .sitegen) keeps its derived files (a search index)
    root: Path = field(default=Path("."), repr=False, metadata={"internal": True})
    plugins: dict[str, Any] = field(default_factory=dict, metadata={"internal": True})  # plugins' sections
    # the keys of the planners' sections (``Planner.section``): ``feeds``, ``versions``...
    sections: dict[str, Any] = field(default_factory=dict, metadata={"internal": True})

    def __getattr__(self, name: str) -> Any:
        """A key of a planner's section, read as sitegen's own are: ``config.feeds``."""
        sections = self.__dict__.get("sections")     # none while a copy is made
        if sections is None or name not in sections:
            raise AttributeError(f"no site.yaml key {name!r} is sitegen's or an installed planner's")
        return sections[name]

    def replace(self, **values: Any) -> Config:
        """A copy with ``values`` in place of these keys', sitegen's own or the planners'."""
        own = {name: value for name, value in values.items() if name in Config.__dataclass_fields__}
        planners = {name: value for name, value in values.items() if name not in own}
        return dataclasses.replace(self, **own, sections={**self.sections, **planners}) if planners \
            else dataclasses.replace(self, **own)

    def top_level_keys(self) -> set[str]:
        """The keys site.yaml may have at its top level, sitegen's own and the planners'."""
        return {*Config.__dataclass_fields__, *self.sections}

    def validate(self, path: Path, prefix: str) -> None:
        if isinstance(self.pygments_style, str):
            _check_style(self.pygments_style, path, "pygments_style")
        if self.posts_per_page < 1:
            raise SiteError(f"key 'posts_per_page': expected 1 or more, got {self.posts_per_page}", path)
        for name in self.collections:
            if not re.fullmatch(r"[A-Za-z0-9][\w-]*", name) or name in ("posts", "collections", "data"):
                raise SiteError(f"key 'collections.{name}': a collection's name is a folder's, _NAME in "
                                f"content/pages/, and not posts, collections or data", path)

    @property
    def code_styles(self) -> CodeStyles:
        """``pygments_style`` as a light and a dark style (one name: the same style in both)."""
        style = self.pygments_style
        return CodeStyles(style, style) if isinstance(style, str) else style

    @property
    def api_folders(self) -> tuple[str, ...]:
        """The folders of the packages ``api`` documents, each once (see :attr:`ApiPackage.folder`)."""
        return tuple(dict.fromkeys(spec.folder for spec in self.api))

    @property
    def output_dir(self) -> Path:
        return self.root / self.output

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIR

    @property
    def static_paths(self) -> tuple[str, ...]:
        """What is copied as it is, at its own URL: ``assets`` and the ``static`` folders and files."""
        return (ASSETS, *(name.strip("/") for name in self.static))

    @property
    def branding(self) -> Theme:
        """``theme`` as a mapping, whichever way site.yaml wrote it."""
        return Theme(folder=self.theme) if isinstance(self.theme, str) else self.theme

    @property
    def theme_paths(self) -> tuple[str, ...]:
        """The theme folder, when the site has one: an input like templates/."""
        folder = self.branding.folder
        return (folder.strip("/"),) if folder else ()


KIND = ":kind"     # a section's name with this names what it is (a section, or ``false``)


class SettingsView:
    """The settings as one parse sees them: each read is noted, by its dotted name (``title``,
    ``liquid.unknown``) and a digest of its value, as renders note the documents they read.

    The parse cache keeps a document for as long as the settings its parse
    read are as they were (:func:`setting_digest`), so a site.yaml edit parses
    again exactly the documents whose Liquid or reader read what it changed.
    Sections are views of their own; any other value is noted whole (a list,
    ``plugins``). ``root`` is where the site lies, not a setting: not noted; nor is a value
    made of it (``state_dir``), whose settings (``output`` of ``output_dir``) are.
    """

    __slots__ = ("_section", "_prefix", "_read", "_known")

    def __init__(self, section: Any, read: dict[str, str] | None = None, prefix: str = ""):
        """``read`` (name -> digest) is where the reads are noted: the caller's."""
        self._section, self._read, self._prefix = section, read, prefix
        self._known: dict[str, tuple[str, Any, Any]] = {}    # name -> what a read notes, and returns

    def __getattr__(self, name: str) -> Any:
        known = self._known.get(name)
        if known is None:       # the settings are frozen: each name is looked into once per view
            known = self._known[name] = self._look_up(name)
        noted, value, result = known
        if noted:
            self._note(noted, value)
        return result

    def _look_up(self, name: str) -> tuple[str, Any, Any]:
        """What reading ``name`` notes (a dotted name, "" for none), the value noted, and what it returns."""
        derived = getattr(type(self._section), name, None)
        if isinstance(derived, property):     # ``state_dir``: what it reads is noted, not where the site lies
            return "", None, derived.fget(self)
        value = getattr(self._section, name)
        if isinstance(value, types.MethodType):       # its own reads go through the view
            return "", None, types.MethodType(value.__func__, self)
        if name == "root" and not self._prefix:
            return "", None, value
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            # noted as a section of its kind, not ``false`` (search)
            return (f"{self._prefix}{name}{KIND}", type(value).__qualname__,
                    type(self)(value, self._read, f"{self._prefix}{name}."))
        return self._prefix + name, value, value

    def __repr__(self) -> str:
        self._note(self._prefix.rstrip("."), self._section)
        return repr(self._section)

    def _note(self, name: str, value: Any) -> None:
        if name not in self._read:     # a value's digest (its repr hashed) once per parse, not per read
            self._read[name] = _value_digest(value)


def unrecorded(config: Config | SettingsView) -> Config:
    """The settings behind a recording view, read without noting: for a cache of one's own keyed
    on all of them (a docs version's files), which is no output's dependency."""
    return config._section if isinstance(config, SettingsView) else config


def setting_digest(config: Config, name: str) -> str:
    """The digest of a setting named as :class:`SettingsView` notes it; "" if there is none."""
    value: Any = config
    path = name.removesuffix(KIND)
    try:
        for part in filter(None, path.split(".")):
            value = getattr(value, part)
    except AttributeError:
        return ""
    return _value_digest(type(value).__qualname__ if path != name else value)


def _value_digest(value: Any) -> str:
    return digest(repr(value))


def load_section(cls: type, data: Any, path: Path, prefix: str) -> Any:
    """Validate ``data`` (found under key ``prefix`` in the file ``path``) as dataclass ``cls``.

    The same checks as for site.yaml, for settings that live in other files
    (a notebook's metadata, say), so their errors read the same way.
    """
    return load_keys(cls, require_mapping(data, path, f"key '{prefix}'"), path, prefix + ".")


def require_mapping(value: Any, path: Path, where: str) -> dict:
    if not isinstance(value, dict):
        raise SiteError(f"{where}: expected a mapping of keys, got {_kind(value)}", path)
    return value


def load_keys(cls: type, data: dict, path: Path, prefix: str) -> Any:
    """Build dataclass ``cls`` from ``data``, checking every key against it."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if not f.metadata.get("internal")}
    check_known(data, fields, path, prefix)
    values = {}
    for name, f in fields.items():
        key = prefix + name
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise SiteError(f"missing required key '{key}' ({_describe(hints[name])})", path)
            continue
        values[name] = _convert(data[name], hints[name], path, key)
    value = cls(**values)
    if hasattr(value, "validate"):
        value.validate(path, prefix)
    return value


def check_known(data: dict, known: typing.Iterable[str], path: Path, prefix: str) -> None:
    """Refuse a key of ``data`` that is none of ``known``, listing them."""
    for key in data:
        if key not in known:
            raise SiteError(f"unknown key '{prefix}{key}' (known keys: {', '.join(sorted(known))})", path)


def keys_of(cls: type) -> tuple[str, ...]:
    """The keys dataclass ``cls`` reads from a mapping, in its order."""
    return tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("internal"))


def _convert(value: Any, hint: Any, path: Path, key: str) -> Any:
    origin = typing.get_origin(hint)
    if dataclasses.is_dataclass(hint):
        return load_keys(hint, require_mapping(value, path, f"key '{key}'"), path, key + ".")
    if origin is list:
        (item,) = typing.get_args(hint)
        if not isinstance(value, list):
            raise _type_error(value, hint, path, key)
        return [_convert(v, item, path, f"{key}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        _, item = typing.get_args(hint)
        if not isinstance(value, dict):
            raise _type_error(value, hint, path, key)
        return {str(k): _convert(v, item, path, f"{key}.{k}") for k, v in value.items()}
    if origin is Literal:
        if any(value == a and type(value) is type(a) for a in typing.get_args(hint)):  # 0 is not False
            return value
        raise _type_error(value, hint, path, key)
    if origin in (typing.Union, types.UnionType):
        mapped = []      # a mapping's own mistake (an unknown key) says more than "expected a string or..."
        for option in typing.get_args(hint):
            try:
                return _convert(value, option, path, key)
            except SiteError as exc:
                if isinstance(value, dict) and (dataclasses.is_dataclass(option) or typing.get_origin(option) is dict):
                    mapped.append(exc)
        if len(mapped) == 1:
            raise mapped[0]
        raise _type_error(value, hint, path, key)
    if hint is type(None):
        if value is None:
            return None
        raise _type_error(value, hint, path, key)
    # bool is an int in Python; keep them apart so `posts_per_page: yes` is caught.
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise _type_error(value, hint, path, key)
    if hint in (str, bool) and not isinstance(value, hint):
        raise _type_error(value, hint, path, key)
    return value


def _type_error(value: Any, hint: Any, path: Path, key: str) -> SiteError:
    return SiteError(f"key '{key}': expected {_describe(hint)}, got {_kind(value)} {value!r}", path)


def _describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is list:
        item = _describe(typing.get_args(hint)[0])       # "a string" -> "strings"
        if item.startswith("a "):
            noun, _, rest = item[2:].partition(" ")
            item = f"{noun}s {rest}".rstrip()
        return f"a list of {item}"
    if origin is dict:
        return f"a mapping to {_describe(typing.get_args(hint)[1])}s"
    if origin is Literal:
        options = [str(a).lower() if isinstance(a, bool) else repr(a) for a in typing.get_args(hint)]
        return options[0] if len(options) == 1 else "one of " + ", ".join(options)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in typing.get_args(hint))
    if dataclasses.is_dataclass(hint):
        keys = ", ".join(f.name for f in dataclasses.fields(hint) if not f.metadata.get("internal"))
        return f"a mapping with keys {keys}"
    return {str: "a string", int: "a whole number", bool: "true or false",
            type(None): "nothing"}.get(hint, getattr(hint, "__name__", str(hint)))


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean",
            int: "a number", float: "a number", type(None): "nothing"}.get(type(value), type(value).__name__)
