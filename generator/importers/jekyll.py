"""``sitegen import jekyll SRC DEST``: make a sitegen site from a Jekyll repository.

Jekyll's parts map onto sitegen's one by one: ``_config.yml`` becomes
``site.yaml``, ``_posts`` ``content/posts``, pages with front matter
``content/pages``, ``_data`` ``content/data``, ``_includes``
``content/includes`` (for Liquid in content) and, where layouts use them,
Jinja partials; ``_layouts`` are converted to Jinja templates
(:mod:`generator.importers.liquid`); every other folder and file Jekyll
would copy is copied and listed in ``static``. Front matter defaults are
written into the front matter they apply to, so that each file says what
Jekyll made of it. What has no direct equivalent is listed in
``IMPORT-REPORT.md`` at its file and line, with what the author must do.

Nothing is written outside DEST, and DEST must be new or empty.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
import html
import json
import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.errors import SiteError
from generator.frontmatter import known_keys
from generator.importers.collections import DOCUMENT_FIELDS, DOCUMENT_LISTS, SINGULAR, STYLE_SUFFIX, JekyllCollection, \
    UnknownPlaceholder, OUTPUT_SUFFIXES, PAGE_PLACEHOLDER, collections_of, document_url, liquid_fields, name_of, page_url, static_url, titled, \
    slugify as slugify_jekyll
from generator.importers.liquid import (Note, assigned_names, block_name, content_includes, convert_template,
                                        document_fields_read, layout_variables, page_layout_variables)
from generator.importers.polyglot import LANGUAGE_KEY, Languages, Page
from generator.kramdown_toc import toc_levels
from generator.layout import DEFAULT_THEME, RESERVED
from generator.placement import DATE_PLACEHOLDERS
from generator.sass import SUFFIXES as SASS_SUFFIXES, css_path, is_sass
from generator.scan import scan_css, scan_html
from generator.schema.outputs import Feeds
from generator.site import slugify
from generator.sources import FRONT_MATTER, POST_NAME, has_liquid, read_text
from generator.yamltext import load_yaml, parse_yaml, yaml_line, yaml_problem

REPORT_FILE = "IMPORT-REPORT.md"
LINKED_OUT = "a symbolic link to outside the Jekyll site, or to a hidden file"
# What Jekyll 4 leaves out of every site, besides names starting with '.', '_', '#' or '~'.
DEFAULT_EXCLUDE = ["Gemfile", "Gemfile.lock", "node_modules", "vendor/bundle/", "vendor/cache/",
                   "vendor/gems/", "vendor/ruby/", ".sass-cache", ".jekyll-cache", "gemfiles"]
PAGE_SUFFIXES = (".md", ".markdown", ".html")
# Jekyll's named permalink styles.
PERMALINK_STYLES = {"date": "/:categories/:year/:month/:day/:title:output_ext",
                    "pretty": "/:categories/:year/:month/:day/:title/",
                    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
                    "none": "/:categories/:title:output_ext"}
PERMALINK_PLACEHOLDERS = {"year", "month", "day", "title", "slug", "categories", *DATE_PLACEHOLDERS}
FEED_LIMIT = re.compile(r"\{%-?\s*for\s+\w+\s+in\s+site\.posts\b[^%]*?\blimit\s*:\s*(\d+)")
FEED_PAGES = {"feed.xml": "atom", "atom.xml": "atom", "rss.xml": "rss", "feed.rss": "rss", "feed.json": "json"}
# Templates sitegen renders with values of its own even in an imported site (a listed source file):
# a Jekyll layout of the same name cannot stand for them, so it is left out. (A layout named
# redirect is what jekyll-redirect-from renders its pages with: it is converted for sitegen's.)
SITEGEN_TEMPLATES = {"404", "source", "none"}
REDIRECT = "redirect"
# Templates of the pages sitegen generates (archives, docs), which an imported site makes none of:
# a Jekyll layout of the same name is converted under its name, where it wins over the theme's
# template for the documents naming it, as a layout does in Jekyll.
GENERATED_TEMPLATES = {"blog": "archives.blog", "history": "archives.history", "groups": "archives (tags, categories)",
                       "group": "archives (tags, categories)", "author": "archives.authors",
                       "authors": "archives.authors", "docs": "content/docs", "tutorial": "notebooks",
                       "tutorials": "notebooks"}
NO_LAYOUT = "none"
# A resource the browser fetches from another host, in HTML or as a Markdown image.
THIRD_PARTY = re.compile(r"""<(?:img|iframe|script|video|audio|source|embed)\b[^>]*?\ssrc=["'](?P<html>https?://[^"']+)"""
                         r"""|!\[[^\]]*\]\((?P<md>https?://[^)\s]+)""", re.I)
# Settings of _config.yml that need nothing in site.yaml.
HANDLED_KEYS = {"title", "url", "baseurl", "permalink", "timezone", "exclude", "include", "defaults",
                "description", "author", "lang", "markdown", "kramdown", "highlighter", "plugins", "gems",
                "paginate", "source", "destination", "encoding", "safe", "incremental", "port", "host",
                "livereload", "future", "show_drafts", "unpublished", "excerpt_separator", "sass", "feed",
                "collections", "collections_dir", "liquid"}
# Jekyll's own settings that sitegen has no key for: not values of the site, so not carried into
# site.yaml `variables` (collections become site.yaml `collections`).
JEKYLLS_OWN = {"keep_files", "data_dir", "layouts_dir", "includes_dir",
               "plugins_dir", "whitelist", "limit_posts", "lsi", "strict_front_matter", "quiet",
               "verbose", "profile", "webrick", "markdown_ext", "theme", "remote_theme", "paginate_path"}
# A Ruby plugin registering Liquid: Liquid::Template.register_tag('name', ...) or register_filter(Module).
PLUGIN_LIQUID = re.compile(r"register_(tag|block|filter)\b[^\n]*?(?=\s*$)", re.M)
# What each plugin sitegen has an equivalent for becomes.
PLUGINS = {"jekyll-feed": "the Atom feed where jekyll-feed published it (site.yaml feeds.atom_urls), of its "
                          "posts_limit latest posts (10 unless set; feeds.entries_at beside feeds of the site's own)",
           "jekyll-sitemap": "sitegen's sitemap.xml (and sitemap.txt)",
           "jekyll-seo-tag": "{% seo %} in the layouts writes sitegen's meta tags (partials/meta.html)",
           "jekyll-redirect-from": "redirect_from in front matter and site.yaml redirects",
           "jekyll-paginate": "its pages of posts: the index page it paginated is site.yaml archives.blog, "
                              "made once per page of posts_per_page posts at archives.paginate_path",
           "jekyll-polyglot": "each language's pages at the URLs polyglot gave them (the default language at "
                              "the root, the others under /<lang>/): a page without a translation is a copy "
                              "in each language's folder of content/pages/, a post in content/posts/<lang>/, "
                              "to edit with its original"}
# jekyll-polyglot's settings, which the import carries over as pages.
POLYGLOT_KEYS = {"languages", "default_lang", "exclude_from_localization", "lang_from_path",
                 "parallel_localization", "lang_vars"}
# The outputs sitegen makes that a Jekyll site made only with a plugin, or not at all.
GENERATED = {"sitemap": "jekyll-sitemap", "robots": None, "search": None}


@dataclass
class ImportResult:
    dest: Path
    posts: int = 0
    pages: int = 0
    data: int = 0
    layouts: int = 0
    includes: int = 0
    collected: int = 0          # documents of collections
    static: list[str] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    settings: list[str] = field(default_factory=list)   # to carry into site.yaml by hand (for now)
    settings_taken: list[str] = field(default_factory=list)   # site.yaml values found elsewhere than Jekyll's key
    plugins: list[str] = field(default_factory=list)    # what each plugin sitegen has became
    hosts: dict[str, tuple[str, int, str]] = field(default_factory=dict)   # allowed host -> (file, line, url)

    def summary(self) -> str:
        static = ", ".join(self.static) or "none"
        neutralised = sum(note.neutralised for note in self.notes)
        return (f"imported {self.posts} posts, {self.pages} pages, {self.collected} documents of collections, "
                f"{self.data} data files, "
                f"{self.layouts} layouts, {self.includes} includes; static: {static}; "
                + (f"{neutralised} things neutralised, " if neutralised else "")
                + f"{len(self.notes) - neutralised} things to finish by hand: see {self.dest / REPORT_FILE}")


def import_jekyll(src: str | Path, dest: str | Path) -> ImportResult:
    """Import the Jekyll site in ``src`` into the new sitegen site ``dest``."""
    src, dest = Path(src).resolve(), Path(dest).resolve()
    if not src.is_dir():
        raise SiteError("not a folder", src)
    config_path = next((src / name for name in ("_config.yml", "_config.yaml") if (src / name).is_file()), None)
    if config_path is None and not any((src / name).is_dir() for name in ("_posts", "_layouts")):
        raise SiteError("not a Jekyll site: no _config.yml, _posts/ or _layouts/", src)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise SiteError("the destination is not empty: the import makes a new site there", dest)
    if dest.is_relative_to(src) or src.is_relative_to(dest):
        raise SiteError("the destination must be outside the Jekyll site", dest)
    return _Importer(src, dest, config_path).run()


def _paths(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, (str, int, float)) for item in value)


def _defaults(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(entry, dict) and isinstance(entry.get("scope") or {}, dict)
        and isinstance(entry.get("values") or {}, dict) for entry in value)


# The settings the importer reads, and the shape Jekyll gives each: another shape is one line
# naming the key (a traceback from deep in the import before).
CONFIG_SHAPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "paginate": (lambda v: not isinstance(v, bool) and (isinstance(v, int) or isinstance(v, str) and v.isdigit()),
                 "a whole number of posts per page"),
    "exclude": (_paths, "a list of paths"),
    "include": (_paths, "a list of paths"),
    "plugins": (_paths, "a list of plugin names"),
    "gems": (_paths, "a list of plugin names"),
    "sass": (lambda v: isinstance(v, dict), "a mapping of Sass options (sass_dir, style)"),
    "defaults": (_defaults, "a list of entries, each with a 'scope' and 'values' mapping"),
    "kramdown": (lambda v: isinstance(v, dict), "a mapping of kramdown options"),
}


