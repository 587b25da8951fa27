"""sphinx-gallery tutorials as Sphinx shows them: directives at any depth, labels and
``:ref:``, remote figures by the site's host policy, and per-tutorial settings in site.yaml.

The scripts here are written for these tests with the constructs of Apache TVM's
gallery (a ``code-block`` in a list item, ``.. _label:`` before the title, a
figure from another host); the pages come from real builds, read as DOMs.
"""

from __future__ import annotations

import pytest
from lxml import html as lxml_html
from nbformat.v4 import new_markdown_cell

from generator.build import build
from generator.errors import SiteError
from generator.markdown import render_markdown
from generator.notebooks.rst import RstToMarkdown
from test_notebooks import NOW, make_site, notebook, page

FIRST = '''"""
.. _first_steps:

First Steps
===========

.. contents:: Table of Contents
    :local:

Read :ref:`second_part` and :ref:`the other one <second_part>`, or :doc:`second`.
"""

######################################################################
# The flow
# --------
#
# .. figure:: https://pictures.example/flow.svg
#    :align: center
#    :width: 80%
#
#    The overall *flow*.
#
# - Each function can be called.
#
#   .. code-block:: Python
#
#       out = vm["main"](data)
#
# - Other languages too:
#
#   .. code-block:: C++
#
#       auto out = vm.GetFunction("main")(data);
#
# .. note::
#
#    A note with code:
#
#    .. code-block:: python
#
#       x = 1
#
# .. tabs::
#
#    Unknown to us.

print("first")
'''

SECOND = '''"""
Second Part
===========

Back to :ref:`first_steps`, also known as :doc:`/how_to/tutorials/first`.

.. _second_part:

The part
--------

Text.
"""

print("second")
'''


def test_a_code_block_inside_a_list_item_stays_in_the_item_highlighted():
    converted = RstToMarkdown().convert("- An item:\n\n  .. code-block:: Python\n\n      x = 1\n\n- Next.\n")
    root = lxml_html.fragment_fromstring(render_markdown(converted).html, create_parent="div")
    [first, second] = root.xpath("//ul/li")
    assert first.xpath(".//div[contains(@class, 'highlight')]//span[@class='n']")[0].text == "x"
    assert "code-block" not in first.text_content()
    assert second.text_content().strip() == "Next."


def test_directives_nest_in_directives_in_list_items():
    converted = RstToMarkdown().convert("1. Step:\n\n   .. warning::\n\n      Careful:\n\n      .. code-block:: c++\n\n"
                                        "         int x;\n")
    root = lxml_html.fragment_fromstring(render_markdown(converted).html, create_parent="div")
    [box] = root.xpath("//ol/li/div[contains(@class, 'admonition') and contains(@class, 'warning')]")
    assert box.xpath(".//div[contains(@class, 'highlight')]//span[@class='kt']")[0].text == "int"


@pytest.fixture(scope="module")
def gallery(tmp_path_factory):
    """Two scripts shown with their stored (no) outputs: site.yaml says so by pattern, as a site
    that keeps upstream files unedited would."""
    site = make_site(tmp_path_factory.mktemp("gallery") / "site",
                     "tutorials:\n  'tvm/*.py': {execute: never}",
                     **{})
    (site / "notebooks/tvm").mkdir()
    (site / "notebooks/tvm/first.py").write_text(FIRST)
    (site / "notebooks/tvm/second.py").write_text(SECOND)
    result = build(site, NOW)
    return site, result


def test_ref_and_doc_lead_to_the_targets_title(gallery):
    site, _ = gallery
    first = lxml_html.fromstring(page(site, "tvm/first"))
    links = [(a.text_content(), a.get("href")) for a in first.xpath("//a[contains(@class, 'reference')]")]
    assert links == [("The part", "/docs/tutorials/tvm/second.html#second_part"),
                     ("the other one", "/docs/tutorials/tvm/second.html#second_part"),
                     ("Second Part", "/docs/tutorials/tvm/second.html")]
    assert first.xpath("//h1")[0].text_content().strip() == "First Steps"
    second = lxml_html.fromstring(page(site, "tvm/second"))
    back = [(a.text_content(), a.get("href")) for a in second.xpath("//a[contains(@class, 'reference')]")]
    assert back == [("First Steps", "/docs/tutorials/tvm/first.html#first_steps"),      # a path from the
                    ("First Steps", "/docs/tutorials/tvm/first.html")]                  # docs' root: by its name
    assert second.xpath("//*[@id='second_part']/following-sibling::*[1]")[0].tag == "h2"


def test_doc_and_ref_know_only_what_a_notebooks_page_shows(tmp_path):
    """A cell tagged remove-cell (a draft title, a badge) is not on the page: {doc} names the page by the
    title it shows, and a label in the removed cell is no target."""
    second = notebook(new_markdown_cell("# Draft title\n\n(draft)=\nNot shown.", metadata={"tags": ["remove-cell"]}),
                      new_markdown_cell("# Second one\n\nText."), execute="never")
    first = notebook(new_markdown_cell("# First\n\nRead {doc}`second`, not {ref}`draft`."), execute="never")
    site = make_site(tmp_path / "site", **{"first.ipynb": first, "second.ipynb": second})
    warnings = build(site, NOW).warnings
    assert lxml_html.fromstring(page(site, "second")).xpath("//h1")[0].text_content().strip() == "Second one"
    links = lxml_html.fromstring(page(site, "first")).xpath("//a[contains(@class, 'reference')]")
    assert [(a.text_content(), a.get("href")) for a in links] == [("Second one", "/docs/tutorials/second.html")]
    assert warnings == ["notebooks/first.ipynb: warning: cell 1: line 2: {ref}`draft`: no target labelled 'draft' "
                        "on this page or in the docs"]


