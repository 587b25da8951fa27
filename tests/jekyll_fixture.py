"""The shared TVM corpus laid out as the Jekyll site it came from, for import tests.

The corpus holds the site's content only; the configuration, layouts and
includes here are written for the tests, shaped like apache/tvm-site's (a
`default` layout that `post` and `page` are placed in, a header include
looping over `site.data.menus`, `JB/setup`), with Liquid that converts to
Jinja and some that does not. Files the content links to under /images/ and
/assets/ are made as small placeholders, so that links resolve as on the
real site.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

CONFIG = """\
# Test configuration, shaped like apache/tvm-site's
title: Apache TVM
url: https://tvm.apache.org
baseurl: ""
description: An end to end machine learning compiler framework
permalink: /:categories/:year/:month/:day/:title
timezone: UTC
markdown: kramdown
highlighter: rouge
kramdown:
  input: GFM
  hard_wrap: false
  auto_ids: true
exclude: [README.md, Gemfile, scripts, docs]
defaults:
  - scope: {path: "", type: posts}
    values: {layout: post}
production_url: https://tvm.apache.org
JB:
  version: 0.3.0
"""

LAYOUTS = {
    "default.html": """\
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>{{ page.title | escape }} | {{ site.title }}</title>
  {% if page.description %}<meta name="description" content="{{ page.description | escape }}">{% endif %}
  <link rel="stylesheet" href="{{ '/css/custom.css' | relative_url }}">
  <link rel="canonical" href="{{ page.url | absolute_url }}">
</head>
<body>
{% include header.html %}
{{ content }}
<footer>
  <p>&copy; {{ site.time | date: "%Y" }} {{ site.production_url }}</p>
  <p>{{ page.title | truncate: 12 }}</p>
</footer>
</body>
</html>
""",
    "post.html": """\
---
layout: default
---
{% include JB/setup %}
<div class="container">
  <h1>{{ page.title }}</h1>
  <p class="post-meta">
    <time datetime="{{ page.date | date_to_xmlschema }}">{{ page.date | date: "%b %-d, %Y" }}</time>
    {% if page.author %}&bull; <span>{{ page.author }}</span>{% endif %}
  </p>
  {% unless page.institution == nil %}<p>{{ page.institution }}</p>{% endunless %}
  {{ content }}
</div>
""",
    "page.html": """\
---
layout: default
---
{% include JB/setup %}
<div class="container">
  <div class="content">
    {{ content }}
  </div>
</div>
""",
    "index.html": """\
---
layout: default
---
{{ content }}
<ul class="latest">
{% for post in site.posts limit:3 %}
  <li><a href="{{ post.url | relative_url }}">{{ post.title }}</a>{% if forloop.last %} (and more){% endif %}</li>
{% endfor %}
</ul>
""",
    "community.html": """\
---
layout: page
---
{{ content }}
{% tablerow org in site.data.contrib_orgs cols:3 %}{{ org.name }}{% endtablerow %}
""",
}

INCLUDES = {
    "header.html": """\
<header>
  <a href="{{ '/' | relative_url }}"><img src="/images/logo.png" alt="Logo"></a>
  <ul class="nav">
  {% for menu in site.data.menus %}
    <li><a href="{{ menu.link }}">{{ menu.name }}</a></li>
  {% endfor %}
  </ul>
</header>
""",
    "JB/setup": """\
{% capture jbcache %}{% assign BASE_PATH = site.JB.BASE_PATH %}{% endcapture %}{% assign jbcache = nil %}
""",
    "community.html": """\
<ul class="communityCard">
{% for comlist in site.data.community %}
  <li><h5>{{ comlist.cardname }}</h5><p>{{ comlist.des }}</p>
  <a href="{{ comlist.link }}" class="btn" id="{{ comlist.id }}">{{ comlist.buttonname }}</a></li>
{% endfor %}
</ul>
""",
    "contrib_orgs.html": """\
<ul class="orgs">
{% for org in site.data.contrib_orgs %}<li>{{ org.name }}</li>{% endfor %}
</ul>
""",
}

CSS = "body { margin: 0; }\n.logo { background: url(../images/logo.png); }\n"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(32)
LOCAL_FILE = re.compile(r"""(?:src|href)=["'](/(?:images|assets)/[^"'#?\s]+)|\]\((/(?:images|assets)/[^)\s"]+)""")


def jekyll_site(corpus: Path, folder: Path) -> Path:
    """Write the corpus, as a whole Jekyll site, into ``folder``."""
    folder.mkdir(parents=True)
    for name in ("_posts", "_data"):
        shutil.copytree(corpus / name, folder / name)
    for path in corpus.iterdir():
        if path.is_file() and path.name != "SOURCE.md":
            shutil.copy(path, folder / path.name)
    (folder / "_config.yml").write_text(CONFIG)
    for name, text in LAYOUTS.items():
        _write(folder / "_layouts" / name, text)
    for name, text in INCLUDES.items():
        _write(folder / "_includes" / name, text)
    _write(folder / "css/custom.css", CSS)
    (folder / "images").mkdir()
    (folder / "images/logo.png").write_bytes(PNG)
    _write(folder / "README.md", "# The site's source\n")      # excluded
    _write(folder / "scripts/deploy.sh", "#!/bin/sh\n")          # excluded
    _write(folder / "robots.txt", "User-agent: *\n")             # a static file at the top
    for path in sorted(folder.rglob("*.md")) + sorted(folder.rglob("*.markdown")) + [folder / "posts.html"]:
        for match in LOCAL_FILE.finditer(path.read_text(encoding="utf-8")):
            target = folder / (match.group(1) or match.group(2)).lstrip("/")
            if not target.exists() and target.suffix:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(PNG)
    return folder


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