class _Importer:
    def __init__(self, src: Path, dest: Path, config_path: Path | None):
        self.src, self.dest = src, dest
        self.config_name = config_path.name if config_path else "_config.yml"
        if config_path and not self.inside(config_path):
            raise SiteError(LINKED_OUT, config_path)
        self.config_text = read_text(config_path) if config_path else ""
        config = parse_yaml(self.config_text, config_path) or {} if config_path else {}
        if not isinstance(config, dict):
            raise SiteError("expected a mapping of settings", config_path)
        self.config: dict[str, Any] = config
        for key, (fits, expected) in CONFIG_SHAPES.items():
            if config.get(key) is not None and not fits(config[key]):
                raise SiteError(f"key '{key}': expected {expected}, got {config[key]!r}"[:300], config_path,
                                self.config_line(key))
        if config_path and config.get("source") not in (None, "", "."):     # the site in a folder (apache/struts-site)
            self.src = self.source_folder(config["source"], config_path)
            self.config_name = os.path.relpath(config_path, self.src)
        self.result = ImportResult(dest)
        self.excluded = DEFAULT_EXCLUDE + [str(e) for e in config.get("exclude") or []]
        self.included = [str(i) for i in config.get("include") or []]
        self.permalink = self.post_permalink()
        self.page_suffix = self.pages_suffix()
        self.feeds = {"atom": False, "rss": False, "json": False}
        self.layouts_used: set[str] = set()
        self.front_matter_keys: set[str] = set()   # every key the posts and pages set
        self.relative_included: set[str] = set()   # include_relative's files, as includes
        self.feed_limits: list[int] = []             # the posts each of the site's feeds listed
        self.has_404 = False
        self.static: list[str] = []
        self.hosts: dict[str, tuple[str, int, str]] = {}    # host -> where a layout first loads from it
        self.plugin_outputs: set[str] = set()   # plugins whose output the site made by hand
        self.plugin_liquid = False    # a Ruby plugin registers Liquid tags or filters
        self.unknown_liquid = False              # a document's Liquid uses a tag or filter sitegen lacks
        self.post_folders: list[str] = []        # _posts folders below the top (en/news/_posts)
        self.atom_urls: list[str] = []           # where the site's Atom feeds were
        self.redirects = "jekyll-redirect-from" in self.plugins()     # redirect_from and redirect_to made pages
        self.paginates = bool(config.get("paginate")) and "jekyll-paginate" in self.plugins()
        self.languages = Languages.of(config, list(self.plugins()), self.excluded, self.src)   # jekyll-polyglot's
        self.localized_pages: list[Page] = []   # the pages of a polyglot site, written once coordinated
        self.index_pages: dict[str, Any] = {}    # each page named index.html -> its permalink (jekyll-paginate's)
        self.collections: dict[str, dict] = {}    # site.yaml collections
        sass = config.get("sass") or {}
        # Jekyll's load paths: sass.load_paths, then sass_dir; its style: jekyll-sass-converter 3's
        # default (2's, with sassc, was compact: the report says so).
        self.sass_paths = [str(p).strip("/") for p in sass.get("load_paths") or []] + [
            str(sass.get("sass_dir") or "_sass").strip("/")]
        self.sass_style = str(sass.get("style") or "expanded").lstrip(":")

    def note(self, path: str, line: int, construct: str, action: str, visible: bool = False) -> None:
        self.result.notes.append(Note(path, line, construct, action, visible=visible))

    def config_line(self, key: Any) -> int:
        return self.config_lines.get(str(key), 1)

    @functools.cached_property
    def config_lines(self) -> dict[str, int]:
        """The line of each top-level key of ``_config.yml``, found in one pass (a search per
        key took 534 s for a 1 MB file's 34,000 keys)."""
        lines: dict[str, int] = {}
        for number, line in enumerate(self.config_text.split("\n"), 1):
            match = re.match(r"([^\s#][^:]*?)\s*:", line)
            if match:
                lines.setdefault(match.group(1), number)
        return lines

    def source_folder(self, value: Any, config_path: Path) -> Path:
        """The folder ``_config.yml``'s ``source`` names, from the config's folder, as Jekyll reads it:
        the site's files are there, its settings in the config above."""
        folder = (self.src / str(value)).resolve() if isinstance(value, (str, int, float)) else None
        if folder is None or not folder.is_dir() or not folder.is_relative_to(self.src):
            raise SiteError(f"key 'source': expected a folder of the site, got {value!r}", config_path,
                            self.config_line("source"))
        return folder

    def inside(self, path: Path) -> bool:
        """Is ``path``, once its symbolic links are followed, a file of the Jekyll site that
        Jekyll could publish (not in ``.git``, not ``.env``)?"""
        real = path.resolve()
        return real == path or real.is_relative_to(self.src) and not any(
            part.startswith(".") for part in real.relative_to(self.src).parts)

    def read(self, path: Path) -> bytes | None:
        """The bytes of a file of the Jekyll site, or None, noted, if a symbolic link takes it
        outside (or into a hidden file): nothing from outside is copied in as a plain file."""
        if not self.inside(path):
            rel = path.relative_to(self.src).as_posix()
            self.note(rel, 1, rel, LINKED_OUT + ": not copied; copy what the site needs into it")
            return None
        return path.read_bytes()

    @functools.cached_property
    def templates_read_path(self) -> set[str]:
        """Which of ``page.path`` and ``page.relative_path`` (the document's source in the Jekyll
        site, for an "edit this page" link) a layout or include reads: each document is then given
        them in its front matter."""
        folders = [self.src / "_layouts", self.src / "_includes"]
        return {name.decode() for folder in folders if self.folder(folder) for path in folder.rglob("*")
                if path.is_file() and self.inside(path)
                for name in re.findall(rb"\bpage\.(path|relative_path)\b", path.read_bytes())}

    @functools.cached_property
    def templates_read_fields(self) -> frozenset[str]:
        """Which of Jekyll's document fields sitegen's documents lack (``post.name``, ``where: "slug"``)
        a layout or include names: each post, page or document is given Jekyll's values of those
        in its front matter, where it has none of its own; and whether one names :data:`DOCUMENT_LISTS`,
        which a collection's document then has (empty) as Jekyll's documents do, a page not."""
        folders = [self.src / "_layouts", self.src / "_includes"]
        names = [collection.name for collection in collections_of(self.config)]
        return frozenset(field for folder in folders if self.folder(folder) for path in folder.rglob("*")
                         if path.is_file() and self.inside(path)
                         for field in document_fields_read(path.read_bytes().decode("utf-8", "replace"),
                                                           (*DOCUMENT_FIELDS, *DOCUMENT_LISTS), names))

    def read_template(self, path: Path) -> str | None:
        """A layout's or include's text; None, noted, if it cannot be read as one."""
        data = self.read(path)
        if data is not None and not _is_utf8(data):
            rel = path.relative_to(self.src).as_posix()
            self.note(rel, 1, rel, "not UTF-8: save it as UTF-8, then convert it by hand (left out)")
            return None
        return None if data is None else data.decode("utf-8")

    def run(self) -> ImportResult:
        self.dest.mkdir(parents=True, exist_ok=True)
        for rel in self.site_files():
            self.place(self.src / rel, rel)
        self.import_special()
        if self.languages:
            self.write_languages()
        self.write_templates()
        self.write_config()
        self.write_report()
        return self.result

    # -- what Jekyll reads ---------------------------------------------------------------------

    def site_files(self) -> list[str]:
        """The files Jekyll reads as pages or copies, without entering the folders it skips
        (``.git``, ``node_modules``...); ``_posts`` folders below the top are noted."""
        found = []
        for top, folders, files in os.walk(self.src):
            base = Path(top).relative_to(self.src).as_posix()
            prefix = "" if base == "." else base + "/"
            for name in folders:
                if os.path.islink(os.path.join(top, name)) and not self.skipped(prefix + name):
                    self.note(prefix + name, 1, prefix + name, "a symbolic link to a folder: not followed; "
                                                               "put the folder itself here if the site needs it")
                if name == "_posts" and prefix:
                    self.post_folders.append(prefix + name)
            folders[:] = sorted(name for name in folders if not self.skipped(prefix + name)
                                or any(i.strip("/").startswith(prefix + name + "/") for i in self.included))
            found += [prefix + name for name in files if not self.skipped(prefix + name)]
        return sorted(found)

    def skipped(self, rel: str) -> bool:
        """Jekyll's own rule: names starting with . _ # ~ and excluded paths are not part of the site."""
        if any(_matches(rel, pattern) for pattern in self.included):
            return False
        if any(_matches(rel, pattern) for pattern in self.excluded):
            return True
        return any(part[0] in "._#~" for part in rel.split("/")) or rel.endswith("~")

    def place(self, path: Path, rel: str) -> None:
        """A file outside the underscore folders: a page if it has front matter, else copied."""
        top = rel.split("/")[0]
        data = self.read(path)
        if data is None:
            return
        if not re.match(rb"---[ \t]*\r?\n", data):
            if top in RESERVED or top == "IMPORT-REPORT.md":
                self.note(rel, 1, rel, f"sitegen uses the name '{top}' for its own sources: rename it "
                                       f"and the links to it, then copy it into the site", visible=True)
                return
            if is_sass(rel):
                rel = self.sass_partial(rel)
            self.copy(data, rel)
            self.publish(top)
            self.localize(data, rel)
            return
        name = rel.rsplit("/", 1)[-1]
        if name.endswith(SASS_SUFFIXES):
            self.import_sass_page(data, rel, top)
            return
        if rel in FEED_PAGES:
            self.feeds[FEED_PAGES[rel]] = True
            limit = FEED_LIMIT.search(data.decode("utf-8", "replace"))
            self.feed_limits.append(int(limit.group(1)) if limit else Feeds.entries)   # every post: sitegen's usual
            if FEED_PAGES[rel] == "atom":
                self.atom_urls.append(f"/{rel}")       # at its own URL
            moved = f" (it moves from /{rel} to /rss.xml)" if rel == "feed.rss" else ""
            if self.languages and self.languages.localized(rel) and self.languages.others:
                moved += (f"; polyglot published it in every language (/{self.languages.others[0]}/{rel}...): "
                          f"sitegen's feed is one, at the root")
            self.note(rel, 1, rel, f"a Liquid feed: sitegen makes its own feed from site.yaml feeds{moved}",
                      visible=bool(moved))
            return
        if rel in ("sitemap.xml", "sitemap.txt"):
            self.plugin_outputs.add("jekyll-sitemap")      # a sitemap the site made itself: sitegen's
            self.note(rel, 1, rel, "sitegen makes sitemap.xml and sitemap.txt itself: nothing to do")
            return
        if not name.endswith(PAGE_SUFFIXES):
            self.note(rel, 1, rel, "a page that is not Markdown or HTML (Liquid producing "
                                   f"{name.rsplit('.', 1)[-1]}): sitegen does not make such pages; "
                                   f"write the file as it should be served into a static folder", visible=True)
            return
        self.has_404 = self.has_404 or rel in ("404.html", "404.md")
        self.write_document(data, rel, f"content/pages/{rel}", "pages")
        self.result.pages += 1

    def sass_partial(self, rel: str) -> str:
        """Where a Sass file without front matter goes: Jekyll never compiled it (the stylesheets
        that import it did), sitegen compiles every .scss of a static folder but its partials, so
        it becomes one, ``_NAME``, which ``@import "NAME"`` still finds."""
        folder, _, name = rel.rpartition("/")
        partial = f"{folder}/_{name}" if folder else f"_{name}"
        if (self.src / partial).exists():
            self.note(rel, 1, rel, f"Jekyll published this Sass file as it is (it has no front matter); sitegen "
                                   f"compiles it into {css_path(rel)}, as {partial} is taken", visible=True)
            return rel
        self.note(rel, 1, rel, f"a Sass file without front matter, which Jekyll published as it is and never "
                               f"compiled: imported as the partial {partial}, which stylesheets import as before "
                               f"and which is not published")
        return partial

    def localize(self, data: bytes, rel: str) -> None:
        """A file polyglot copied into each language's folder too (unless excluded from localization)."""
        for lang in self.languages.others if self.languages and self.languages.localized(rel) else ():
            if any(part.startswith(".") for part in rel.split("/")):     # included by _config.yml's include
                self.note(rel, 1, rel, f"polyglot copied this hidden file into /{lang}/ too; sitegen publishes "
                                       f"no hidden file inside a folder: copy it there by hand if it matters")
                continue
            self.copy(data, f"{lang}/{rel}")
            self.publish(lang)

    def publish(self, top: str) -> None:
        if top != "assets" and top not in self.static:
            self.static.append(top)

    def import_sass_page(self, data: bytes, rel: str, top: str) -> None:
        """A Sass page (front matter, then Sass): the Sass, compiled by the build into a .css
        beside it, as Jekyll compiled it; with its front matter where it holds Liquid, which the
        build runs first, as Jekyll does; the stylesheets it loads from other hosts are allowed."""
        text = data.decode("utf-8", errors="replace")
        front = FRONT_MATTER.match(text)
        body = text[front.end():] if front else text
        kept = text if has_liquid(body) else body
        self.copy(kept.encode("utf-8"), rel)
        self.publish(top)
        self.localize(kept.encode("utf-8"), rel)
        offset = text[:len(text) - len(body)].count("\n")
        for ref in scan_css(body):
            if ref.fetched:
                self.load_from(ref.url, rel, ref.line + offset)

    def load_from(self, url: str, rel: str, line: int) -> None:
        """Allow, in site.yaml check.allow_hosts, a host the layouts load resources from."""
        match = re.match(r"(?:https?:)?//([^/:?#]+)", url.strip())
        if match and re.fullmatch(r"[\w-]+(\.[\w-]+)+", match.group(1)):     # not a host Liquid writes in
            self.hosts.setdefault(match.group(1).lower(), (rel, line, url.strip()))

    def import_special(self) -> None:
        self.import_posts("_posts")
        for folder in self.post_folders:
            self.import_posts(folder)
        if (self.src / "_drafts").is_dir():
            self.note("_drafts", 1, "_drafts", "drafts have no date: give each one a dated name and "
                                               "'draft: true', in content/posts/")
        # The Sass load paths, for the build's Sass: a folder the site does not publish whole; of one it
        # publishes (swift.org's sass_dir, assets/stylesheets), the partials Jekyll skips as _-named.
        for name in self.sass_paths:
            sass = self.src / name
            for path in sorted(sass.rglob("*")) if self.folder(sass) else []:
                rel = path.relative_to(self.src).as_posix()
                if not (self.skipped(name) or rel.endswith(SASS_SUFFIXES) and self.skipped(rel)):
                    continue
                data = self.read(path) if path.is_file() else None
                if data is not None:
                    self.copy(data, rel)
        self.import_collections()
        if (self.src / "_plugins").is_dir():
            self.note("_plugins", 1, "_plugins", "Ruby plugins do not run in sitegen: do what they did "
                                                 "in templates or content", visible=True)
            self.note_plugin_liquid()
        self.import_data()
        self.plugin_words = self.words_of_plugins()
        self.import_includes_and_layouts()

    def import_collections(self) -> None:
        """Each collection's documents, as pages under ``content/pages/_NAME/`` at the URLs Jekyll
        gave them (written into their front matter), and the collection in site.yaml
        ``collections``: listed as ``site.NAME``, published only if Jekyll published it."""
        base = str(self.config.get("collections_dir") or "").strip("/")
        for collection in collections_of(self.config):
            folder = self.src / base / f"_{collection.name}"
            self.collections[collection.name] = {"output": collection.output, "sort_by": collection.sort_by or "",
                                                 "order": collection.order}
            for path in sorted(folder.rglob("*")) if self.folder(folder) else []:
                inner = path.relative_to(folder).as_posix()
                if not path.is_file() or self.skipped(inner):
                    continue
                rel, data = path.relative_to(self.src).as_posix(), self.read(path)
                if data is None:
                    continue
                if not re.match(rb"---[ \t]*\r?\n", data):
                    if collection.output:       # Jekyll copies it, at a URL of the collection's
                        self.copy_collection_file(data, rel, static_url(self.collection_template(collection),
                                                                        collection.name, inner))
                    continue
                target = f"content/pages/_{collection.name}/{inner}"
                if not inner.endswith(PAGE_SUFFIXES) and self.html_page_of_text(data, collection, folder, inner):
                    target = f"content/pages/_{collection.name}/{inner.rsplit('.', 1)[0]}.html"
                elif not inner.endswith(PAGE_SUFFIXES):
                    self.note(rel, 1, rel, f"a document of the collection '{collection.name}' that is not Markdown "
                              f"or HTML: sitegen does not read it, so site.{collection.name} lists it not"
                              + (", nor is it published: write the file as it should be served into a static "
                                 "folder" if collection.output else ""), visible=collection.output)
                    continue
                self.write_document(data, rel, target, collection.name, collection=(collection, inner))
                self.result.collected += 1

    def html_page_of_text(self, data: bytes, collection: JekyllCollection, folder: Path, inner: str) -> bool:
        """Whether Jekyll made an HTML page of a text document of ``collection`` (choosealicense.com's
        ``_licenses/mit.txt``, at ``/licenses/:path/``): its text, Liquid run but not converted, in
        its layout, which an HTML page of the same text is too. Only where its URL is a folder's
        (index.html) by the collection's pattern, the document naming no permalink of its own."""
        stem = inner.rsplit(".", 1)[0]
        return (collection.output and "." in inner and self.collection_template(collection).endswith("/")
                and not re.search(rb"^permalink[ \t]*:", data.split(b"\n---", 1)[0], re.M)
                and not any((folder / f"{stem}{suffix}").exists() for suffix in PAGE_SUFFIXES))

    def words_of_plugins(self) -> frozenset[str]:
        """The words of the site's Ruby plugins: a ``site.<name>`` that _config.yml does not set is
        nil in Jekyll unless one of them sets it (``site.config["name"] = ...``); ``github`` where
        the site loads jekyll-github-metadata (GitHub Pages' gem does), which sets ``site.github``."""
        words: set[str] = {"github"} if {"jekyll-github-metadata", "github-pages"} & set(self.plugins()) else set()
        for path in sorted((self.src / "_plugins").rglob("*.rb")):
            data = self.read(path)
            words.update(re.findall(r"\w+", data.decode("utf-8", "replace") if data is not None else ""))
        return frozenset(words)

    def note_plugin_liquid(self) -> None:
        """The Liquid tags and filters the site's Ruby plugins register: each is named here, and
        site.yaml's ``liquid.unknown: warning`` makes each use a warning at its file and line
        (a block tag's content kept as it is) rather than an error that stops the build."""
        for path in sorted((self.src / "_plugins").rglob("*.rb")):
            data = self.read(path)
            text = data.decode("utf-8", "replace") if data is not None else ""
            for found in PLUGIN_LIQUID.finditer(text):
                kind = "filters" if found.group(1) == "filter" else "tag"
                line = text.count("\n", 0, found.start()) + 1
                self.plugin_liquid = True
                self.note(path.relative_to(self.src).as_posix(), line, found.group(0),
                          f"a Liquid {kind} of a Ruby plugin: sitegen leaves each use out, with a warning at its "
                          f"file and line (site.yaml liquid.unknown: warning); do what it did in the content",
                          visible=True)

    def import_posts(self, folder: str) -> None:
        """The posts of a ``_posts`` folder; one below the top (``en/news/_posts``) gives its
        posts the folders above it as categories (en, news), as Jekyll does, and they keep
        that place under content/posts."""
        posts = self.src / folder
        categories = folder.split("/")[:-1]
        for path in sorted(posts.rglob("*")) if self.folder(posts) else []:
            rel = path.relative_to(self.src).as_posix()
            if not path.is_file() or self.skipped(path.relative_to(posts).as_posix()):
                continue
            if not POST_NAME.match(path.stem) or not path.name.endswith(PAGE_SUFFIXES):
                self.note(rel, 1, rel, "Jekyll does not publish this (a post's name is YYYY-MM-DD-title.md): "
                                       "it was left out", visible=True)
                continue
            data = self.read(path)
            if data is not None:
                target = "/".join(["content/posts", *categories, path.relative_to(posts).as_posix()])
                self.write_document(data, rel, target, "posts", categories=categories)
                self.result.posts += 1

    def import_data(self) -> None:
        data = self.src / "_data"
        for path in sorted(data.rglob("*")) if self.folder(data) else []:
            rel = path.relative_to(self.src).as_posix()
            if not path.is_file() or path.name.startswith("."):
                continue
            if path.suffix in (".yml", ".yaml", ".json"):       # JSON is YAML
                content = self.read(path)
                if content is not None:      # a subfolder nests, as in Jekyll: _data/locales/ar.yml
                    self.copy(content, f"content/data/{path.relative_to(data).with_suffix('.yml').as_posix()}")
                    self.result.data += 1
            elif path.suffix in (".csv", ".tsv"):
                content = self.read(path)
                rows = None if content is None else table_rows(content, "\t" if path.suffix == ".tsv" else ",")
                if rows is None:
                    self.note(rel, 1, rel, "not a UTF-8 table: convert it to YAML, a list of mappings")
                    continue
                self.copy(yaml.safe_dump(rows, sort_keys=False, allow_unicode=True).encode("utf-8"),
                          f"content/data/{path.relative_to(data).with_suffix('.yml').as_posix()}")
                self.result.data += 1
            else:
                self.note(rel, 1, rel, f"sitegen reads data files as YAML: convert {path.suffix} to YAML")

    # -- documents ---------------------------------------------------------------------------------

    def write_document(self, data: bytes, rel: str, target: str, kind: str,
                       collection: tuple[JekyllCollection, str] | None = None, categories: list[str] = ()) -> None:
        """Copy a post, page or document of a ``collection`` (with its path in the collection's
        folder), writing in what Jekyll would have given it (defaults, title, layout, URL, the
        categories of a post's folders)."""
        text = data.decode("utf-8", errors="strict") if _is_utf8(data) else None
        if text is None:
            self.note(rel, 1, rel, "not UTF-8: save it as UTF-8 (copied as it is)")
            self.copy(data, target)
            return
        match = re.match(r"---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", text, re.S | re.M)
        front, body_start = (match.group(1), match.end()) if match else ("", 0)
        if match and target.endswith(".html"):     # Jekyll's `---\s*$\n?` takes the blank lines after it too,
            body_start += _blank_lines(text, body_start)   # which a <pre> shows (choosealicense.com's licences)
        if match is None:       # as Jekyll reads it: no data, the whole file the body
            self.note(rel, 1, rel, "no front matter" + (" (its '---' is not closed)" if text.startswith("---") else "")
                      + ": Jekyll took the whole file for the body, and so does sitegen; add the front matter it means")
        try:
            meta = load_yaml(front) or {}
        except yaml.YAMLError as exc:
            self.note(rel, yaml_line(exc, 1) or 1, rel, f"invalid front matter YAML ({yaml_problem(exc, 1)}): "
                                                        "fix it (copied as it is)")
            self.copy(data, target)
            return
        changes = self.defaults_for(rel, kind, meta)
        for key in self.templates_read_path - meta.keys():    # a page (not a document) has no relative_path
            if key == "path" or kind != "pages" or collection is not None:
                changes[key] = rel      # Jekyll's page.path (which front matter may set), for an edit link
        if categories and not any(key in meta for key in ("categories", "category")):
            changes["categories"] = [*categories, *changes.get("categories", [])]   # the folders' first
        elif categories:
            self.note(rel, 1, "categories", f"Jekyll put this post in the categories of its folders "
                                            f"({', '.join(categories)}) besides these: add them", visible=True)
        merged = {**changes, **meta}
        self.front_matter_keys.update(map(str, merged))
        layout = merged.get("layout")
        if layout in (None, "null", "none", False, ""):
            changes["layout"] = NO_LAYOUT
            self.layouts_used.add(NO_LAYOUT)
        else:
            self.layouts_used.add(str(layout))
        day = ruby_date(meta.get("date"))
        if day is not None:     # as Ruby's Time.parse read it: 23/01/2022 is the 23rd of January
            front = re.sub(r"^date[ \t]*:.*$", f"date: {day}", front, count=1, flags=re.M)
        url = None
        if collection is not None:
            front, url = self.place_in_collection(rel, *collection, meta, merged, changes, front)
        if kind == "posts" and "id" in self.templates_read_fields:
            url = self.post_url(rel, merged, categories)
        label = "posts" if kind == "posts" else collection[0].name if collection is not None else None
        for key, value in liquid_fields(rel, label, meta, url).items():
            if key in self.templates_read_fields and key not in merged:
                changes[key] = value
                self.front_matter_keys.add(key)
        for key in DOCUMENT_LISTS if collection is not None else ():   # a page's are its front matter's
            if key in self.templates_read_fields and not {key, SINGULAR[key]} & set(merged):
                changes[key] = []
        if not merged.get("title"):
            stem = rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            if collection is not None:    # Jekyll titles a document from its name
                changes["title"] = titled(name_of(collection[1])[0])
            elif kind == "posts":     # Jekyll titles a post from its slug
                changes["title"] = " ".join(word.capitalize() for word in POST_NAME.match(stem).group(4).split("-"))
            else:                   # a page's title is nil in Jekyll; sitegen needs one: the file's name
                changes.update(title=stem, untitled=True)
        permalink = merged.get("permalink")
        if kind == "pages" and collection is None and isinstance(permalink, str) and PAGE_PLACEHOLDER.search(permalink):
            url = merged["permalink"] = page_url(permalink, rel)   # sitegen's pages have no placeholders: Jekyll's URL
            if "permalink" in meta:
                line = _yaml_line("permalink", url).rstrip("\n")
                front = re.sub(r"^permalink[ \t]*:.*$", lambda _: line, front, count=1, flags=re.M)
            else:
                changes["permalink"] = url
        if kind == "pages" and collection is None and "permalink" not in merged and self.page_suffix != ".html" \
                and rel.rsplit("/", 1)[-1].rsplit(".", 1)[0] != "index" and rel.endswith(OUTPUT_SUFFIXES):
            # Jekyll's pretty pages (/about/), or without an extension (/about) under a pattern of its own
            changes["permalink"] = merged["permalink"] = "/" + rel.rsplit(".", 1)[0] + self.page_suffix
        pattern = str(merged.get("permalink") or self.permalink)
        if kind == "posts" and self.slug_moves(rel, meta, PERMALINK_STYLES.get(pattern, pattern)):
            url = self.post_url(rel, merged, categories)    # Jekyll's URL, written in
            if url is not None and "permalink" in meta:
                line = _yaml_line("permalink", url).rstrip("\n")
                front = re.sub(r"^permalink[ \t]*:.*$", lambda _: line, front, count=1, flags=re.M)
            elif url is not None:
                changes["permalink"] = url
            merged["permalink"] = url or merged.get("permalink")
        if kind == "posts" and self.paginates and merged.get("hidden"):
            self.note(rel, 1, "hidden", "jekyll-paginate left this post out of its pages of posts; sitegen's "
                      "list it (site.posts lists it in both)", visible=True)
        if kind == "posts":
            self.check_post_url(rel, merged)
            url = self.post_url(rel, merged, categories) if self.languages else None
            if self.languages:
                self.front_matter_keys.add(LANGUAGE_KEY)      # the import's own: no warning of it
            if url is not None:
                merged["permalink"] = url       # the URL polyglot coordinates
            elif self.languages:
                front = self.post_in_language(rel, meta, merged, changes, front)
        self.note_third_party(rel, text)
        text = text[:body_start] + self.relative_includes(text[body_start:], rel)
        self.note_unknown_liquid(rel, text, body_start)
        indent = re.search(r"^( *)[^\s#]", front, re.M)      # the keys' own (" layout: post"), for YAML
        added = "".join(_yaml_line(key, value) for key, value in changes.items())
        if self.redirects:
            front = self.rooted_redirects(front, meta)
        elif REDIRECT_KEY.search(front):      # no plugin reads them: keys of the page's own, not sitegen's redirects
            front = REDIRECT_KEY.sub(r"\1jekyll_\2", front)
            self.front_matter_keys.update(f"jekyll_{key}" for key in ("redirect_from", "redirect_to") if key in meta)
            self.note(rel, 1, "redirect_from", "jekyll-redirect-from is not among the site's plugins, so Jekyll "
                      "made no redirect of it: kept as jekyll_redirect_from (sitegen would make one of "
                      "redirect_from), which the converted layouts read as page.redirect_from")
        front = split_names(front, meta) + re.sub(r"^(?=.)", indent.group(1) if indent else "", added, flags=re.M)
        if kind == "pages" and collection is None and rel.rpartition("/")[2] == "index.html":
            self.index_pages[rel] = merged.get("permalink")
        if self.languages and (kind == "pages" or collection is not None or kind == "posts" and url is not None):
            # written once polyglot has chosen each language's version of each URL
            self.localized_pages.append(Page(rel, target, merged, front, text[body_start:],
                                               text.count("\n", 0, body_start)))
            return
        self.write(f"---\n{front}---\n{text[body_start:]}", target)

    def relative_includes(self, body: str, rel: str, depth: int = 0) -> str:
        """``body`` with each ``{% include_relative NAME %}`` an include of that file, copied to
        ``content/includes/_relative/`` under its path (swift.org's pages include their
        ``_older-releases.md``, which Jekyll does not publish). As in Jekyll, NAME is read from
        the folder of the page ``rel``, in the files it includes too. Done here, not by the build's
        ``include_relative`` tag (generator/liquid.py), because Jekyll's ``_``-files are not imported:
        only the import sees them. A computed NAME, or one in an include or layout, is left to that tag."""
        folder = rel.rpartition("/")[0]

        def include(found: re.Match) -> str:
            name = found.group(2)
            source = posixpath.normpath(posixpath.join(folder, name))
            path = self.src / source
            if source.startswith("../") or not path.is_file() or not self.inside(path) or depth > 8:
                return found.group(0)
            target = f"{RELATIVE_INCLUDES}/{source}"
            if target not in self.relative_included:
                self.relative_included.add(target)
                data = self.read(path)
                if data is None:
                    return found.group(0)
                text = self.relative_includes(data.decode("utf-8", "replace"), rel, depth + 1)
                self.write(text, f"content/includes/{target}")
            return f"{found.group(1)}include {target}{found.group(3)}"

        return INCLUDE_RELATIVE.sub(include, body) if "include_relative" in body else body

    @staticmethod
    def rooted_redirects(front: str, meta: dict) -> str:
        """``front`` with each ``redirect_from`` path written without its leading ``/``
        (``server/guides/``) given one: jekyll-redirect-from reads each from the site's root;
        sitegen asks for the ``/``. (Two pages redirecting one path: see outputs/redirects.py.)"""
        value = meta.get("redirect_from")
        for old in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            if isinstance(old, str) and old and not old.startswith(("/", "http://", "https://")):
                line = re.compile(rf"^([ \t]*(?:redirect_from[ \t]*:|-)[ \t]*)(['\"]?){re.escape(old)}\2[ \t]*\r?$", re.M)
                front = line.sub(lambda found: f"{found.group(1)}{found.group(2)}/{old}{found.group(2)}", front, count=1)
        return front

    def write_languages(self) -> None:
        """A polyglot site's pages, each at the URL it had in each language."""
        languages = self.languages
        exists = {path.relative_to(self.dest).as_posix() for path in self.dest.rglob("*") if path.is_file()}
        for target, text in languages.sources(self.localized_pages, exists):
            self.write(text, target)
        for page in self.localized_pages:      # what only polyglot's Liquid knew, in a page's own Liquid
            for match in re.finditer(r"\bsite\.languages\b|\{%-?\s*(?:static_href|i18n_headers)\b", page.body):
                self.note(page.rel, page.offset + page.body.count("\n", 0, match.start()) + 1, match.group(),
                          "polyglot's, in a page's own Liquid: not carried over; write the value in")
        for key in ("lang_vars",):
            if self.config.get(key):
                self.note(self.config_name, self.config_line(key), key,
                          "polyglot's other names of site.active_lang: not carried over; use site.active_lang")

    def post_in_language(self, rel: str, meta: dict, merged: dict, changes: dict, front: str) -> str:
        """A polyglot site's post whose URL the import cannot fill (so cannot coordinate), in another
        language than the default: polyglot publishes it under ``/<lang>/`` (its URL in its language's
        build); returns ``front`` with its permalink so placed."""
        lang = changes[LANGUAGE_KEY] = self.languages.language_of(rel, merged)   # listed in its language
        if lang == self.languages.default:
            return front
        pattern = f"/{lang}/" + str(merged.get("permalink") or self.permalink).lstrip("/")
        if "permalink" in meta:
            return re.sub(r"^permalink[ \t]*:.*$", lambda _: _yaml_line("permalink", pattern).strip(), front,
                          count=1, flags=re.M)
        changes["permalink"] = pattern
        return front

    def place_in_collection(self, rel: str, collection: JekyllCollection, inner: str, meta: dict, merged: dict,
                            changes: dict, front: str) -> tuple[str, str | None]:
        """Write in (``changes``, or ``front``, the front matter as written, which it returns) what
        Jekyll gave a document of ``collection``: the date its name gives, and its URL (returned
        too; None where the import cannot fill its pattern)."""
        named = name_of(inner)[1]
        if named and "date" not in merged:    # Jekyll dates a document from its name, as a post
            changes["date"] = named
        url = self.collection_url(rel, collection, inner, merged)
        if url is not None:
            merged["permalink"] = url       # the URL polyglot coordinates
        if url is None:         # noted: at its path, not at a pattern sitegen would read otherwise
            changes.pop("permalink", None)
        elif "permalink" in meta:     # its own, placeholders filled: sitegen's pages have none
            front = re.sub(r"^permalink[ \t]*:.*$", lambda _: _yaml_line("permalink", url).strip(), front,
                           count=1, flags=re.M)
        else:
            changes["permalink"] = url
        return front, url

    def collection_template(self, collection: JekyllCollection) -> str:
        """Its documents' URL template, by the site's permalink style."""
        return collection.template(str(self.config.get("permalink") or "date"))

    def copy_collection_file(self, data: bytes, rel: str, url: str) -> None:
        """A file of a published collection without front matter, copied where Jekyll published it
        (its folder a static one), unless Jekyll's URL for it keeps a placeholder or lands on a
        name sitegen keeps for its sources."""
        top = url.lstrip("/").split("/")[0]
        if ":" in url or top in RESERVED or top == REPORT_FILE:
            self.note(rel, 1, rel, f"a file of a collection that Jekyll published at {url}: not copied; copy it "
                                   f"into a static folder at the URL the site links", visible=True)
            return
        self.copy(data, url.lstrip("/"))
        self.publish(top)

    def collection_url(self, rel: str, collection: JekyllCollection, inner: str, merged: dict) -> str | None:
        """The URL Jekyll gave a document of ``collection``: its permalink (its own, else its
        defaults', else its collection's) with the placeholders filled; None, noted, if one cannot be."""
        template = str(merged.get("permalink") or self.collection_template(collection))
        try:
            return document_url(template, collection.name, inner, merged, str(self.config.get("timezone") or "UTC"))
        except UnknownPlaceholder as exc:
            self.note(rel, 1, f"permalink: {template}", f"the placeholder :{exc} is not filled for a document "
                      f"of a collection: the page is at its path in content/pages/; give it its permalink",
                      visible=True)
            return None

    def note_unknown_liquid(self, rel: str, text: str, start: int) -> None:
        """Name each tag and filter of a document's Liquid that sitegen's Liquid lacks (a Ruby
        plugin's, mostly) at its line: the build then warns of it there and renders nothing in
        its place (site.yaml ``liquid.unknown: warning``), where it would stop at the first."""
        if not has_liquid(text[start:]):
            return
        for name, offset, kind in unknown_liquid(text[start:]):
            self.unknown_liquid = True
            self.note(rel, text.count("\n", 0, start + offset) + 1, name,
                      f"a Liquid {kind} sitegen does not have (a plugin's?): the page shows nothing in its "
                      f"place; write what it made into the page", visible=True)

    def note_third_party(self, rel: str, text: str) -> None:
        """Images, frames and scripts loaded from other hosts: sitegen's check refuses them
        unless site.yaml allows the host, so the author decides, file by file."""
        for match in THIRD_PARTY.finditer(text):
            url = html.unescape(match.group("html")) if match.group("html") else match.group("md")
            host = re.match(r"https?://([^/:?#]+)", url).group(1)
            self.note(rel, text.count("\n", 0, match.start()) + 1, url,
                      f"loaded from {host}, which readers' browsers would then contact: copy it into a static "
                      f"folder and link that, or add {host} to site.yaml check.allow_hosts")

    def post_url(self, rel: str, merged: dict, categories: list[str]) -> str | None:
        """The URL Jekyll gave a post (its ``id`` is made from it), its folders' categories before its
        own; None for a pattern the import cannot fill."""
        raw = str(merged.get("permalink") or self.config.get("permalink") or "date")
        own = merged.get("categories", merged.get("category"))
        own = own.split() if isinstance(own, str) else own if isinstance(own, list) else [] if own is None else [own]
        try:
            return document_url(PERMALINK_STYLES.get(raw, raw), "posts", rel.rsplit("/", 1)[-1],
                                {**merged, "categories": [*categories, *own]}, str(self.config.get("timezone") or "UTC"))
        except UnknownPlaceholder:
            return None

    def slug_moves(self, rel: str, meta: dict, pattern: str) -> bool:
        """Whether the post's ``pattern`` would put it elsewhere than Jekyll did by its name alone:
        Jekyll's ``:title`` and ``:slug`` are its slug (front matter's, else the file name's) made a
        slug (rails/website's ``Rails-6-1-2-has-been-released-.markdown`` is at ``...-released``)."""
        name = POST_NAME.match(rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]).group(4)
        slug = str(meta.get("slug") or name)
        return (":title" in pattern and slugify_jekyll(slug, pretty=True, cased=True) != name
                or ":slug" in pattern and slugify_jekyll(slug) != name)

    def check_post_url(self, rel: str, meta: dict) -> None:
        """Name the posts whose URL sitegen makes otherwise than Jekyll did."""
        if "slug" in meta and ":title" in self.permalink and "permalink" not in meta:
            self.note(rel, 1, "slug", "Jekyll took :title from 'slug'; sitegen takes it from the file name: "
                                      "rename the file to end in the slug, or give the post a permalink")
        categories = meta.get("categories", meta.get("category"))
        names = categories.split() if isinstance(categories, str) else categories or []
        if ":categories" in self.permalink and any(slugify(str(c)) != str(c).lower() for c in names):
            self.note(rel, 1, f"categories: {categories}", "Jekyll put these categories in the URL as they are "
                                                           "(lowercased); sitegen as slugs (deep-learning): the "
                                                           "URL moves; give the post a redirect_from or a permalink")

    def defaults_for(self, rel: str, kind: str, meta: dict) -> dict[str, Any]:
        """The values ``_config.yml`` defaults give this file that its front matter does not set;
        a more specific path wins, as in Jekyll."""
        found: list[tuple[int, dict]] = []
        for entry in self.config.get("defaults") or []:
            scope, values = (entry or {}).get("scope") or {}, (entry or {}).get("values") or {}
            path = str(scope.get("path") or "").strip("/")
            if scope.get("type") not in (None, kind):
                continue
            if path and not (fnmatch.fnmatch(rel, path) or rel == path or rel.startswith(path + "/")
                             or rel.startswith("_posts/") and path == "_posts"):
                continue
            found.append((len(path), values))
        merged: dict[str, Any] = {}
        for _, values in sorted(found, key=lambda item: item[0]):
            merged.update(values)
        return {key: value for key, value in merged.items() if key not in meta}

    # -- layouts and includes ----------------------------------------------------------------------

    def import_includes_and_layouts(self) -> None:
        includes, layouts = self.src / "_includes", self.src / "_layouts"
        include_data = {p.relative_to(includes).as_posix(): self.read(p) for p in sorted(includes.rglob("*"))
                        if p.is_file()} if self.folder(includes) else {}
        include_files = {name: data for name, data in include_data.items() if data is not None}
        for name, data in include_files.items():     # for Liquid in content, as they are
            self.copy(data, f"content/includes/{name}")
        self.result.includes = len(include_files)
        # A layout in a folder of _layouts is named by its path there (new-layouts/base), as in Jekyll.
        layout_texts = {p: self.read_template(p) for p in sorted(layouts.rglob("*"))
                        if p.is_file()} if self.folder(layouts) else {}
        layout_files = {p.relative_to(layouts).with_suffix("").as_posix(): p for p, text in layout_texts.items()
                        if text is not None}
        parsed = {name: self.split_layout(layout_texts[path], path) for name, path in layout_files.items()}
        for name, (_, body, offset) in parsed.items():
            self.note_hosts(body, f"_layouts/{layout_files[name].relative_to(layouts).as_posix()}", offset)
        parents = {name: str(meta.get("layout")) for name, (meta, _, _) in parsed.items()
                   if meta.get("layout") not in (None, "null", "none", False, "")}
        variables = layout_variables({name: meta for name, (meta, _, _) in parsed.items()}, parents)
        page_layouts = page_layout_variables({name: meta for name, (meta, _, _) in parsed.items()}, parents)
        # Liquid's variables are the whole render's: what one include assigns, another or a layout reads.
        assigned = set().union(*(assigned_names(body) for _, body, _ in parsed.values()),
                               *(assigned_names(data.decode("utf-8", "replace")) for data in include_files.values()))
        showing = content_includes({name: data.decode("utf-8", "replace") for name, data in include_files.items()})
        for name, (meta, body, offset) in parsed.items():
            rel = f"_layouts/{layout_files[name].relative_to(layouts).as_posix()}"
            if name in SITEGEN_TEMPLATES:
                self.note(rel, 1, rel, f"sitegen makes its own '{name}' pages with templates/{name}.html: "
                                       f"rename the layout (and the front matter naming it)")
                continue
            if name in GENERATED_TEMPLATES:
                self.note(rel, 1, rel, f"converted to templates/{name}.html, which sitegen's own pages "
                                       f"({GENERATED_TEMPLATES[name]}, none after the import) would render with "
                                       f"too: rename the layout (and the front matter naming it) before making them")
            parent = parents.get(name)
            if parent is not None and parent not in layout_files:
                self.note(rel, 1, f"layout: {parent}", f"there is no layout '{parent}': fix the name")
                parent = None
            blocks = block_name(name) if name in parents.values() else None
            jinja, notes = convert_template(body, rel, self.config, parent=parent, blocks=blocks,
                                            includes=set(include_files), layouts=variables[name],
                                            assigned=assigned, languages=self.languages,
                                            redirect=name == REDIRECT, kept_redirects=not self.redirects,
                                            plugin_words=self.plugin_words, content_includes=showing)
            self.result.notes += [_shifted(note, offset) for note in notes]
            self.write(jinja, f"templates/{name}.html")
            self.result.layouts += 1
        missing = self.layouts_used - set(layout_files) - {NO_LAYOUT}
        for name in sorted(missing):
            self.note(self.config_name, 1, f"layout: {name}", f"documents use the layout '{name}', which "
                                                              f"_layouts/ does not have: add templates/{name}.html", visible=True)
        # The includes layouts use (and those they include), as Jinja partials.
        todo = [body for _, body, _ in parsed.values()]
        converted: set[str] = set()
        while todo:
            for name in re.findall(r"\{%-?\s*include\s+([\w./-]+)", todo.pop()):
                if name in converted or name not in include_files:
                    continue
                converted.add(name)
                text = self.read_template(includes / name)
                if text is None:
                    continue
                self.note_hosts(text, f"_includes/{name}")
                jinja, notes = convert_template(text, f"_includes/{name}", self.config, lenient=True,
                                                includes=set(include_files), assigned=assigned,
                                                page_layouts=page_layouts, languages=self.languages,
                                                kept_redirects=not self.redirects, plugin_words=self.plugin_words)
                self.result.notes += notes
                self.write(jinja, f"templates/partials/{name}")
                todo.append(text)

    def note_hosts(self, text: str, rel: str, offset: int = 0) -> None:
        """The hosts a template makes readers' browsers load from (scripts, stylesheets, fonts)."""
        for ref in scan_html(text).references:
            if ref.fetched:
                self.load_from(ref.url, rel, ref.line + offset)

    def folder(self, path: Path) -> bool:
        """Is ``path`` a folder of the Jekyll site to read (noted if a link takes it outside)?"""
        if not path.is_dir():
            return False
        if not self.inside(path):
            rel = path.relative_to(self.src).as_posix()
            self.note(rel, 1, rel, LINKED_OUT + ": not read; put the folder itself here")
            return False
        return True

    def split_layout(self, text: str, path: Path) -> tuple[dict, str, int]:
        """A layout's front matter, body, and the number of lines before the body."""
        match = re.match(r"---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", text, re.S | re.M)
        if not match:
            return {}, text, 0
        meta = parse_yaml(match.group(1), path.relative_to(self.src), "invalid front matter YAML", 1) or {}
        return (meta if isinstance(meta, dict) else {}), text[match.end():], text.count("\n", 0, match.end())

    def write_templates(self) -> None:
        """The templates sitegen needs that a Jekyll site has no layout for."""
        if NO_LAYOUT in self.layouts_used:
            content = "{{ content }}"
            self.write(self.languages.links_filter(content) if self.languages else content,
                       f"templates/{NO_LAYOUT}.html")
        if not (self.dest / f"templates/{REDIRECT}.html").exists():     # else the site's own
            self.write(REDIRECT_TEMPLATE, f"templates/{REDIRECT}.html")
        if not self.has_404:
            self.write(NOT_FOUND_TEMPLATE, "templates/404.html")

    # -- settings ----------------------------------------------------------------------------------

    def post_permalink(self) -> str:
        """The posts' pattern: ``collections.posts.permalink``, which Jekyll puts before the site's
        ``permalink`` (jekyll/jekyll's docs: ``/news/:year/:month/:day/:title/``)."""
        collections = self.config.get("collections")
        posts = collections.get("posts") if isinstance(collections, dict) else None
        own = posts.get("permalink") if isinstance(posts, dict) else None
        raw = str(own or self.config.get("permalink") or "date")
        # Jekyll reads a pattern from the site's root with or without its leading "/" (":title").
        pattern = "/" + PERMALINK_STYLES.get(raw, raw).replace(":output_ext", ".html").lstrip("/")
        unknown = sorted(set(re.findall(r":([a-z_]+)", pattern)) - PERMALINK_PLACEHOLDERS)
        if unknown:
            self.note(self.config_name, self.config_line("permalink"), f"permalink: {raw}",
                      f"sitegen's permalinks know :{', :'.join(sorted(PERMALINK_PLACEHOLDERS))}; not "
                      f"{', '.join(':' + u for u in unknown)}: the posts "
                      f"use {PERMALINK_STYLES['date']} instead, so their URLs move: give each a "
                      f"redirect_from or choose another pattern")
            return PERMALINK_STYLES["date"].replace(":output_ext", ".html")
        return pattern

    def pages_suffix(self) -> str:
        """What ends the URL Jekyll gives a page (not an index): Utils.add_permalink_suffix of the
        site's own ``permalink``, which the posts' pattern may not show (``collections.posts.permalink``,
        or a pattern sitegen replaced): ``/`` (``/about/``) for ``pretty`` or a pattern ending in ``/``
        (opensource.guide's ``/:path/``); ``.html`` for ``date`` and the like or a pattern ending in
        ``:output_ext``; else nothing (``/about``: edgent's ``pygments``, a pattern ending ``.html``)."""
        style = str(self.config.get("permalink") or "date")
        suffix = STYLE_SUFFIX.get(style, "/" if style.endswith("/") else ":output_ext" if style.endswith(":output_ext") else "")
        return ".html" if suffix == ":output_ext" else suffix

    def site_url(self) -> str:
        """``url``, else where the site says it is published (``production_url``, Jekyll-Bootstrap's
        ``JB.BASE_PATH``), said in the report; else a placeholder to replace."""
        config, jb = self.config, self.config.get("JB")
        if config.get("url"):
            return str(config["url"])
        for key, value in (("production_url", config.get("production_url")),
                           ("JB.BASE_PATH", jb.get("BASE_PATH") if isinstance(jb, dict) else None)):
            if isinstance(value, str) and re.match(r"https?://[^/\s]+", value):
                url = value.rstrip("/")
                self.result.settings_taken.append(f"`url: {url}`, from `{key}` ({self.config_name} has no "
                                                  f"`url`): feeds, the sitemap and canonical links use it")
                return url
        self.note(self.config_name, 1, "url", "no url: site.yaml says https://example.org; set the "
                                              "production URL (feeds, sitemap and the check use it)", visible=True)
        return "https://example.org"

    def plugins(self) -> dict[str, tuple[str, int]]:
        """The plugins Jekyll loads, and where each is named: ``_config.yml``'s ``plugins`` (or the
        older ``gems``) and the Gemfile's ``jekyll_plugins`` group, which Bundler loads too."""
        found: dict[str, tuple[str, int]] = {}
        for key in ("plugins", "gems"):
            for name in self.config.get(key) or []:
                found.setdefault(str(name), (self.config_name, self.config_line(key)))
        gemfile = self.src / "Gemfile"
        if gemfile.is_file() and self.inside(gemfile):
            for name, line in gemfile_plugins(read_text(gemfile)):
                found.setdefault(name, ("Gemfile", line))
        return found

    def write_config(self) -> None:
        config = self.config
        author = config.get("author")
        if isinstance(author, dict):
            author = author.get("name")
        settings: dict[str, Any] = {"title": str(config.get("title") or self.src.name)}
        if not config.get("title"):
            self.note(self.config_name, 1, "title", "no title: site.yaml uses the folder's name; set yours")
        settings["url"] = self.site_url()
        settings["baseurl"] = str(config.get("baseurl") or "")
        for key, target in (("description", "description"), ("lang", "language")):
            if config.get(key):
                settings[target] = str(config[key])
        if author:
            settings["author"] = str(author)
        timezone = config.get("timezone")
        if not timezone:
            self.note(self.config_name, 1, "timezone", "no timezone: Jekyll used the building machine's; "
                                                        "site.yaml says UTC: set the one your URLs were made in")
        settings["timezone"] = str(timezone or "UTC")
        settings["permalink"] = self.permalink
        if config.get("paginate"):
            settings["posts_per_page"] = int(config["paginate"])
        plugins = self.plugins()
        feeds: dict[str, Any] = dict(self.feeds)
        if "jekyll-feed" in plugins:
            feeds["atom"] = True
            url, limit = self.jekyll_feed()
            if not self.feed_limits:          # jekyll-feed's alone: its length is every feed's
                self.feed_limits.append(limit)
            elif url not in self.atom_urls:   # beside the site's own feeds: its own length, theirs kept
                feeds["entries_at"] = {url: limit}
            self.atom_urls += [] if url in self.atom_urls else [url]
        if self.feed_limits:     # one length for the site's own feeds: the longest any of them had
            feeds["entries"] = max(self.feed_limits)
        if self.atom_urls and self.atom_urls != ["/atom.xml"]:
            feeds["atom_urls"] = sorted(self.atom_urls)
        settings["feeds"] = feeds
        # Jekyll makes no archive pages: none is made, so every URL stays the site's own.
        settings["archives"] = {"blog": False, "history": False, "tags": False, "categories": False,
                                "authors": False}   # and _data/authors.yml stays plain data
        paginated = self.paginated_index(plugins)
        if paginated:     # jekyll-paginate's pages of posts: its index page's, as sitegen's blog
            settings["archives"].update(blog=paginated[1], paginate_path=paginated[2])
        settings["static"] = self.static
        if self.collections:
            settings["collections"] = self.collections
        liquid = config.get("liquid") if isinstance(config.get("liquid"), dict) else {}
        if self.plugin_liquid or self.unknown_liquid or not liquid.get("strict_variables"):
            settings["liquid"] = {"unknown": "warning"}
            self.result.settings_taken.append(
                "`liquid: {unknown: warning}`: as in Jekyll (whose `strict_variables` is off), a variable "
                "nobody set renders as nothing, and a plugin's tag or filter (listed below, at its line) "
                "is left out; the build names each at its file and line")
        unread = sorted(self.front_matter_keys - known_keys([self.dest / "templates", DEFAULT_THEME / "templates"]))
        if unread:
            settings["front_matter_keys"] = unread
            shown = ", ".join(f"`{key}`" for key in unread[:8]) + (", ..." if len(unread) > 8 else "")
            self.result.settings_taken.append(
                f"`front_matter_keys`: the {len(unread)} front matter keys the posts and pages set that no "
                f"layout reads ({shown}), so that the build warns of none of them: remove any that is a typo")
        self.result.static = list(self.static)
        load_paths = [name for name in self.sass_paths if (self.dest / name).is_dir()]
        if load_paths or self.sass_style != "expanded":
            settings["sass"] = {"load_paths": load_paths, "style": self.sass_style}
            self.result.settings_taken.append(
                f"`sass: {{load_paths: {load_paths}, style: {self.sass_style}}}`: .scss and .sass files of the "
                f"static folders are compiled by the build" + ("" if "style" in (config.get("sass") or {}) else
                "; expanded is jekyll-sass-converter 3's style (2, with sassc, wrote compact: set "
                "sass.style: compact if the site's CSS must stay as it was)"))
        if self.hosts:
            settings["check"] = {"allow_hosts": sorted(self.hosts)}
            self.result.hosts = dict(self.hosts)
        for plugin, (path, line) in plugins.items():
            if plugin in PLUGINS:
                self.result.plugins.append(f"`{plugin}` ({path}:{line}): {PLUGINS[plugin]}")
            else:
                self.note(path, line, plugin, "a plugin sitegen does not have: do what it did in templates "
                                              "or content", visible=True)
        outputs = {name: False for name, plugin in GENERATED.items()
                   if plugin not in plugins and plugin not in self.plugin_outputs}
        if outputs:
            settings["outputs"] = outputs
            self.result.plugins.append(f"switched off in site.yaml `outputs`, as Jekyll made none: "
                                       f"{', '.join(outputs)} (set one true to have it)")
        if paginated:
            self.result.settings_taken.append(
                f"`archives: {{blog: {paginated[1]}, paginate_path: {paginated[2]}}}`, `posts_per_page: "
                f"{settings['posts_per_page']}`: jekyll-paginate's pages of posts, {paginated[0]} made once per "
                f"page of posts (page 1 at its URL, page N at paginate_path), its paginator as Jekyll's")
        if config.get("markdown") not in (None, "kramdown"):
            self.note(self.config_name, self.config_line("markdown"), f"markdown: {config['markdown']}",
                      "sitegen renders Markdown as kramdown (GFM) does: check the posts that relied on "
                      "the other renderer")
        kramdown = config.get("kramdown") or {}
        kramdown = kramdown if isinstance(kramdown, dict) else {}
        if str(kramdown.get("input", "GFM")).lower() == "kramdown":
            # kramdown's own input makes ids by kramdown's rule, not GFM's: keep every anchor.
            settings["markdown"] = {"header_ids": "kramdown"}
        levels = toc_levels(kramdown.get("toc_levels"))
        if levels:
            settings.setdefault("markdown", {})["toc_levels"] = levels
        # Jekyll's excerpt is the body before its separator, a blank line unless the site says
        # another (nim-lang's first paragraph runs on into a list, cordova's posts open with a heading).
        separator = config.get("excerpt_separator")
        settings.setdefault("markdown", {})["excerpt_separator"] = separator if isinstance(separator, str) else "\n\n"
        # kramdown's math is $$...$$ alone: its \( and \[ are escaped brackets (jruby's "\(which lets ...\)").
        settings["markdown"]["backslash_math"] = False
        for key, value in kramdown.items():
            if key != "input" and not (key == "toc_levels" and levels):
                self.result.settings.append(_yaml_line(f"kramdown.{key}", value).strip())
        variables = {key: value for key, value in config.items() if key not in HANDLED_KEYS | JEKYLLS_OWN
                     and not (self.languages and key in POLYGLOT_KEYS)}
        if variables:
            settings["variables"] = variables
        for key in config:
            if self.languages and key in POLYGLOT_KEYS:
                continue
            if key in JEKYLLS_OWN:
                self.note(self.config_name, self.config_line(key), key,
                          f"site.{key} is not in sitegen's site: a layout reading it has its value written in; "
                          f"change it there, or keep it in a data file (site.data)")
            elif key not in HANDLED_KEYS:
                self.note(self.config_name, self.config_line(key), key,
                          f"site.{key} is kept in site.yaml `variables`, where the content's Liquid reads it; "
                          f"a layout reading it has its value written in: change it there too")
        header = (f"# Imported from the Jekyll site {self.src.name} by `sitegen import jekyll`;\n"
                  f"# see README.md for every key, and {REPORT_FILE} for what is left to do.\n")
        self.write(header + yaml.safe_dump(settings, sort_keys=False, allow_unicode=True), "site.yaml")

    def paginated_index(self, plugins: dict[str, tuple[str, int]]) -> tuple[str, str, str] | None:
        """jekyll-paginate's index page (the deepest page named index.html in the folders from the
        top down to ``paginate_path``'s), its URL and ``paginate_path`` (``/page:num`` unless set);
        None where Jekyll paginated nothing, which is noted: ``paginate`` without the plugin, or
        no such page."""
        config = self.config
        if not config.get("paginate"):
            return None
        line = self.config_line("paginate")
        if "jekyll-paginate" not in plugins:
            self.note(self.config_name, line, "paginate", "jekyll-paginate is not among the site's plugins, so "
                      "Jekyll made no pages of posts (paginator is nil), nor does sitegen: add "
                      "site.yaml archives.blog to have them")
            return None
        path = "/" + str(config.get("paginate_path") or "/page:num").lstrip("/")
        if ":num" not in path:
            self.note(self.config_name, self.config_line("paginate_path"), "paginate_path",
                      "no :num in it, so Jekyll wrote every page of posts at one URL: sitegen makes none; "
                      "set site.yaml archives.blog and archives.paginate_path to have them")
            return None
        folders, folder = [], posixpath.dirname(path.lstrip("/"))
        while folder not in folders:    # the folder, each one above it, the top ("")
            folders.append(folder)
            folder = posixpath.dirname(folder)
        found = [rel for rel in self.index_pages if posixpath.dirname(rel) in folders]
        if not found:
            self.note(self.config_name, line, "paginate", "Jekyll found no index.html in the folders down to "
                      f"paginate_path ({path}) to paginate, and made no pages of posts: nor does sitegen")
            return None
        rel = max(found, key=len)
        permalink, folder = self.index_pages[rel], posixpath.dirname(rel)
        return rel, str(permalink) if permalink else f"/{folder}/" if folder else "/", path

    def jekyll_feed(self) -> tuple[str, int]:
        """jekyll-feed's URL and number of posts, from ``_config.yml``'s ``feed:`` (``path``,
        ``posts_limit``; 10 posts at /feed.xml by default); its other settings are named in a note."""
        feed = self.config.get("feed")
        feed = feed if isinstance(feed, dict) else {}
        path, limit = str(feed.get("path") or "feed.xml"), feed.get("posts_limit", 10)
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            self.note(self.config_name, self.config_line("feed"), "feed.posts_limit",
                      f"{limit!r} is no number of posts: the feed keeps jekyll-feed's 10")
            limit = 10
        for key in sorted(set(feed) - {"path", "posts_limit"}, key=str):
            self.note(self.config_name, self.config_line("feed"), f"feed.{key}",
                      "a jekyll-feed setting sitegen does not have: its feed holds the latest posts, whole")
        return "/" + path.lstrip("/"), limit

    def write_report(self) -> None:
        result = self.result
        lines = [f"# Import report: {self.src.name}", "",
                 f"`sitegen import jekyll` made this site from the Jekyll site in `{self.src}`.", "",
                 f"- {result.posts} posts (content/posts/), {result.pages} pages (content/pages/), "
                 f"{result.collected} documents of collections (content/pages/_NAME/), "
                 f"{result.data} data files (content/data/)",
                 f"- {result.layouts} layouts converted to Jinja (templates/), {result.includes} includes "
                 f"(content/includes/, and templates/partials/ for those layouts use)",
                 f"- static folders and files, published as they are: {', '.join(result.static) or 'none'}", "",
                 "Check the result with `sitegen build` and `sitegen check --against <the old site's "
                 "sitemap>`: it names every URL that moved.", ""]
        notes = sorted(result.notes, key=lambda n: (n.path, n.line))
        lines += ["## What a visitor would see", "",
                  "Pages, styles, feeds or parts of pages that are missing or moved until these are done:", ""]
        lines += [_note_line(n) for n in notes if n.visible] or ["Nothing."]
        lines += ["", "## Settings and plugins carried over", ""]
        lines += [f"- {line}" for line in result.settings_taken + result.plugins] or ["Nothing besides the "
                                                                                     "usual settings."]
        lines += ["", "## Hosts the layouts load from", "",
                  "Readers' browsers fetch these from other hosts, as the Jekyll site had them do; each is in "
                  "site.yaml `check.allow_hosts` so that `sitegen check` accepts it. Copy a file into a static "
                  "folder and remove its host to stop that:", ""]
        lines += [f"- `{host}`: `{url}` (`{path}:{line}`)" for host, (path, line, url) in sorted(result.hosts.items())
                  ] or ["None."]
        lines += ["", "## Neutralised", "",
                 "What the converted templates would have run as code, or reached Python's internals "
                 "with, was left out or written as text:", ""]
        lines += [_note_line(n) for n in notes if n.neutralised] or ["Nothing."]
        lines += ["", "## To do by hand", ""]
        lines += [_note_line(n) for n in notes if not (n.neutralised or n.visible)] or ["Nothing."]
        lines += ["", "## Markdown settings to carry over", ""]
        if result.settings:
            lines += ["`kramdown.input` and `toc_levels` are carried over as site.yaml `markdown.header_ids` "
                      "and `markdown.toc_levels`. These other "
                      "kramdown options of _config.yml have no sitegen setting: sitegen renders what "
                      "Jekyll's defaults render, so check the pages that rely on them:", ""]
            lines += [f"- `{s}`" for s in result.settings]
        else:
            lines += ["None: _config.yml sets no kramdown options besides `input` and `toc_levels`, which "
                      "site.yaml `markdown.header_ids` and `markdown.toc_levels` carry."]
        lines += ["", "## Differences to know", "",
                  "- In the converted layouts, `{% if x %}` is `{% if x is liquid_true %}`: only nil and false "
                  "are false, as in Liquid (an empty string, list or 0 is true); Jinja's own `if` takes them as false.",
                  "- A front matter key Jekyll showed as `page.KEY` is `page.meta.KEY` in sitegen's templates.",
                  "- The converted layouts print values unescaped, as Liquid does (`| safe`); a template "
                  "you write yourself escapes what `{{ }}` prints, as Jinja does.",
                  "- Generated archive pages (blog, history, tags, categories, authors) are switched off in "
                  "site.yaml `archives`, as Jekyll made none.", ""]
        self.write("\n".join(lines), REPORT_FILE)

    # -- writing -------------------------------------------------------------------------------------

    def write(self, text: str, rel: str) -> None:
        self.copy(text.encode("utf-8"), rel)

    def copy(self, data: bytes, rel: str) -> None:
        target = (self.dest / rel).resolve()
        if not target.is_relative_to(self.dest):      # never outside DEST, whatever a name says
            raise SiteError(f"refusing to write {rel} outside the destination", self.dest)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def table_rows(data: bytes, delimiter: str) -> list[dict[str, str | None]] | None:
    """A CSV or TSV data file as Jekyll reads it: a mapping per row, by the header line's names,
    every value text (an empty field nil, as Ruby's CSV gives it); None if it is not a UTF-8 table."""
    import csv
    import io

    if not _is_utf8(data):
        return None
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=delimiter)
    try:
        header = next(reader, [])
        return [{name: (row[i] if i < len(row) and row[i] != "" else None) for i, name in enumerate(header)}
                for row in reader if row]
    except csv.Error:       # a NUL byte, say
        return None