def test_nested_code_blocks_are_highlighted_in_their_items(gallery):
    site, _ = gallery
    root = lxml_html.fromstring(page(site, "tvm/first"))
    python, cpp = root.xpath("//li[.//div[contains(@class, 'highlight')]]")
    assert python.xpath(".//div[contains(@class, 'highlight')]//span[@class='s2']")[0].text == '"main"'
    assert cpp.xpath(".//div[contains(@class, 'highlight')]//span[@class='k']")[0].text == "auto"
    assert root.xpath("//div[contains(@class, 'note')]//div[contains(@class, 'highlight')]")
    assert "code-block" not in root.xpath("//main")[0].text_content()


def test_a_remote_figure_from_a_host_not_allowed_is_a_short_link_with_its_caption(gallery):
    site, result = gallery
    root = lxml_html.fromstring(page(site, "tvm/first"))
    [figure] = root.xpath("//figure")
    link = figure.xpath("a")[0]
    assert (link.get("href"), link.text) == ("https://pictures.example/flow.svg",
                                             "image: flow.svg (pictures.example)")
    assert figure.xpath("figcaption//em")[0].text == "flow"
    assert any("the image https://pictures.example/flow.svg is on another host (pictures.example), not in "
               "check.allow_hosts" in w for w in result.warnings)


def test_an_unknown_directive_is_warned_of_at_its_cell_and_shown(gallery):
    site, result = gallery
    assert any(w.startswith("notebooks/tvm/first.py:13: warning: cell 2: line ") and
               "MyST directive '{tabs}' is not supported" in w for w in result.warnings)
    root = lxml_html.fromstring(page(site, "tvm/first"))
    assert "Unknown to us." in root.xpath("//div[contains(@class, 'myst-tabs')]")[0].text_content()
    assert not any("contents" in w for w in result.warnings)     # the page's outline stands for it


def test_a_remote_figure_from_an_allowed_host_is_shown(tmp_path):
    site = make_site(tmp_path / "site", "tutorials:\n  '*.py': {execute: never}")
    (site / "notebooks/first.py").write_text(FIRST)
    with open(site / "site.yaml", "a") as f:
        f.write("check:\n  allow_hosts: [pictures.example]\n")
    build(site, NOW)
    [image] = lxml_html.fromstring(page(site, "first")).xpath("//figure/img")
    assert (image.get("src"), image.get("style").replace(" ", "")) == ("https://pictures.example/flow.svg",
                                                                        "width:80%")


# -- per-tutorial settings in site.yaml ------------------------------------------------------

SLOW = '''"""
Slow
====
"""

import time
time.sleep(30)
'''


def build_error(tmp_path, settings: str, scripts: dict[str, str]) -> SiteError:
    """The error that stops the build of a site with ``settings`` (site.yaml's ``notebooks``) and
    these gallery ``scripts`` (file name -> text) in its notebooks folder."""
    site = make_site(tmp_path / "site", settings)
    for name, text in scripts.items():
        (site / "notebooks" / name).write_text(text)
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    return error.value


NEEDS = '"""\nNeeds\n=====\n"""\n\nprint(1)\n'


def test_site_yaml_timeout_applies_to_the_matching_tutorial_in_a_real_kernel(tmp_path):
    error = build_error(tmp_path, "tutorials:\n  'slow*.py': {timeout: 1}", {"slow.py": SLOW})
    assert "cell 2 timed out: the cell ran longer than its timeout of 1 s" in error.message


def test_site_yaml_requires_and_device_apply_over_the_files_own(tmp_path):
    error = build_error(tmp_path, "tutorials:\n  'needs.py': {requires: [no_such_module_here], device: cuda}",
                        {"needs.py": NEEDS})
    assert error.path == "notebooks/needs.py"
    assert "module no_such_module_here" in error.message


def test_site_yaml_device_is_checked_by_name(tmp_path):
    error = build_error(tmp_path, "tutorials:\n  'needs.py': {device: tpu9}", {"needs.py": NEEDS})
    assert (error.path, error.message.split(" (")[0]) == \
        ("site.yaml", "key 'notebooks.tutorials.needs.py.device': unknown device 'tpu9'")


def test_a_pattern_matching_no_tutorial_is_an_error(tmp_path):
    error = build_error(tmp_path, "tutorials:\n  'gallery/*.py': {execute: never}",
                        {"one.py": '"""\nOne\n=====\n"""\n\nprint(1)\n'})
    assert error.path == "site.yaml"
    assert error.message.startswith("key 'notebooks.tutorials.gallery/*.py': matches no tutorial in notebooks/")


def test_site_yaml_timeout_must_be_positive(tmp_path):
    error = build_error(tmp_path, "tutorials:\n  'one.py': {timeout: 0}", {})
    assert error.message == ("key 'notebooks.tutorials.one.py.timeout': expected a positive number of "
                             "seconds, got 0")
