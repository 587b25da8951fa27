"""site.yaml is validated: unknown keys, wrong types and missing values name the file and key."""

from pathlib import Path

import pytest

from generator.config import Config
from generator.configure import load_config
from generator.errors import SiteError


def write_config(tmp_path: Path, text: str) -> Path:
    (tmp_path / "site.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def error_of(tmp_path: Path, text: str) -> SiteError:
    with pytest.raises(SiteError) as info:
        load_config(write_config(tmp_path, text))
    return info.value


def test_loads_typed_values_and_defaults(tmp_path):
    config = load_config(write_config(tmp_path, """
title: T
url: https://example.org
posts_per_page: 3
nav:
  - {title: Blog, url: /blog.html}
feeds: {rss: false}
"""))
    assert isinstance(config, Config)
    assert config.posts_per_page == 3
    assert config.nav[0].title == "Blog" and config.nav[0].url == "/blog.html"
    assert config.feeds.rss is False and config.feeds.atom is True
    assert config.output_dir == tmp_path.resolve() / "_site"


def test_the_shipped_site_yaml_is_valid():
    config = load_config(Path(__file__).resolve().parents[1])
    assert config.title and config.url.startswith("https://")


def test_unknown_key_is_named(tmp_path):
    error = error_of(tmp_path, "title: T\nurl: https://x.org\ntitel: typo\n")
    assert "titel" in str(error) and error.path.endswith("site.yaml")


def test_unknown_nested_key_is_named_with_its_path(tmp_path):
    error = error_of(tmp_path, "title: T\nurl: https://x.org\nfeeds: {atom: true, entires: 3}\n")
    assert "feeds.entires" in str(error)


def test_wrong_type_says_what_was_expected(tmp_path):
    error = error_of(tmp_path, "title: T\nurl: https://x.org\nposts_per_page: many\n")
    assert "posts_per_page" in str(error) and "whole number" in str(error)


def test_boolean_is_not_a_number(tmp_path):
    error = error_of(tmp_path, "title: T\nurl: https://x.org\nposts_per_page: yes\n")
    assert "posts_per_page" in str(error)


def test_wrong_type_inside_a_list(tmp_path):
    error = error_of(tmp_path, "title: T\nurl: https://x.org\nnav:\n  - {title: A, url: 3}\n")
    assert "nav[0].url" in str(error) and "a string" in str(error)


def test_missing_required_key(tmp_path):
    error = error_of(tmp_path, "title: T\n")
    assert "missing required key 'url'" in str(error)


def test_broken_yaml_gives_the_line(tmp_path):
    error = error_of(tmp_path, "title: T\nurl: https://x.org\nnav: [a, b\nfoo: 1\n")
    assert error.line is not None and error.line >= 3
    assert "invalid YAML" in str(error)


def test_no_site_yaml(tmp_path):
    with pytest.raises(SiteError, match="no site.yaml"):
        load_config(tmp_path)


@pytest.mark.parametrize("text, message", [
    ("posts_per_page: 0\n", "key 'posts_per_page': expected 1 or more, got 0"),
    ("posts_per_page: -3\n", "key 'posts_per_page': expected 1 or more, got -3"),
    ("markdown: {toc_levels: [0, 2]}\n", "key 'markdown.toc_levels': expected heading levels 1 to 6, got [0, 2]"),
    ("feeds: {entries_at: {/feed.xml: 10}}\n",
     "key 'feeds.entries_at': '/feed.xml' is none of atom_urls ['/atom.xml']"),
    ("notebooks: {workers: -1}\n", "key 'notebooks.workers': expected 0 (one per core) or more, got -1"),
    ("publish: {keep: [docs, ../elsewhere]}\n",
     "key 'publish.keep[1]': '../elsewhere' is not a path inside the branch"),
    ("redirects: {old.html: /new.html}\n", "key 'redirects': redirect 'old.html' must be a path starting with '/'"),
    ("redirects: {/a/../b.html: /new.html}\n", "key 'redirects': redirect '/a/../b.html' is not a plain path"),
    ("versions:\n  - {name: v1, ref: v1, default: true}\n  - {name: v1, ref: v2}\n", "version 'v1' is listed twice"),
    ("versions:\n  - {name: v1, ref: v1}\n", "versions: mark exactly one version 'default: true' (found none)"),
    ("versions:\n  - {name: ../v1, ref: v1, default: true}\n", "version '../v1': a name must be a folder name"),
    ("versions:\n  - {name: v1, ref: v1, worktree: true, default: true}\n",
     "version 'v1': give exactly one of 'ref'"),
    ("pygments_style: no-such-style\n", "key 'pygments_style': no Pygments style is named 'no-such-style'"),
    ("pygments_style: {light: friendly, dark: darkest}\n",
     "key 'pygments_style.dark': no Pygments style is named 'darkest'"),
    ("pygments_style: {light: friendly, night: monokai}\n", "unknown key 'pygments_style.night'"),
    ("repository: {url: github.com/apache/tvm-site}\n",
     "key 'repository.url': expected the repository's web address"),
    ("repository: {url: 'https://github.com/a/b', branch: 'my branch'}\n",
     "key 'repository.branch': 'my branch' is not a branch name"),
    ("repository: {url: 'https://github.com/a/b', edit: '{url}/edit/{branch}'}\n",
     "key 'repository.edit': expected a pattern with {path}"),
    ("repository: {url: 'https://github.com/a/b', edit: '{url}/{ref}/{path}'}\n",
     "key 'repository.edit': expected a pattern with {path}"),
])
def test_what_values_mean_is_checked_at_load_naming_the_key(tmp_path, text, message):
    """Not when a feature first uses the value (a build may never run it), and never clamped."""
    error = error_of(tmp_path, "title: T\nurl: https://x.org\n" + text)
    assert message in str(error) and error.path == str(tmp_path.resolve() / "site.yaml")


def test_pygments_style_is_one_name_or_a_light_and_a_dark(tmp_path):
    base = "title: T\nurl: https://x.org\n"
    one = load_config(write_config(tmp_path, base + "pygments_style: friendly\n"))
    assert (one.code_styles.light, one.code_styles.dark) == ("friendly", "friendly")
    pair = load_config(write_config(tmp_path, base + "pygments_style: {light: xcode, dark: sitegen-dark}\n"))
    assert (pair.code_styles.light, pair.code_styles.dark) == ("xcode", "sitegen-dark")
    default = load_config(write_config(tmp_path, base))
    assert (default.code_styles.light, default.code_styles.dark) == ("sitegen-light", "sitegen-dark")


def test_repository_gives_edit_links(tmp_path):
    base = "title: T\nurl: https://x.org\n"
    assert load_config(write_config(tmp_path, base)).repository.edit_url("content/pages/a.md") == ""
    github = load_config(write_config(tmp_path, base + "repository: {url: 'https://github.com/o/site/'}\n"))
    assert github.repository.edit_url("content/posts/a b.md") == \
        "https://github.com/o/site/edit/main/content/posts/a%20b.md"
    gitlab = load_config(write_config(tmp_path, base + "repository: {url: 'https://gitlab.com/o/p', branch: trunk, "
                                      "edit: '{url}/-/edit/{branch}/website/{path}'}\n"))
    assert gitlab.repository.edit_url("notebooks/t.ipynb") == \
        "https://gitlab.com/o/p/-/edit/trunk/website/notebooks/t.ipynb"