# A tag's name, or a filter's (after a '|' outside quotes), in Liquid markup.
LIQUID_TAG = re.compile(r"\{%-?\s*(\w+)")
LIQUID_FILTER = re.compile(r"""("[^"]*"|'[^']*')|\|\s*(\w+)""")
BLOCK_PARTS = {"else", "elsif", "when", "raw", "endraw", "endcomment"}


def unknown_liquid(text: str) -> list[tuple[str, int, str]]:
    """The tags and filters of ``text``'s Liquid that sitegen's Liquid does not have: each
    name, where it is, and which it is; ``raw`` and ``comment`` blocks are passed over."""
    from generator.liquid import environment

    env = environment()
    found = []
    skip = re.compile(r"\{%-?\s*(raw|comment)\s*-?%\}.*?\{%-?\s*end\1\s*-?%\}", re.S)
    hidden = skip.sub(lambda m: " " * len(m.group(0)), text)
    for markup in re.finditer(r"\{\{.*?\}\}|\{%.*?%\}", hidden, re.S):
        tag = LIQUID_TAG.match(markup.group(0))
        if tag and tag.group(1) not in env.tags and tag.group(1) not in BLOCK_PARTS \
                and tag.group(1).removeprefix("end") not in env.tags:
            found.append((f"{{% {tag.group(1)} %}}", markup.start(), "tag"))
            continue
        for part in LIQUID_FILTER.finditer(markup.group(0)):
            if part.group(2) and part.group(2) not in env.filters:
                found.append((f"| {part.group(2)}", markup.start(), "filter"))
    return found


