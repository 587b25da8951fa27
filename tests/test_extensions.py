"""The seams of a plug-in-shaped core: readers, the front matter schema, themes and plugins.

Plugins are real distributions (a package and its ``.dist-info`` with a
``sitegen.plugins`` entry point, found by importlib.metadata), builds are real
builds, and what is checked is the output files.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import REPO, install_demo_plugin, own_template, pages_made
from generator.build import BuildOptions, build
from generator.cli import main
from generator.configure import load_config
from generator.errors import SiteError
from generator.outputs import Planner
from generator.outputs.registry import required_templates
from generator.render import DEFAULT_THEME, Renderer, missing_templates

NOW = BuildOptions(now=datetime(2026, 1, 1, tzinfo=timezone.utc))
FIRST = "content/posts/2019-03-18-first-post.md"


def add_front_matter(site: Path, rel: str, lines: str) -> None:
    path = site / rel
    path.write_text(path.read_text().replace("---\n", "---\n" + lines, 1))


def test_an_unknown_front_matter_key_is_a_warning_naming_file_line_and_the_key_meant(basic_site, capsys):
    add_front_matter(basic_site, FIRST, "tittle: Oops\ncatgories: [news]\nmood: calm\n")
    assert main(["-C", str(basic_site), "build"]) == 0
    err = capsys.readouterr().err
    assert f"{FIRST}:2: warning: unknown front matter key 'tittle' (did you mean 'title'?)" in err
    assert f"{FIRST}:3: warning: unknown front matter key 'catgories' (did you mean 'categories'?)" in err
    assert f"{FIRST}:4: warning: unknown front matter key 'mood'" in err     # no plugin declares it here
    assert (basic_site / "_site/2019/03/18/first-post.html").is_file()   # a warning, not an error


def test_an_unknown_key_is_warned_of_once_per_build_and_no_more_once_a_template_reads_it(basic_site):
    """The warning is the build's, not the document's: builds after an edit elsewhere (whose
    documents come from the last build's summaries) say it once, and stop when a template reads it."""
    add_front_matter(basic_site, FIRST, "hero: big\n")
    other = basic_site / "content/posts/2021-01-02-third.md"
    for round in range(3):
        other.write_text(other.read_text() + f"\nEdit {round}.\n")
        warned = [w for w in build(basic_site, NOW).warnings if "front matter" in w]
        assert warned == [f"{FIRST}:2: warning: unknown front matter key 'hero'"]
    template = own_template(basic_site, "post.html")
    template.write_text(template.read_text().replace("{{ content }}", "{{ content }}{{ page.meta.get(\"hero\", \"\") }}"))
    other.write_text(other.read_text() + "\nOne more edit.\n")
    assert not [w for w in build(basic_site, NOW).warnings if "front matter" in w]
    assert "big" in (basic_site / "_site/2019/03/18/first-post.html").read_text()


def test_keys_site_yaml_lists_are_known_from_the_next_build_on(basic_site):
    """``front_matter_keys`` (which an import writes) names keys kept for other tools: a build
    after adding it warns of none of them, and of the others still."""
    add_front_matter(basic_site, FIRST, "hero: big\nmood: calm\n")
    assert len([w for w in build(basic_site, NOW).warnings if "front matter" in w]) == 2
    config = basic_site / "site.yaml"
    config.write_text(config.read_text() + "front_matter_keys: [hero]\n")
    assert [w for w in build(basic_site, NOW).warnings if "front matter" in w] == [
        f"{FIRST}:3: warning: unknown front matter key 'mood'"]


def test_keys_the_templates_read_and_jekyll_keys_are_known(basic_site):
    template = own_template(basic_site, "page.html")
    template.write_text(template.read_text().replace("{{ content }}", "{{ content }}{{ page.meta.get(\"hero\", \"\") }}"))
    add_front_matter(basic_site, "content/pages/about.md", "hero: big\nexcerpt_separator: <!--more-->\n")
    result = build(basic_site, NOW)
    assert not [w for w in result.warnings if "front matter" in w]
    assert "big" in (basic_site / "_site/about.html").read_text()


def test_a_partial_theme_falls_back_to_the_default_and_edits_to_it_rebuild_what_uses_them(basic_site):
    theme = basic_site / "mytheme"
    (theme / "templates").mkdir(parents=True)
    (theme / "assets/css").mkdir(parents=True)
    (theme / "templates/post.html").write_text(
        '{% extends "base.html" %}{% block main %}<article class="themed">{{ content }}</article>{% endblock %}\n')
    (theme / "assets/css/theme.css").write_text("body { color: teal; }\n")
    with (basic_site / "site.yaml").open("a") as f:
        f.write("theme: mytheme\n")
    build(basic_site, NOW)
    out = basic_site / "_site"
    assert 'class="themed"' in (out / "2019/03/18/first-post.html").read_text()
    assert 'class="themed"' not in (out / "about.html").read_text()      # page.html: the default theme's
    assert (out / "assets/css/theme.css").read_text() == "body { color: teal; }\n"
    assert (out / "assets/css/versions.css").read_bytes() == (DEFAULT_THEME / "assets/css/versions.css").read_bytes()
    assert (out / "assets/css/site.css").read_bytes() == (basic_site / "assets/css/site.css").read_bytes()

    posts = {"2019/03/18/first-post.html", "2020/05/01/second.html", "2021/01/02/third.html"}
    (theme / "templates/post.html").write_text((theme / "templates/post.html").read_text().replace("themed", "t2"))
    assert pages_made(build(basic_site, NOW)) == posts
    (theme / "templates/post.html").unlink()                     # back to the default theme's post.html
    assert pages_made(build(basic_site, NOW)) == posts
    assert 'class="t2"' not in (out / "2019/03/18/first-post.html").read_text()


def test_a_theme_that_is_not_a_folder_of_the_site_is_refused(basic_site):
    with (basic_site / "site.yaml").open("a") as f:
        f.write("theme: ../elsewhere\n")
    with pytest.raises(SiteError, match="key 'theme'"):
        load_config(basic_site)


def test_missing_required_templates_are_listed_together_at_load(basic_site, tmp_path):
    config = load_config(basic_site)
    with pytest.raises(SiteError) as raised:
        Renderer(config, required=(*required_templates(), "search.html", "partials/search_box.html"))
    assert "lacks the templates search.html, partials/search_box.html" in str(raised.value)
    partial = tmp_path / "partial-theme"
    (partial / "partials").mkdir(parents=True)
    (partial / "post.html").write_text("x")
    required = required_templates()
    assert missing_templates([partial], required) == [n for n in required if n != "post.html"]


def test_a_plugin_adds_a_reader_a_filter_a_config_section_and_front_matter_keys(basic_site, demo_plugin):
    (basic_site / "content/pages/notes.txt").write_text(
        "---\ntitle: Notes\nmood: calm\n---\nFirst <paragraph>\nwrapped.\n\nSecond.\n")
    template = own_template(basic_site, "page.html")
    template.write_text(template.read_text().replace("{{ page.title }}", "{{ page.title | shout }}"))
    with (basic_site / "site.yaml").open("a") as f:
        f.write("demo:\n  greeting: Hi\n")
    assert load_config(basic_site).plugins["demo"].greeting == "Hi"
    result = build(basic_site, NOW)
    notes = (basic_site / "_site/notes.html").read_text()
    assert "<p>First &lt;paragraph&gt; wrapped.</p>\n<p>Second.</p>" in notes
    assert "<h1>NOTES!</h1>" in notes
    assert not [w for w in result.warnings if "front matter" in w]       # 'mood' is the plugin's key

    (basic_site / "content/pages/notes.txt").write_text("---\ntitle: Notes\n---\nChanged.\n")
    assert pages_made(build(basic_site, NOW)) == {"notes.html"}
    with (basic_site / "site.yaml").open("a") as f:
        f.write("  greting: typo\n")
    with pytest.raises(SiteError, match=r"unknown key 'demo.greting' \(known keys: greeting, listed\)"):
        load_config(basic_site)


def test_a_plugin_section_named_like_one_of_sitegens_keys_is_refused_when_site_yaml_is_read(basic_site):
    # The registry (generator.plugins) does not know sitegen's keys; load_config, which reads both, refuses.
    from generator.plugins import extensions

    @dataclass
    class Menu:
        items: int = 0

    extensions.cache_clear()
    try:
        extensions().add_config_section("nav", Menu)
        with pytest.raises(SiteError) as caught:
            load_config(basic_site)
        assert caught.value.message == "a plugin's config section 'nav' is already taken by sitegen's own"
    finally:
        extensions.cache_clear()


@dataclass(frozen=True)
class Colophon:
    text: str = "Made with sitegen."

    def validate(self, path: Path, prefix: str) -> None:
        if not self.text.strip():
            raise SiteError(f"key '{prefix}text': expected some words, got {self.text!r}", path)


@dataclass(frozen=True)
class ColophonSection:
    colophon: Colophon = field(default_factory=Colophon)


class ColophonPage(Planner):
    """An output kind in one class: its planner and the site.yaml key it owns, as the built-in
    ones declare theirs (the feeds, the search, the docs' versions)."""

    name, section = "colophon", ColophonSection

    def plan(self, ctx, plan):
        plan.add("colophon.txt", "site.yaml colophon", lambda: ctx.config.colophon.text + "\n", "colophon")


def with_planner(planner: Planner):
    from generator.plugins import extensions

    extensions.cache_clear()
    extensions().add_planner(planner)
    return extensions


def test_a_planner_owns_its_site_yaml_keys_read_and_checked_as_sitegens_own(basic_site):
    """The keys of an output come with its planner (``Planner.section``): a new kind of output
    touches no list of sitegen's, yet its key is read, and a bad value or an unknown key is
    one line naming it, as for the built-in planners' ``feeds`` or ``versions``."""
    extensions = with_planner(ColophonPage())
    config = basic_site / "site.yaml"
    try:
        assert load_config(basic_site).colophon == Colophon()
        config.write_text(config.read_text() + "colophon: {text: Set by hand.}\n")
        assert load_config(basic_site).colophon.text == "Set by hand."
        build(basic_site, NOW)
        assert (basic_site / "_site/colophon.txt").read_text() == "Set by hand.\n"
        config.write_text(config.read_text().replace("Set by hand.", "' '"))
        with pytest.raises(SiteError) as caught:
            load_config(basic_site)
        assert caught.value.message == "key 'colophon.text': expected some words, got ' '"
        config.write_text(config.read_text().replace("colophon:", "colofon:"))
        with pytest.raises(SiteError, match=r"unknown key 'colofon' \(known keys: .*, check, collections, colophon, "
                                            r"description, feeds, .*, versions\)"):
            load_config(basic_site)
    finally:
        extensions.cache_clear()


def test_a_planner_gives_templates_its_values_as_site_names(basic_site):
    """What templates see of an output comes with its planner too (``Planner.site_values``, as
    the feeds planner gives ``site.feeds``): a page's template reads ``site.colophon``, and an
    edit of the value it read makes that page again, as a clean build would."""

    class SignedColophon(ColophonPage):
        site_values = {"colophon": lambda config: config.colophon}

    extensions = with_planner(SignedColophon())
    config = basic_site / "site.yaml"
    try:
        template = own_template(basic_site, "page.html")
        template.write_text(template.read_text().replace("{{ content }}", "{{ content }}[{{ site.colophon.text }}]"))
        config.write_text(config.read_text() + "colophon: {text: Set by hand.}\n")
        build(basic_site, NOW)
        assert "[Set by hand.]" in (basic_site / "_site/about.html").read_text()
        config.write_text(config.read_text().replace("Set by hand.", "Set again."))
        build(basic_site, NOW)
        assert "[Set again.]" in (basic_site / "_site/about.html").read_text()
    finally:
        extensions.cache_clear()


def test_a_key_is_one_planners(basic_site):
    """Two planners owning one key would read it two ways: the second is refused, naming both."""

    @dataclass(frozen=True)
    class MoreFeeds:
        feeds: int = 0

    class Planet(Planner):
        name, section = "planet", MoreFeeds

    extensions = with_planner(Planet())
    try:
        with pytest.raises(SiteError) as caught:
            load_config(basic_site)
        assert caught.value.message == "output planner 'planet': site.yaml key 'feeds' is already the 'feeds' planner's"
    finally:
        extensions.cache_clear()


def test_the_command_finds_an_installed_plugin_through_its_entry_point(tmp_path):
    plugins = install_demo_plugin(tmp_path / "plugins")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(plugins)])}
    sitegen = [sys.executable, "-m", "generator"]
    subprocess.run([*sitegen, "init", "site"], cwd=tmp_path, env=env, check=True, capture_output=True)
    site = tmp_path / "site"
    (site / "content/pages/notes.txt").write_text("---\ntitle: Notes\n---\nPlain text.\n")
    built = subprocess.run([*sitegen, "build"], cwd=site, env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert "<p>Plain text.</p>" in (site / "_site/notes.html").read_text()
    without = {**env, "PYTHONPATH": str(REPO)}      # not installed: .txt is no page, and demo: unknown
    (site / "site.yaml").write_text((site / "site.yaml").read_text() + "demo: {greeting: Hi}\n")
    failed = subprocess.run([*sitegen, "build"], cwd=site, env=without, capture_output=True, text=True)
    assert failed.returncode == 1
    assert failed.stderr.startswith("error: ") and "unknown key 'demo'" in failed.stderr
    assert "Traceback" not in failed.stderr


def test_a_plugin_planner_is_made_again_exactly_when_what_it_read_changes(basic_site, demo_plugin):
    build(basic_site, NOW)
    greeting = (basic_site / "_site/greeting.txt").read_text()
    assert greeting.splitlines()[0] == "Hello" and "First post (-)" in greeting
    about = basic_site / "content/pages/about.md"
    about.write_text(about.read_text() + "\nMore about.\n")
    assert "greeting.txt" not in build(basic_site, NOW).outputs          # it reads no page
    add_front_matter(basic_site, FIRST, "mood: calm\n")
    assert "greeting.txt" in build(basic_site, NOW).outputs
    assert "First post (calm)" in (basic_site / "_site/greeting.txt").read_text()
