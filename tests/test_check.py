"""``sitegen check``: every fault found at its page and line, on real built files."""

from __future__ import annotations

import shutil
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import DATA
from generator.build import build
from generator.check import check_site, require_clean, url_problem
from generator.cli import main
from generator.configure import load_config
from generator.errors import SiteError
from generator.scaffold import init_site
from generator.scan import scan_css, scan_html, srcset_urls

FAULTS = DATA / "faults"

# One line per fault planted in tests/data/faults/_site, in the order the report lists them.
EXPECTED = [
    "about.html:7: malformed URL (no host after 'http:') -> http:/example.org/x",
    "assets/site.css:3: third-party stylesheet (fonts.googleapis.com is not in check.allow_hosts)"
    " -> https://fonts.googleapis.com/css2?family=Inter",
    "assets/site.css:6: third-party font (fonts.gstatic.com is not in check.allow_hosts)"
    " -> https://fonts.gstatic.com/s/inter/v12/inter.woff2",
    "guide/index.html:3: third-party preconnect hint (fonts.gstatic.com is not in check.allow_hosts)"
    " -> https://fonts.gstatic.com",
    "guide/index.html:3: third-party script (www.googletagmanager.com is not in check.allow_hosts)"
    " -> https://www.googletagmanager.com/gtag/js",
    "guide/index.html:6: third-party frame (www.youtube.com is not in check.allow_hosts)"
    " -> https://www.youtube.com/embed/xyz",
    "index.html:7: third-party stylesheet (cdn.example.com is not in check.allow_hosts)"
    " -> https://cdn.example.com/bootstrap.min.css",
    "index.html:12: missing page -> /missing.html",
    "index.html:13: missing anchor -> /about.html#nowhere",
    "index.html:14: missing image -> images/missing.png",
    "index.html:15: malformed URL (contains whitespace or a control character) -> https://exa mple.org/",
    "index.html:18: missing page -> https://faults.example.org/gone.html",
    "posts/hello.html:8: missing resource -> ../images/gone.png",
    "posts/hello.html:14: missing image -> ../images/hero@2x.png",
    "posts/hello.html:15: missing resource -> /images/nothing.png",
]


def test_each_fault_is_reported_at_its_page_and_line():
    report = check_site(load_config(FAULTS))
    assert [str(f) for f in report.findings] == EXPECTED
    assert report.checked == 6
    assert report.summary() == "checked 6 files: 15 errors in 5 files"


def test_an_allowed_host_is_allowed_and_only_that_host():
    strict = check_site(load_config(FAULTS, check={"allow_hosts": []}))
    added = {str(f) for f in strict.findings} - set(EXPECTED)
    assert added == {"index.html:19: third-party image (badges.example.net is not in check.allow_hosts)"
                     " -> https://badges.example.net/build.svg"}