REDIRECT_KEY = re.compile(r"^([ \t]*)(redirect_(?:from|to)[ \t]*:)", re.M)


def split_names(front: str, meta: dict) -> str:
    """``tags: superbowl mqtt`` as the list Jekyll makes of it, ``tags: [superbowl, mqtt]``: Jekyll
    splits a string of ``tags`` or ``categories`` at its spaces (not ``tag`` or ``category``),
    sitegen would read one name."""
    for key in ("tags", "categories"):
        value = meta.get(key)
        if isinstance(value, str) and len(value.split()) > 1:
            line = re.compile(rf"^{key}[ \t]*:[ \t]*\S.*$", re.M)
            if len(line.findall(front)) == 1:
                front = line.sub(lambda _: f"{key}: {json.dumps(value.split(), ensure_ascii=False)}", front)
    return front


# Jekyll's include_relative of a named file (not {{ computed }}), its parameters after the name.
INCLUDE_RELATIVE = re.compile(r"(\{%-?\s*)include_relative\s+([\w./-]+)((?:\s[^%]*)?-?%\})")
RELATIVE_INCLUDES = "_relative"     # content/includes/_relative/PATH: a file include_relative reads


def _blank_lines(text: str, start: int) -> int:
    """How much of ``text`` from ``start`` Jekyll's front matter pattern takes besides its closing
    line: the whitespace up to its last line break (``\\s*$\\n?``, Ruby's ``\\s``)."""
    found = re.match(r"[ \t\r\n\f\v]*\n", text[start:start + 4096])
    return found.end() if found else 0


