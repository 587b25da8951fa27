"""The Jinja environment: the theme's loader chain, filters, globals, and error locations.

Templates are looked up in the site's ``templates/``, then in its theme
folder (site.yaml ``theme``), then in the default theme shipped inside the
package, so a site overrides only the templates it wants to change.
Templates see plain values (``site``, ``page``, ``paginator``) and a few
filters; they never reach into the generator. Any failure while rendering is
turned into a :class:`SiteError` at the template file and line that caused it.
"""

from __future__ import annotations

import functools
import json
import operator
import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable

import jinja2
from markupsafe import Markup

from generator.buildtime import NOW, BuildTime
from generator.config import Config
from generator.deps import record
from generator.errors import SiteError
from generator.files import is_file
from generator.layout import DEFAULT_THEME, TEMPLATES
from generator.outputs.social import card_url as social_card_url
from generator.plugins import extensions
from generator.ruby_values import jekyll_matches, jekyll_sorted, ruby_text
from generator.placement import timezone_of
from generator.site import group_url, slugify
from generator.sources import parse_date
from generator.urls import relative_url

TEMPLATES_DIR = TEMPLATES


def theme_dirs(config: Config) -> list[Path]:
    """The theme folders, first match wins: the site's own, its theme's, the default theme."""
    return [config.root, *(config.root / name for name in config.theme_paths), DEFAULT_THEME]


def template_dirs(config: Config) -> list[Path]:
    return [folder / TEMPLATES_DIR for folder in theme_dirs(config)]


def missing_templates(folders: list[Path], required: tuple[str, ...]) -> list[str]:
    """The ``required`` template names none of ``folders`` has."""
    return [name for name in required if not any((folder / name).is_file() for folder in folders)]


class DataFiles:
    """``site.data``: the parsed ``content/data/*.yml``; a missing name is an error.

    Each lookup is recorded, so a page is rebuilt when a data file it reads changes.
    """

    def __init__(self, data: dict[str, Any]):
        self._data = data

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name: str) -> Any:
        record(("data", name))
        try:
            return self._data[name]
        except KeyError:
            raise SiteError(f"site.data.{name}: the data file content/data/{name}.yml does not exist") from None

    def __contains__(self, name: str) -> bool:
        record(("data", name))
        return name in self._data

    def __iter__(self):
        record(("names", "data"))
        return iter(self._data)


class RecordingLoader(jinja2.FileSystemLoader):
    """Records every template a render uses, through extends, include and import.

    Jinja asks the ``uptodate`` callback each time it takes a template from its
    cache, so wrapping it records cached uses as well as first loads. It answers
    "current" without looking at the file: the engine, whose scan sees every
    edit of a template (even one within a timestamp tick, which Jinja's own
    check misses), empties the cache when one changes.
    """

    def get_source(self, environment: jinja2.Environment, template: str):
        record(("template", template))
        source, filename, _ = super().get_source(environment, template)

        def used_again() -> bool:
            record(("template", template))
            return True

        return source, filename, used_again


class CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Templates compiled by an earlier process, in the user's cache folder
    (``$XDG_CACHE_HOME/sitegen/templates``), used only while only the user may write it:
    compiled code is code, so not in ``.sitegen/``, which travels. A file is named by what
    compiled it (sitegen's code and the site's settings, which Jinja's optimizer folds into the
    code: a constant URL through ``relative_url`` holds the baseurl), the template's name and
    its file, and holds the digest of the source it was compiled from. The default theme's 35
    templates compile in 111-138 ms and load in 5 ms in a fresh process (an edit build's
    rendering stage: 39 -> 5-7 ms). A folder that cannot be used, or written, is no cache."""

    @classmethod
    def under(cls, compiler: str) -> CompiledTemplates | None:
        folder = _private_folder(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
                                 / "sitegen" / "templates")
        return None if folder is None else cls(str(folder), f"{compiler[:32]}-%s.cache")

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _private_folder(path: Path) -> Path | None:
    """``path`` (made if missing) if it is a folder of this user's that no one else may use."""
    if not hasattr(os, "getuid"):
        return None
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.lstat()
    except (OSError, RuntimeError):        # RuntimeError: no home folder
        return None
    private = stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) == 0o700
    return path if private else None


# Liquid's nil, for templates converted from Liquid (generator.importers.liquid): shows as
# nothing, is false, and any key or attribute of it is nil again, as in Liquid.
NIL = jinja2.ChainableUndefined(name="nil")