def test_cli_prints_findings_and_fails(capsys):
    assert main(["-C", str(FAULTS), "check"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == EXPECTED
    assert "15 errors in 5 files" in err


def test_check_needs_a_built_site(tmp_path):
    (tmp_path / "site.yaml").write_text("title: T\nurl: https://example.org\n")
    with pytest.raises(SiteError, match="run 'sitegen build' first"):
        check_site(load_config(tmp_path))


def test_build_check_passes_on_a_clean_site(basic_site, capsys):
    assert main(["-C", str(basic_site), "build", "--check"]) == 0
    assert "no errors" in capsys.readouterr().out


def test_no_page_links_an_output_switched_off_by_name(tmp_path, capsys):
    site = tmp_path / "site"
    init_site(site, now=datetime(2020, 5, 4, tzinfo=timezone.utc), kind="blog")      # the theme's templates
    with open(site / "site.yaml", "a") as f:
        f.write("outputs: {feeds: false, history: false, tags: false, categories: false, search: false}\n")
    assert main(["-C", str(site), "build", "--check"]) == 0
    assert "no errors" in capsys.readouterr().out
    post = (site / "_site/2020/05/04/welcome.html").read_text()
    assert "atom.xml" not in post and "/tags/" not in post and "data-search" not in post
    assert "<p></p>" not in post                                    # the footer's row of them left out


def line_of(path: Path, text: str) -> int:
    """The 1-based line of ``path`` where ``text`` first appears."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_faults_written_in_content_are_found_in_the_built_page(basic_site, capsys):
    about = basic_site / "content/pages/about.md"
    about.write_text(about.read_text() + "\nSee [the old post](/2019/03/18/renamed.html), "
                     "[its motivation](/2019/03/18/first-post.html#why) and "
                     "![a chart](/assets/images/chart.svg).\n")
    assert main(["-C", str(basic_site), "build", "--check"]) == 1
    page = basic_site / "_site/about.html"
    line = line_of(page, "renamed.html")
    out = capsys.readouterr().out.splitlines()
    built = next(i for i, text in enumerate(out) if text.startswith("stages: "))   # the build's report
    assert out[built + 1:] == [
        f"about.html:{line}: missing anchor -> /2019/03/18/first-post.html#why",
        f"about.html:{line}: missing image -> /assets/images/chart.svg",
        f"about.html:{line}: missing page -> /2019/03/18/renamed.html",
    ]


def test_under_a_baseurl_generated_links_resolve_and_authored_ones_must_include_it(basic_site):
    config_file = basic_site / "site.yaml"
    config_file.write_text(config_file.read_text() + 'baseurl: "/tvm"\n')
    build(basic_site)
    findings = check_site(load_config(basic_site)).findings
    # Templates prefix the baseurl (nav, lists, canonical URLs, feeds); a Markdown link written
    # as "/2019/..." does not get it, and would be broken on the published site.
    link = "/2019/03/18/first-post.html#motivation"
    assert {(f.page, f.problem, f.target) for f in findings} == {
        ("2020/05/01/second.html", "missing page (outside baseurl /tvm)", link),
        ("blog.html", "missing page (outside baseurl /tvm)", link),  # the post's excerpt
    }
    second = basic_site / "content/posts/2020-05-01-second.md"
    second.write_text(second.read_text().replace("(/2019/", "(https://example.org/tvm/2019/"))
    build(basic_site)
    assert check_site(load_config(basic_site)).ok


@pytest.mark.parametrize("url", [
    "https://github.com/apache/tvm", "https://例え.jp/", "http://127.0.0.1:8000/x", "http://[::1]/",
    "https://tvm.apache.org./docs/", "mailto:dev@tvm.apache.org", "../a.html", "#x", "", "about:blank",
    "data:image/png;base64,AAAA", "//example.org/x", "tel:+1-555-0100",
])
def test_well_formed_urls(url):
    assert url_problem(url) is None


@pytest.mark.parametrize("url, problem", [
    ("https://exa mple.org", "whitespace"),
    ("http:/example.org", "no host"),
    ("https://", "no host"),
    ("htps://example.org", "unknown scheme 'htps:'"),
    ("localhost:8000/docs", "unknown scheme 'localhost:'"),
    ("https://exa!mple.org/", "invalid host"),
    ("https://-x.org/", "invalid host"),
    ("https://example..org/", "invalid host"),
    ("https://example.org:99999/", "invalid port"),
    ("mailto:", "nothing after"),
    ("https://example.org\\docs", "backslash"),
])
def test_malformed_urls(url, problem):
    assert problem in (url_problem(url) or "")


def test_srcset_candidates():
    assert srcset_urls("a.png 1x, b,c.png 2x,d.png") == ["a.png", "b,c.png", "d.png"]
    assert srcset_urls(" small.png 480w ,\n large.png 1080w ") == ["small.png", "large.png"]
    assert srcset_urls("") == []


def test_css_references_know_their_line_and_kind():
    css = ('/* url(no.png) */\n@import "a.css";\n@import url(b.css) screen;\n'
           '@font-face { src: url("f.woff2") format("woff2"), url(g.woff) }\n'
           '@media (min-width: 1px) { .x { background: image-set(url(i.png) 1x) } }\n')
    assert [(r.line, r.url, r.kind) for r in scan_css(css, first_line=10)] == [
        (11, "a.css", "stylesheet"), (12, "b.css", "stylesheet"),
        (13, "f.woff2", "font"), (13, "g.woff", "font"), (14, "i.png", "resource")]


def test_anchors_are_ids_and_a_names_only():
    scan = scan_html('<h2 id="a">A</h2><a name="b"></a><div name="c"></div><p ID="d">')
    assert scan.anchors == {"a", "b", "d"}


# -- redirects and old URLs ------------------------------------------------------------------

def add_front_matter(path: Path, line: str) -> None:
    text = path.read_text()
    path.write_text(text.replace("---\n", f"---\n{line}\n", 1))


FIRST_POST = "https://example.org/2019/03/18/first-post.html"


def test_redirect_pages_point_at_the_new_url(basic_site):
    add_front_matter(basic_site / "content/posts/2019-03-18-first-post.md",
                     "redirect_from: [/news/first.html, /2019/first-post/]")
    config_file = basic_site / "site.yaml"
    config_file.write_text(config_file.read_text() + "redirects:\n  /posts.html: /blog.html\n"
                           "  /docs/old.html: https://tvm.apache.org/docs/\n")
    build(basic_site)
    out = basic_site / "_site"
    post = "/2019/03/18/first-post.html"
    expected = {  # stub: (where the browser goes, the canonical URL)
        "news/first.html": (post, FIRST_POST), "2019/first-post/index.html": (post, FIRST_POST),
        "posts.html": ("/blog.html", "https://example.org/blog.html"),
        "docs/old.html": ("https://tvm.apache.org/docs/", "https://tvm.apache.org/docs/"),
    }
    for stub, (target, canonical) in expected.items():
        html = (out / stub).read_text()
        assert f'<meta http-equiv="refresh" content="0; url={target}">' in html, stub
        assert f'<link rel="canonical" href="{canonical}">' in html, stub
        assert f'<a href="{target}">{canonical}</a>' in html, stub
    sitemap = (out / "sitemap.txt").read_text()
    assert FIRST_POST in sitemap and "first.html" not in sitemap and "posts.html" not in sitemap
    assert check_site(load_config(basic_site)).ok


def test_a_redirect_to_a_missing_page_is_a_broken_link(basic_site):
    config_file = basic_site / "site.yaml"
    config_file.write_text(config_file.read_text() + "redirects:\n  /posts.html: /bolg.html\n")
    build(basic_site)
    findings = check_site(load_config(basic_site)).findings
    assert {(f.page, f.problem, f.target) for f in findings} == {
        ("posts.html", "missing page", "/bolg.html"),
        ("posts.html", "missing page", "https://example.org/bolg.html")}


@pytest.mark.parametrize("listing", ["sitemap.txt", "sitemap.xml"])
def test_against_a_sitemap_reports_urls_that_no_longer_resolve(basic_site, tmp_path, listing):
    build(basic_site)
    old = tmp_path / listing
    shutil.copy(basic_site / "_site" / listing, old)
    post = basic_site / "content/posts/2021-01-02-third.md"
    add_front_matter(post, "permalink: /blog/third.html")
    build(basic_site)

    report = check_site(load_config(basic_site), against=str(old))
    gone = "https://example.org/2021/01/02/third.html"
    assert [str(f) for f in report.findings] == [
        f"{old}:{line_of(old, gone)}: old URL no longer resolves or redirects -> {gone}"]

    add_front_matter(post, "redirect_from: /2021/01/02/third.html")
    build(basic_site)
    assert check_site(load_config(basic_site), against=str(old)).ok


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True,
                          env={"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org",
                               "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.org",
                               "PATH": "/usr/bin:/bin", "HOME": str(cwd)}).stdout


def commit_tree(repo: Path, branch: str, folder: Path) -> None:
    """Commit exactly the files of ``folder`` as branch ``branch`` of ``repo`` (a publish branch)."""
    index = repo / ".git" / "publish-index"
    env_git = ["--git-dir", str(repo / ".git"), "--work-tree", str(folder)]
    subprocess.run(["git", *env_git, "add", "-A", "."], check=True, cwd=folder,
                   env={"GIT_INDEX_FILE": str(index), "PATH": "/usr/bin:/bin"})
    tree = subprocess.run(["git", "--git-dir", str(repo / ".git"), "write-tree"], check=True,
                          capture_output=True, text=True,
                          env={"GIT_INDEX_FILE": str(index), "PATH": "/usr/bin:/bin"}).stdout.strip()
    commit = git(repo, "commit-tree", tree, "-m", "Publish").strip()
    git(repo, "update-ref", f"refs/heads/{branch}", commit)


def test_against_a_git_ref_of_the_publish_branch(basic_site, tmp_path):
    roadmap = basic_site / "content/pages/roadmap.md"
    roadmap.write_text("---\ntitle: Roadmap\n---\nWhat comes next.\n")
    build(basic_site)
    published = tmp_path / "published"
    shutil.copytree(basic_site / "_site", published)
    (published / "docs/api").mkdir(parents=True)
    (published / "docs/api/index.html").write_text("<!DOCTYPE html><title>API</title>")  # publish keeps docs/
    (published / ".asf.yaml").write_text("publish: {}\n")
    git(basic_site, "init", "-q")
    commit_tree(basic_site, "asf-site", published)
    listed = git(basic_site, "ls-tree", "-r", "--name-only", "asf-site").splitlines()

    roadmap.unlink()
    build(basic_site)
    report = check_site(load_config(basic_site), against="asf-site")
    assert [str(f) for f in report.findings] == [
        f"asf-site:{listed.index('roadmap.html') + 1}: old URL no longer resolves or redirects -> /roadmap.html"]


def test_against_something_that_is_neither_a_file_nor_a_ref(basic_site):
    build(basic_site)
    git(basic_site, "init", "-q")
    with pytest.raises(SiteError, match="neither a file nor a git ref"):
        check_site(load_config(basic_site), against="no-such-branch")


# -- valid HTML ----------------------------------------------------------------------------

def test_the_nu_html_checker_reports_invalid_markup_at_its_line(tmp_path):
    (tmp_path / "site.yaml").write_text("title: T\nurl: https://example.org\ncheck: {html: true}\n")
    (tmp_path / "_site/sub").mkdir(parents=True)
    (tmp_path / "_site/sub/page.html").write_text(
        '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>T</title></head>\n'
        '<body>\n<p>Fine</p>\n<img src="/sub/page.html">\n</body>\n</html>\n')
    findings = check_site(load_config(tmp_path)).findings
    assert [(f.page, f.line, f.target) for f in findings] == [("sub/page.html", 6, '<img src="/sub/page.html">')]
    assert findings[0].problem.startswith("invalid HTML: An “img” element must have an “alt” attribute")


# -- trees published from elsewhere, legacy markup -------------------------------------------

def link_to_kept_docs(site: Path) -> None:
    (site / "content/pages/guide.md").write_text(
        "---\ntitle: Guide\n---\nSee [the API](/docs/api/) and [the old API](/docs/v0.1/api.html).\n")


def test_links_into_kept_trees_are_checked_against_the_publish_branch(basic_site, tmp_path):
    link_to_kept_docs(basic_site)
    build(basic_site)
    published = tmp_path / "published"
    (published / "docs/api").mkdir(parents=True)
    (published / "docs/api/index.html").write_text("<!DOCTYPE html><title>API</title>")
    git(basic_site, "init", "-q")
    commit_tree(basic_site, "asf-site", published)

    report = check_site(load_config(basic_site))
    assert [(f.page, f.problem, f.target) for f in report.findings] == [
        ("guide.html", "missing page", "/docs/v0.1/api.html")]
    assert report.warnings == []
    # --against a ref reads the keep trees from that ref.
    (published / "docs/v0.1").mkdir()
    (published / "docs/v0.1/api.html").write_text("<!DOCTYPE html><title>Old API</title>")
    commit_tree(basic_site, "staging", published)
    assert check_site(load_config(basic_site), against="staging").findings == []


def test_without_the_publish_branch_links_into_kept_trees_are_warnings(basic_site, capsys):
    link_to_kept_docs(basic_site)
    build(basic_site)
    report = check_site(load_config(basic_site))
    assert report.ok
    assert [(f.page, f.target) for f in report.warnings] == [
        ("guide.html", "/docs/api/"), ("guide.html", "/docs/v0.1/api.html")]
    assert "not checked: page in a tree kept from the publish branch asf-site" in report.warnings[0].problem
    assert main(["-C", str(basic_site), "check"]) == 0
    out = capsys.readouterr().out
    assert "warning: guide.html:" in out and "no errors, 2 warnings" in out
    # Trees not kept are checked as before.
    config_file = basic_site / "site.yaml"
    config_file.write_text(config_file.read_text() + "publish: {keep: [.asf.yaml]}\n")
    assert {f.target for f in check_site(load_config(basic_site)).findings} == {
        "/docs/api/", "/docs/v0.1/api.html"}


LEGACY = ('<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>T</title></head>\n'
          '<body>\n<center>Old</center>\n<img src="a.png" alt="" width="512px">\n</body>\n</html>\n')


def test_legacy_markup_allowed_per_path_is_a_warning_still_listed(tmp_path):
    (tmp_path / "_site/2017/08").mkdir(parents=True)
    (tmp_path / "_site/2017/08/post.html").write_text(LEGACY)
    (tmp_path / "_site/2017/08/a.png").write_bytes(b"png")
    (tmp_path / "_site/new.html").write_text(LEGACY.replace('src="a.png"', 'src="2017/08/a.png"'))
    config = "title: T\nurl: https://example.org\ncheck:\n  html: true\n"
    (tmp_path / "site.yaml").write_text(config)
    before = check_site(load_config(tmp_path))
    assert {(f.page, f.line) for f in before.findings} == {
        ("2017/08/post.html", 5), ("2017/08/post.html", 6), ("new.html", 5), ("new.html", 6)}

    (tmp_path / "site.yaml").write_text(config + "  allow_html:\n    '2017/*': ['“center” element is obsolete', "
                                                  "'Bad value “512px” for attribute “width”']\n")
    after = check_site(load_config(tmp_path))
    assert {(f.page, f.line) for f in after.findings} == {("new.html", 5), ("new.html", 6)}
    assert {(f.page, f.line) for f in after.warnings} == {("2017/08/post.html", 5), ("2017/08/post.html", 6)}
    assert all(f.problem.startswith("invalid HTML: ") for f in after.warnings)
    # What stands between a build and its publication is the errors only.
    (tmp_path / "_site/new.html").unlink()
    require_clean(load_config(tmp_path), tmp_path / "_site")
    (tmp_path / "site.yaml").write_text(config)
    with pytest.raises(SiteError, match="the built site fails its check"):
        require_clean(load_config(tmp_path), tmp_path / "_site")


def test_a_fresh_clone_reads_kept_trees_from_the_remote_tracking_branch(basic_site, tmp_path):
    link_to_kept_docs(basic_site)
    build(basic_site)
    published = tmp_path / "published"
    (published / "docs/v0.1").mkdir(parents=True)
    (published / "docs/v0.1/api.html").write_text("<!DOCTYPE html><title>Old API</title>")
    git(basic_site, "init", "-q")
    commit_tree(basic_site, "asf-site", published)
    commit = git(basic_site, "rev-parse", "asf-site").strip()
    git(basic_site, "update-ref", "refs/remotes/origin/asf-site", commit)   # as a clone has it
    git(basic_site, "update-ref", "-d", "refs/heads/asf-site")
    report = check_site(load_config(basic_site))
    assert [(f.target, f.problem) for f in report.findings] == [("/docs/api/", "missing page")]
    assert report.warnings == []


def test_the_checker_resolves_every_url_as_the_preview_server_does(basic_site: Path) -> None:
    """One rule (generator/urls.py): a link the checker accepts is one the server serves."""
    from generator.check import BuiltSite
    from generator.serve import Redirect, locate

    build(basic_site)
    out = basic_site / "_site"
    (out / "notes").mkdir()
    (out / "notes/index.html").write_text("<p>notes</p>")
    (out / "plain").write_text("a file without a suffix")
    built = BuiltSite(out, load_config(basic_site))
    urls = ["/", "/about", "/about.html", "/notes", "/notes/", "/plain", "/blog", "/2020/05/01/second",
            "/missing", "/missing/", "/assets/css/site.css", "/tags/"]
    for url in urls:
        served = locate(out, url)
        if isinstance(served, Redirect):        # /notes -> /notes/: the server redirects, then serves
            served = locate(out, served.location)
        expected = served.relative_to(out.resolve()).as_posix() if served is not None else None
        assert built.resolve(url) == expected, url
    assert built.resolve("/about") == "about.html" and built.resolve("/missing") is None


def test_the_html_checkers_messages_about_a_notebooks_own_content_are_warnings(tmp_path):
    from nbformat.v4 import new_markdown_cell

    from test_notebooks import NOW, make_site, notebook

    text = "# Skipping\n\nIntro.\n\n#### A heading that skips two levels"
    site = make_site(tmp_path / "site", **{"skips.ipynb": notebook(new_markdown_cell(text), execute="never")})
    build(site, NOW)
    report = check_site(load_config(site, check={"html": True}))
    assert report.findings == [], report.findings
    assert [(w.page, w.problem) for w in report.warnings] == [
        ("docs/tutorials/skips.html", "invalid HTML in a notebook's content: The heading “h4” (with computed "
                                      "level 4) follows the heading “h1” (with computed level 1), skipping 2 "
                                      "heading levels.")]
    page = (site / "_site/docs/tutorials/skips.html").read_text().split("\n")
    assert "A heading that skips two levels</h4>" in page[report.warnings[0].line - 1]