def gemfile_plugins(text: str) -> list[tuple[str, int]]:
    """The gems of a Gemfile's ``group :jekyll_plugins do ... end`` (or ``group: :jekyll_plugins``
    on a gem's line), with their lines."""
    found, depth = [], 0      # depth: blocks open inside the group (0: not in it)
    for number, line in enumerate(text.split("\n"), 1):
        code = line.split("#", 1)[0].strip()
        opens = bool(re.search(r"\bdo(\s*\|[^|]*\|)?$", code))
        if depth:
            depth += opens - (code == "end")
        elif opens and re.match(r"group\b.*:jekyll_plugins\b", code):
            depth = 1
            continue
        gem = re.match(r"""gem\s+["']([\w.-]+)["'](.*)""", code)
        if gem and (depth or re.search(r"group:\s*\[?\s*:jekyll_plugins|:group\s*=>\s*:jekyll_plugins", gem.group(2))):
            found.append((gem.group(1), number))
    return found


def ruby_date(value: Any) -> str | None:
    """A front matter date Jekyll reads (Ruby's ``Time.parse``) and sitegen does not, as
    YYYY-MM-DD: day first with slashes or dashes (``23/01/2022``, ``11-9-2017``), or year first
    with slashes; None for any other value."""
    if not isinstance(value, str):
        return None
    found = re.fullmatch(r"\s*(\d{1,2})[/-](\d{1,2})[/-](\d{4})\s*", value)
    if found:
        day, month, year = found.groups()
    else:
        found = re.fullmatch(r"\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*", value)
        if not found:
            return None
        year, month, day = found.groups()
    return f"{year}-{int(month):02d}-{int(day):02d}"