class Renderer:
    """Renders named templates of one site."""

    def __init__(self, config: Config, required: tuple[str, ...] = (), compiler: str = ""):
        """``required``: the templates every theme must have (the build gives those its planners
        name: :func:`generator.outputs.registry.required_templates`). ``compiler`` names what compiles the
        templates (sitegen's code and the site's settings): if given, compiled templates are kept
        between processes under it (:class:`CompiledTemplates`)."""
        self.config, self.compiler = config, compiler
        self.folders = template_dirs(config)
        missing = missing_templates(self.folders, required)
        if missing:
            raise SiteError(f"the theme lacks the templates {', '.join(missing)}: add them to templates/"
                            + "".join(f" or to {name}/templates/" for name in config.theme_paths), config.root)
        self.env = jinja2.Environment(
            loader=RecordingLoader(self.folders),
            auto_reload=True,  # RecordingLoader relies on Jinja asking whether a cached template is current
            autoescape=jinja2.select_autoescape(("html", "xml")),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            extensions=["jinja2.ext.loopcontrols"],     # Liquid's break and continue, in converted layouts
            bytecode_cache=CompiledTemplates.under(compiler) if compiler else None,
        )
        self.env.filters.update(
            relative_url=at_render(lambda url: self.relative_url(site_rooted(url))),
            absolute_url=at_render(self.absolute_url),
            date=jinja2.pass_context(lambda context, *args: self.date_filter(context, *args)),
            slugify=slugify,
            safe_html=Markup,
            item=item,
            jekyll_sort=jekyll_sort,
            jekyll_where=jekyll_where,
            jekyll_where_exp=jekyll_where_exp,
            liquid_output=liquid_output,
            jekyll_group_by_exp=jekyll_group_by_exp,
            jekyll_map=jekyll_map,
            jekyll_join=jekyll_join,
            jekyll_group_by=jekyll_group_by,
            jekyll_reverse=jekyll_reverse,
            jekyll_highlight=jekyll_highlight,
            each_pair=each_pair,
            jsonify=jsonify,
            markdown_inline=markdown_inline,
            social_card=social_card_url,
            liquid=liquid_filter,
            liquid_size=liquid_size,
            liquid_order=liquid_order,
            liquid_contains=liquid_contains,
            liquid_empty=liquid_empty,
            regex_replace=regex_replace,
        )
        self.env.filters.update(extensions().filters)
        self.env.tests["liquid_true"] = liquid_true
        self.env.globals.update(
            tag_url=self.tag_url,
            edit_url=self.edit_url,
            nil=NIL,
            # Liquid's `include` outside an include given parameters (a layout's, crystal-lang's
            # event layout; an include given none): nil, where converted templates read it.
            include=NIL,
        )

    def relative_url(self, url: str) -> str:
        return relative_url(self.config, url)

    def tag_url(self, tag: str) -> str:
        """The page listing a tag's posts (site.yaml ``archives.tags`` places them)."""
        index = self.config.archives.tags
        if index is False:
            raise SiteError("tag_url: tag pages are switched off (site.yaml archives.tags: false)")
        return self.relative_url(group_url(index, tag))

    def edit_url(self, source: Any) -> str:
        """The link editing ``source`` (a path in the site) in site.yaml's ``repository``; "" if none."""
        return self.config.repository.edit_url(Path(source).as_posix()) if source else ""

    def absolute_url(self, url: str) -> str:
        if not isinstance(url, str) or "://" in url:
            return url
        return self.config.url.rstrip("/") + self.relative_url(url if url.startswith("/") else "/" + url)

    def date_filter(self, context: jinja2.runtime.Context, value: Any, fmt: str = "%b %d, %Y") -> str:
        """The ``date`` filter: :meth:`format_date`, and the build's time (``site.time``, or
        ``"now"`` as Liquid's ``date`` reads it), noted in the format the page shows it in; nil
        (a converted layout's) is nothing, as Liquid prints it."""
        if value is None or isinstance(value, jinja2.ChainableUndefined):
            return ""
        if isinstance(value, str) and value in NOW and isinstance(context.get("site"), Mapping):
            value = context["site"].get("time", value)
        if isinstance(value, BuildTime):
            return value.format(fmt)
        return self.format_date(value, fmt)

    def format_date(self, value: datetime | date | str | None, fmt: str = "%b %d, %Y") -> str:
        """``value`` as text; a string is read as front matter dates are (``last_modified_at:
        2021-02-03 04:05:06 +0000``), in the site's time zone unless it gives an offset."""
        if isinstance(value, str):
            value = parse_date(value, timezone_of(self.config), Path(TEMPLATES_DIR), "date")
        return format_date(value, fmt)

    def has_template(self, name: str) -> bool:
        record(("template", name))
        return self.template_file(name) is not None

    def template_file(self, name: str) -> Path | None:
        """The file template ``name`` is read from: the first of the chain that has it."""
        return next((folder / name for folder in self.folders if is_file(folder / name)), None)

    def template_digest(self, name: str, file_digest: Callable[[str], str | None]) -> str | None:
        """What stands for template ``name`` in the dependency records (see :mod:`generator.deps`).

        The default theme is part of sitegen, whose code every build's
        fingerprint covers; a file of the site is its digest.
        """
        path = self.template_file(name)
        if path is None:
            return None
        if path.is_relative_to(DEFAULT_THEME):
            return "default theme"
        return file_digest(path.relative_to(self.config.root).as_posix())

    def shown(self, name: str) -> Path:
        """Template ``name`` as errors name it: relative to the site, or in the default theme."""
        path = self.template_file(name)
        if path is None:
            return Path(TEMPLATES_DIR) / name
        if path.is_relative_to(DEFAULT_THEME):
            return Path("<default theme>") / TEMPLATES_DIR / name
        return path.relative_to(self.config.root)

    def compile_all(self) -> None:
        """Compile every template now (the preview, before an edit wants one); one that does not
        compile is left to the render that uses it, which names the line."""
        for name in self.env.list_templates(filter_func=lambda name: not name.startswith(".")):
            try:
                self.env.get_template(name)
            except jinja2.TemplateError:
                continue

    def render(self, template: str, context: dict[str, Any], source: Path | None = None) -> str:
        """Render ``template``; errors name the template line (and the source it was for), and
        a source's page larger than site.yaml's ``limits.max_output_bytes`` is one too."""
        try:
            html = self.env.get_template(template).render(context)
        except jinja2.TemplateSyntaxError as exc:
            raise SiteError(f"template syntax error: {exc.message}",
                            self.shown(exc.name or template), exc.lineno) from None
        except Exception as exc:  # noqa: BLE001 - any failure inside a template is the template's
            name, line = self._template_frame(exc)   # an {% include %} that is missing, say
            if isinstance(exc, jinja2.TemplateNotFound):
                message = f"template {exc.name!r} not found in {TEMPLATES_DIR}/ or the theme"
            else:
                message = exc.message if isinstance(exc, SiteError) else f"{type(exc).__name__}: {exc}"
            if source is not None:
                message += f" (while rendering {source})"
            if name is None:
                raise SiteError(message, source) from None
            raise SiteError(message, self.shown(name), line) from None
        limit = self.config.limits.max_output_bytes
        if source is not None and len(html) > limit and len(html.encode("utf-8")) > limit:
            raise SiteError(f"its page is {len(html.encode('utf-8')):,} bytes of HTML, more than site.yaml's "
                            f"limits.max_output_bytes ({limit:,})", source)
        return html

    def _template_frame(self, exc: BaseException) -> tuple[str | None, int | None]:
        """The innermost template file and line in ``exc``'s traceback."""
        found: tuple[str | None, int | None] = (None, None)
        tb = exc.__traceback__
        roots = [folder.resolve() for folder in self.folders]
        while tb is not None:
            filename = Path(tb.tb_frame.f_code.co_filename)
            for root in roots:
                if filename.is_relative_to(root):
                    found = (filename.resolve().relative_to(root).as_posix(), tb.tb_lineno)
                    break
            tb = tb.tb_next
        return found


SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def site_rooted(url: Any) -> Any:
    """A path the ``relative_url`` filter is given, from the site's root: Jekyll's filter puts
    a ``/`` before one without (``'img/logo.png' | relative_url`` is ``/img/logo.png`` on
    jekyll/jekyll's pages); a URL with a scheme is left as it is."""
    if isinstance(url, str) and url and not url.startswith("/") and not SCHEME.match(url):
        return "/" + url
    return url


def at_render(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter that reads the settings, run when a page renders and never when its template
    compiles (Jinja runs a filter of constants then): the render must note the settings it read."""
    return jinja2.pass_context(lambda _context, *args, **kwargs: function(*args, **kwargs))


@jinja2.pass_environment
def item(env: jinja2.Environment, value: Any, key: Any) -> Any:
    """``value[key]``, never an attribute, which ``value[key]`` in a template falls back to
    (``x["__class__"]``): how templates converted from Liquid look up a key known only when
    rendering (``site.data[page.lang]``). A key it lacks is nil, as in Liquid: its own keys are nil too
    (``site.data.authors[author].name`` for an author the data does not list). A string has no
    keys in Liquid, no index either: ``"release"[0]`` is nil (livy's ``categories_list.first[0] == null``)."""
    if isinstance(value, jinja2.Undefined):
        return value
    if isinstance(value, str):
        return NIL
    if isinstance(value, DataFiles) and key not in value:    # Liquid's nil (drill-site's site.data[docs_zh])
        return NIL
    try:
        return value[key]
    except (LookupError, TypeError):
        return NIL


def liquid_true(value: Any) -> bool:
    """Liquid's truth, for conditions converted from Liquid: all is true but nil and false (an
    empty string or list, 0 too, which Jinja's ``if`` takes as false)."""
    return not (value is None or value is False or isinstance(value, jinja2.Undefined))


def liquid_size(value: Any) -> Any:
    """Liquid's ``x.size``, for templates converted from Liquid: a mapping's own ``size`` key
    first, else the length of a list, mapping or string; nil for nil or a value without one
    (Ruby's nil has no ``size``: drill-site's ``page_data.children.size == 0`` with page_data nil
    is false in Jekyll, where Jinja's ``length`` gives 0). The ``size`` filter stays ``length``:
    Liquid's filter gives 0 for nil."""
    if isinstance(value, Mapping) and "size" in value:
        return value["size"]
    if value is None or isinstance(value, jinja2.Undefined):
        return NIL
    try:
        return len(value)
    except TypeError:
        return NIL


ORDERS = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}


def liquid_order(left: Any, op: str, right: Any) -> bool:
    """Liquid's ``<``, ``>``, ``<=``, ``>=``, for conditions converted from Liquid: false where a
    side is nil, true or false, a list or a mapping (Ruby's values without the operator, for which
    Liquid's condition is nil, no error); numbers, strings and dates by Python's order (a number
    against a string stops the build, as Ruby's ArgumentError stops Jekyll's)."""
    if not (_ordered(left) and _ordered(right)):
        return False
    return ORDERS[op](left, right)


def liquid_contains(left: Any, right: Any) -> bool:
    """Liquid's ``contains``, for conditions converted from Liquid: false where a side is nil (rails'
    ``speaker.path contains page.speaker`` on a session without one, where Jinja's ``in`` stops), a
    string holding the other side's text (Ruby's ``to_s``), a list or mapping holding it as an item
    or key; false for anything else, which has no ``include?``."""
    if left is None or right is None or isinstance(left, jinja2.Undefined) or isinstance(right, jinja2.Undefined):
        return False
    if isinstance(left, str):
        return ruby_text(right) in left
    if isinstance(left, (list, tuple, Mapping)):
        return right in left
    return False


def liquid_empty(value: Any) -> bool:
    """Liquid's ``x == empty``, for conditions converted from Liquid: Ruby's ``empty?``, which only a
    string, a list or a mapping has; nil and anything else are not empty (the condition is nil)."""
    return isinstance(value, (str, list, tuple, Mapping)) and not value


def _ordered(value: Any) -> bool:
    return isinstance(value, (int, float, str, date)) and not isinstance(value, bool)


def each_pair(value: Any) -> Any:
    """What Liquid's ``for`` loops over: a mapping as its ``[key, value]`` pairs, in order (Ruby's
    Hash#each), where Jinja would loop over its keys alone; a string as one item, whole (swift.org's
    ``for page_author in page.author``, nim-lang's ``for author in page.author``), where Jinja would
    loop over its characters; anything else as it is."""
    if isinstance(value, Mapping) and not hasattr(value, "front_matter_keys"):
        return [[key, item] for key, item in value.items()]
    if isinstance(value, str):
        return [value] if value else []
    return value


def jekyll_property(env: jinja2.Environment, item: Any, attribute: str) -> Any:
    """``item``'s ``attribute`` (dotted: a document's front matter key is ``meta.order``); nil
    where it has none."""
    for part in attribute.split("."):
        # a mapping's key, never its method (``items``): a document's fields are attributes
        item = item.get(part) if isinstance(item, dict) else env.getitem(item, part)
        if item is None or isinstance(item, jinja2.Undefined):
            return None
    return item


@jinja2.pass_environment
def jekyll_where(env: jinja2.Environment, items: Any, attribute: str, target: Any) -> list[Any]:
    """Jekyll's ``where`` for templates converted from Liquid: an item without the key is nil
    (where Jinja's ``selectattr`` would stop the build), a list value matches by membership."""
    return [item for item in items if jekyll_matches(jekyll_property(env, item, attribute), target)]


def _flat(items: Any) -> Iterator[Any]:
    """Liquid's InputIterator: a list's items, lists in it flattened; nil none; another value itself."""
    if items is None or isinstance(items, jinja2.Undefined):
        return
    for item in [items] if isinstance(items, (str, Mapping)) or not isinstance(items, Iterable) else items:
        yield from _flat(item) if isinstance(item, (list, tuple)) else [item]


@jinja2.pass_environment
def jekyll_map(env: jinja2.Environment, items: Any, attribute: str) -> list[Any]:
    """Liquid's ``map``, for templates converted from Liquid: each item's ``attribute``, nil
    where it has none (jekyll/jekyll's ``site.data.tutorials | map: 'tutorials'``)."""
    return [jekyll_property(env, item, attribute) for item in _flat(items)]


def jekyll_join(items: Any, glue: Any = " ") -> str:
    """Liquid's ``join``: lists in the list flattened, each item as Ruby writes it (nil as nothing)."""
    return ruby_text(glue).join(ruby_text(item) for item in _flat(items))


@jinja2.pass_context
def jekyll_where_exp(context: jinja2.runtime.Context, items: Any, name: str, condition: str) -> list[Any]:
    """Jekyll's ``where_exp`` for templates converted from Liquid: the items for which
    ``condition`` (Jinja the import wrote from the Liquid one) is true, ``name`` being the item."""
    test = _compiled_condition(context.environment, condition)
    names = _names(context)
    return [item for item in (items or ()) if liquid_true(test(**{**names, name: item}))]


def liquid_output(value: Any) -> Markup:
    """A converted template's ``{{ value }}``, as Liquid prints it: unescaped (Liquid escapes
    nothing unasked), a list as its items' text joined (just-the-docs' ``{{ link.last }}`` of
    ``aux_links: {GitHub: ["//github.com/..."]}``), nil as nothing, true as ``true``."""
    if isinstance(value, str):
        return Markup(value)
    if isinstance(value, (list, tuple)):
        return Markup("".join(ruby_text(item) for item in _flat(value)))
    return Markup(ruby_text(value))


@jinja2.pass_context
def jekyll_group_by_exp(context: jinja2.runtime.Context, items: Any, name: str, expression: str) -> list[dict[str, Any]]:
    """Jekyll's ``group_by_exp`` for templates converted from Liquid: ``{name, items, size}`` for
    each value of ``expression`` (Jinja the import wrote from the Liquid one), ``name`` being the
    item, in the order the values first come; the value as it is (Jekyll's is not made text)."""
    evaluate = _compiled_condition(context.environment, expression)
    names = _names(context)
    groups: dict[Any, dict[str, Any]] = {}
    found: list[dict[str, Any]] = []      # in the order the values first come
    for entry in items or ():
        value = evaluate(**{**names, name: entry})
        value = None if isinstance(value, jinja2.Undefined) else value
        try:     # by Ruby's eql?: 1 and 1.0, true and 1, are apart
            group = groups.get((type(value), value))
        except TypeError:    # a list or mapping
            group = next((g for g in found if type(g["name"]) is type(value) and g["name"] == value), None)
        if group is None:
            found.append(group := {"name": value, "items": []})
            try:
                groups[(type(value), value)] = group
            except TypeError:
                pass
        group["items"].append(entry)
    return [{**group, "size": len(group["items"])} for group in found]


def _names(context: jinja2.runtime.Context) -> dict[str, Any]:
    """What a compiled expression sees of the template's names: all but ``self``, Jinja's template
    reference, which a layout that others extend holds and the expression's call takes as its own."""
    names = context.get_all()
    return {name: value for name, value in names.items() if name != "self"} if "self" in names else names


@functools.lru_cache(maxsize=256)
def _compiled_condition(env: jinja2.Environment, condition: str) -> Callable[..., Any]:
    return env.compile_expression(condition, undefined_to_none=False)


@jinja2.pass_environment
def jekyll_sort(env: jinja2.Environment, value: Any, attribute: str | None = None, nils: str = "first") -> Any:
    """Jekyll's ``sort``, for templates converted from Liquid: a mapping (``site.data.locales``)
    sorts into its ``[key, value]`` pairs, by key, as Ruby's ``Hash#sort`` does; a list by a
    property (a document's front matter key: ``meta.order``) as Jekyll sorts it
    (:func:`generator.ruby_values.jekyll_sorted`: nils first unless ``nils="last"``); anything
    else as Jinja's ``sort`` sorts it."""
    if isinstance(value, Mapping):
        return [[key, value[key]] for key in sorted(value)]
    if attribute is None:
        return jinja2.filters.do_sort(env, value)
    try:
        return jekyll_sorted(list(value), lambda item: jekyll_property(env, item, attribute), nils)
    except ValueError as error:
        raise jinja2.TemplateRuntimeError(str(error)) from None


@jinja2.pass_environment
def jekyll_group_by(env: jinja2.Environment, items: Any, attribute: str) -> list[dict[str, Any]]:
    """Jekyll's ``group_by`` for templates converted from Liquid: ``{name, items, size}`` for each
    value of ``attribute`` as Ruby writes it (nil is ""), in the order the values first come."""
    groups: dict[str, list[Any]] = {}
    for entry in items:
        groups.setdefault(ruby_text(jekyll_property(env, entry, attribute)), []).append(entry)
    return [{"name": name, "items": found, "size": len(found)} for name, found in groups.items()]


def jekyll_reverse(value: Any) -> Any:
    """Liquid's ``reverse`` for templates converted from Liquid: a new list, which a loop may read
    again and again (Jinja's ``reverse`` is an iterator, spent by the first: bitcoincore.org's blogs
    look a post's translation up in a reversed list, once per post); text as it is."""
    if isinstance(value, str) or isinstance(value, jinja2.Undefined) or value is None:
        return value
    return list(reversed(list(value)))


def jekyll_highlight(code: Any, language: str, linenos: bool = False) -> Markup:
    """Jekyll's ``{% highlight %}`` around Liquid in a converted layout (``{{ content }}`` shown as
    code): what the block rendered, as text, highlighted as sitegen highlights a page's code."""
    from generator.highlight import highlight     # Pygments only where a layout asks (tests/test_startup.py)
    return Markup(highlight(str(code).strip("\r\n") + "\n", language, linenos=linenos))


def jsonify(value: Any) -> Markup:
    """Jekyll's ``jsonify``, for templates converted from Liquid: nil is ``null``, and a mapping
    keeps its keys' order, without spaces, as Ruby's ``JSON.generate`` writes it (Jinja's
    ``tojson`` sorts and spaces them); ``<>&'`` are escaped as ``tojson`` escapes them, so the
    JSON stays safe in a script or an attribute."""
    value = None if isinstance(value, jinja2.Undefined) else value
    return jinja2.utils.htmlsafe_json_dumps(value, dumps=json.dumps, separators=(",", ":"),
                                            ensure_ascii=False, default=str)


def format_date(value: datetime | None, fmt: str = "%b %d, %Y") -> str:
    if value is None:
        return ""
    if fmt == "iso":
        return value.isoformat()
    return value.strftime(fmt)


def markdown_inline(text: str) -> Markup:
    """One paragraph of Markdown as the HTML inside its ``<p>`` (site.yaml's announcement)."""
    from generator.markdown import render_markdown

    html = render_markdown(text.strip()).html.strip()
    return Markup(html.removeprefix("<p>").removesuffix("</p>"))


def regex_replace(value: Any, pattern: str, replacement: str) -> Any:
    """Every match of ``pattern`` replaced (Python's ``re.sub``), HTML staying HTML: how a layout
    converted from a jekyll-polyglot site rewrites its links into the page's language."""
    replaced = _compiled(pattern).sub(replacement, str(value))
    return Markup(replaced) if isinstance(value, Markup) else replaced


@functools.lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def liquid_filter(value: Any, name: str, *args: Any) -> Any:
    """A Liquid filter of a layout converted from Jekyll (``x | liquid("plus", 1)``), run by
    python-liquid's own code with Liquid's semantics; imported by the sites that use one."""
    from generator.liquid import standard_filter

    # Liquid's strings are plain text: a captured block (Markup in Jinja) would escape what
    # replace or append put in (" />" -> "&gt;" in brew.sh's layout).
    # Jinja's selectattr and map give generators, where Liquid's filters take arrays.
    plain = [str(item) if isinstance(item, Markup) else list(item) if isinstance(item, Iterator) else item
             for item in (value, *args)]
    found = standard_filter(name)(*plain)
    return NIL if found is None else found     # Liquid's nil prints as nothing, Python's None as "None"
