"""Load ``site.yaml``: sitegen's own keys (:class:`generator.config.Config`), each planner's
section and each plugin's, checked before any work.

A planner owns the keys of the output it makes (``Planner.section``, see
:mod:`generator.outputs`): a dataclass whose fields are top-level keys of site.yaml,
with their types, defaults and checks, as a plugin's ``add_config_section`` is. This
module gathers them from the registry, so a new kind of output brings its keys in its
own module. It sits above the planners, which read the settings (``generator.config``)
and which it asks for their sections: loading the settings loads the planners' modules,
as any build does.
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

from generator import codec
from generator.cache import local_key, write_atomic
from generator.config import Config, check_known, keys_of, load_keys, require_mapping
from generator.confine import NEVER_READ, site_path
from generator.errors import SiteError
from generator.layout import ASSETS, CONFIG_FILE, RESERVED, STATE_DIR
from generator.outputs.registry import config_sections
from generator.plugins import extensions


def load_config(root: str | Path = ".", **overrides: Any) -> Config:
    """Load and validate ``root/site.yaml``; ``overrides`` replace top-level keys."""
    root = Path(root).resolve()
    path = root / CONFIG_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SiteError("no site.yaml here: is this a sitegen site?", path) from None
    data = _site_yaml(root, path, text)
    if data is None:
        data = {}
    data = {**require_mapping(data, path, "the top level"), **overrides}
    sections = config_sections()
    owned = [name for section in sections for name in keys_of(section)]
    plugin_sections = extensions().sections
    taken = sorted(plugin_sections.keys() & {*Config.__dataclass_fields__, *owned})
    if taken:
        raise SiteError(f"a plugin's config section {taken[0]!r} is already taken by sitegen's own")
    plugins = {name: load_keys(schema, require_mapping(data.pop(name, {}), path, f"key '{name}'"), path, name + ".")
               for name, schema in plugin_sections.items()}
    check_known(data, {*keys_of(Config), *owned}, path, prefix="")
    planned = [load_keys(section, {name: data.pop(name) for name in keys_of(section) if name in data}, path, "")
               for section in sections]
    config = load_keys(Config, data, path, prefix="")
    config = dataclasses.replace(config, root=root, plugins=plugins, sections={
        name: getattr(values, name) for values in planned for name in keys_of(type(values))})
    _check_places(config, path)
    for values in planned:
        if hasattr(values, "check"):
            values.check(config, path)
    return _switched_off(config, planned)


def _switched_off(config: Config, planned: list[Any]) -> Config:
    """The keys templates read for an output that ``outputs`` switches off, off too (each
    section's ``switched_off``): no page links a feed or an archive the build does not make,
    nor loads search without an index."""
    off = {name for name, on in config.outputs.items() if not on}
    if not off:
        return config
    values = [section.switched_off(off) for section in planned if hasattr(section, "switched_off")]
    return config.replace(**{name: getattr(section, name) for section in values for name in keys_of(type(section))})


def _site_yaml(root: Path, path: Path, text: str) -> Any:
    """site.yaml's YAML: parsed, or as the last parse of the same text left it in ``.sitegen/``,
    so that a build with nothing to do loads no YAML parser. Kept only where it reads back
    the same, and only once the site has a ``.sitegen/`` (a first build made it) that is a
    folder, not a link to one (see :mod:`generator.statedir`)."""
    kept = root / STATE_DIR / "site-yaml.msgpack"
    own = kept.parent.is_dir() and not kept.parent.is_symlink()
    key = hashlib.sha256(text.encode()).hexdigest()
    secret = local_key(kept.parent)
    try:
        saved = codec.loads("site-yaml", kept.read_bytes(), secret) if own else None
        if saved is not None and saved["text"] == key:
            return saved["value"]
    except (OSError, ValueError, TypeError, KeyError):   # none yet, or garbled: parse
        pass
    from generator.yamltext import parse_yaml

    value = parse_yaml(text, path)
    data = codec.dumps_exact("site-yaml", {"text": key, "value": value}, secret)
    try:
        if data is not None and own:
            write_atomic(kept, data)
    except OSError:             # a folder not ours
        pass
    return value


def _check_places(config: Config, path: Path) -> None:
    """The folders site.yaml names must be places in the site, not outside it."""
    folder = config.branding.folder
    if folder:
        theme, key = folder.strip("/"), "theme" if isinstance(config.theme, str) else "theme.folder"
        if folder.startswith("/") or any(p in ("", ".", "..") for p in theme.split("/")) \
                or not _confined(config, theme) or not (config.root / theme).is_dir():
            raise SiteError(f"key '{key}': expected a folder inside the site holding templates/ "
                            f"(and assets/), got {folder!r}", path)
    reserved = {*RESERVED, config.output.strip("/"), ASSETS, *config.theme_paths}
    for i, name in enumerate(config.static):
        key, clean = f"static[{i}]", name.strip("/")
        parts = clean.split("/")
        if not clean or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise SiteError(f"key '{key}': expected a folder or file inside the site, like 'images', "
                            f"got {name!r}", path)
        if parts[0] in reserved:
            why = ("is always published" if parts[0] == ASSETS else "is the site's theme"
                   if parts[0] in config.theme_paths else "holds the site's sources or output")
            raise SiteError(f"key '{key}': {parts[0]!r} {why}; it cannot be a static folder", path)
        if not _confined(config, clean):
            raise SiteError(f"key '{key}': {clean!r} leads out of the site or into its .git/ or .sitegen/", path)
        if not (config.root / clean).exists():
            raise SiteError(f"key '{key}': there is no {clean!r} in {config.root}", path)


def _confined(config: Config, name: str) -> bool:
    """A theme or static path of site.yaml lies in the site (unless links outside are allowed),
    never in its .git/ or .sitegen/."""
    return site_path(config.root, name, named=True) is not None or (
        config.allow_symlinks_outside and not any(part in NEVER_READ for part in name.split("/")))