def _note_line(note: Note) -> str:
    return f"- `{note.path}:{note.line}`: `{note.construct}`: {note.action}"


def _matches(rel: str, pattern: str) -> bool:
    pattern = pattern.strip("/")
    return rel == pattern or rel.startswith(pattern + "/") or fnmatch.fnmatch(rel, pattern)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _yaml_line(key: str, value: Any) -> str:
    """``key: value`` as a line (or lines) of YAML, to add to a front matter."""
    return yaml.safe_dump({key: value}, allow_unicode=True, width=10**6)


def _shifted(note: Note, lines: int) -> Note:
    return dataclasses.replace(note, line=note.line + lines)


REDIRECT_TEMPLATE = """<!DOCTYPE html>
<html lang="{{ site.language }}">
<head>
  <meta charset="utf-8">
  <title>Redirecting…</title>
  <link rel="canonical" href="{{ target | absolute_url }}">
  <meta http-equiv="refresh" content="0; url={{ target | relative_url }}">
  <meta name="robots" content="noindex">
</head>
<body>
  <p>This page has moved to <a href="{{ target | relative_url }}">{{ target | absolute_url }}</a>.</p>
</body>
</html>
"""

NOT_FOUND_TEMPLATE = """<!DOCTYPE html>
<html lang="{{ site.language }}">
<head>
  <meta charset="utf-8">
  <title>Page not found | {{ site.title }}</title>
</head>
<body>
  <h1>Page not found</h1>
  <p>The page you asked for is not here.</p>
</body>
</html>
"""
