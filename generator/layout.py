"""Where things are in a site: every folder and file name sitegen reads or writes.

A module that needs a place in the site takes its name from here, so the
build's inputs, what the preview watches, what can never be a static folder
or an output folder, and where caches live cannot disagree. Paths are POSIX,
relative to the site's folder (the one holding ``site.yaml``).
"""

from pathlib import Path

CONFIG_FILE = "site.yaml"

CONTENT = "content"
POSTS = "content/posts"            # YYYY-MM-DD-slug.md
PAGES = "content/pages"
DATA = "content/data"              # NAME.yml -> site.data.NAME
DOCS = "content/docs"              # the docs section, once per version
INCLUDES = "content/includes"      # Liquid includes
NOTEBOOKS = "notebooks"            # tutorials
TEMPLATES = "templates"            # the site's own templates, over its theme's
ASSETS = "assets"                  # copied as they are, like site.yaml's static folders

STATE_DIR = ".sitegen"             # everything sitegen keeps between builds
STATE_FILE = "state.msgpack"       # in STATE_DIR: what the last build made from what
LOCK_FILE = "lock"                 # in STATE_DIR: one build at a time
KEY_FILE = "key"                   # in STATE_DIR: this checkout's secret, which seals its cache files
KEY_VARIABLE = "SITEGEN_CACHE_KEY"  # a secret in the environment instead: CI's, whose checkouts are fresh
STAGING_DIR = "staging"            # in STATE_DIR: a build's files, until all of them are made
CACHE_DIR = ".sitegen/cache"       # parsed documents, notebook runs (site.yaml notebooks.cache_dir)
VERSIONS_DIR = "versions"          # in STATE_DIR: each docs version as last built
OUTPUT_MARKER = ".sitegen-output"  # in every output folder sitegen makes: its files are sitegen's to replace

# What kind of source each folder of content/ holds.
SOURCE_FOLDERS = (("post", POSTS), ("page", PAGES), ("data", DATA))
# The site's inputs, beside its static folders and theme (Config.static_paths, Config.theme_paths).
INPUTS = (CONFIG_FILE, CONTENT, NOTEBOOKS, TEMPLATES)
# Edits under these leave the site's structure (collections, plan) as it was, unless a
# document's placement changes: see generator.engine.loading.swap_in.
SWAPPABLE = (POSTS, PAGES, TEMPLATES)
# Watched by the preview, with site.yaml, the static folders and the theme.
WATCHED = (CONTENT, NOTEBOOKS, TEMPLATES)
# The site's sources and sitegen's own: never a static folder, never the output folder or under it.
SOURCES = (CONTENT, TEMPLATES, NOTEBOOKS, "generator", ".git", STATE_DIR)
RESERVED = (CONFIG_FILE, *SOURCES)

# The default theme, inside the package (no site's file): templates/ and assets/ under it, and vendor/.
DEFAULT_THEME = Path(__file__).parent / "themes" / "default"
VENDOR = DEFAULT_THEME / "vendor"         # the chart libraries, published only where a page draws with them
