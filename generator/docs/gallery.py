"""The pages of a docs section's tutorials (loaded only for a tree that has some: nbclient and
nbconvert take most of a second to load): each run's notebook as a page in the docs
layout, with its downloads (``.ipynb``, executed, and ``.py``) and images, and the gallery
that lists them; what a page says of how its outputs came to be."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Collection, Mapping

import nbformat
from markupsafe import Markup
from nbformat import NotebookNode

from generator.config import Config
from generator.docs.tutorials import TutorialStats, Tutorials
from generator.errors import SiteError, warning_line
from generator.links import Linked, document_anchors
from generator.notebooks import charts
from generator.notebooks.pipeline import Job, cut_outputs, execute_tutorials, executed_notebook
from generator.myst import Labels
from generator.notebooks.render import NotebookRenderer, RenderedNotebook, markdown_sources, page_title
from generator.notebooks.sources import to_percent
from generator.outputs import generated_page
from generator.render import Renderer

GALLERY_TEMPLATE = "templates/tutorials.html"


def render_tutorials(config: Config, tree: Path, gallery_url: str, render: Callable[..., str],
                     renderer: Renderer, refresh: bool = False, version: str | None = None,
                     rerun: Collection[str] = (), docs: dict[str, Any] | None = None,
                     labels: Labels | None = None, updated: Mapping[str, str] = {}) -> Tutorials:
    """Execute (or take from the cache) and render the tutorials in ``tree/notebooks``.

    ``gallery_url`` is where the gallery is published (``/docs/v2/tutorials/``);
    ``render`` renders a page template with the site's context; ``version``
    names the docs version in progress lines; ``rerun`` names tutorials to run
    again whatever the cache holds; ``docs`` is the docs section's navigation (its
    pages) for the sidebar, to which each page adds the tutorials; ``labels`` the docs pages'
    MyST labels, to which the tutorials add theirs; ``updated`` the day each source (by its path
    in ``tree``) last changed in git, which its page shows.
    """
    jobs = execute_tutorials(config, tree, refresh, version, rerun)
    return render_pages(jobs, config, gallery_url, render, renderer, docs, labels, updated)


def render_pages(jobs: list[Job], config: Config, gallery_url: str, render: Callable[..., str],
                 renderer: Renderer, docs: dict[str, Any] | None = None, labels: Labels | None = None,
                 updated: Mapping[str, str] = {}) -> Tutorials:
    """Each tutorial's page, downloads and images, then the gallery index, all in the docs
    layout: ``docs`` (the section's pages) with the tutorials added, for the sidebar; ``labels``
    (the docs pages' MyST labels) with the tutorials' added, for MyST's roles in any of them;
    ``updated``: the day each source last changed in git, shown on its page."""
    rendered: list[tuple[Job, NotebookNode, RenderedNotebook]] = []
    pages = {job.tutorial.folder / job.tutorial.path.name: f"{gallery_url}{job.tutorial.slug}.html"
             for job in jobs}
    labels = Labels() if labels is None else labels
    for job in jobs:
        url = renderer.relative_url(f"{gallery_url}{job.tutorial.slug}.html")
        texts = markdown_sources(job.tutorial.notebook)
        labels.add(job.tutorial.folder / job.tutorial.path.name, url, page_title(job.tutorial, job.meta.title, texts),
                   texts)
    for job in jobs:
        notebook = executed_notebook(job)
        page = NotebookRenderer(job.tutorial, config.notebooks, renderer, f"{gallery_url}{job.tutorial.slug}/",
                                pages, labels)
        rendered.append((job, notebook, page.render(notebook, job.meta.title, job.meta.description)))
    tutorials = Tutorials(gallery_url)
    tutorials.warnings = [warning_line(w) for _, _, result in rendered for w in result.warnings]
    cards = [{"title": r.title, "url": f"{gallery_url}{job.tutorial.slug}.html",
              "description": r.description, "thumbnail": r.thumbnail,
              "unexecuted": job.origin in ("stored", "unexecuted")} for job, _, r in rendered]
    tutorials.pages = [{"title": card["title"], "url": card["url"]} for card in cards]
    docs = {"version": None, "root": "", "pages": [], "editable": True, **(docs or {}),
            "tutorials": gallery_url, "tutorial_pages": tutorials.pages}
    for name, data in charts.publish(set().union(*(result.charts for _, _, result in rendered))):
        tutorials.add(name, data, "<default theme>/vendor")
    for n, (job, notebook, result) in enumerate(rendered):
        slug, origin = job.tutorial.slug, job.tutorial.path
        try:
            nbformat.validate(notebook)
        except nbformat.ValidationError as exc:
            raise SiteError(f"the executed notebook is not valid: {exc.message}", origin) from None
        cut_outputs(notebook, config.notebooks.output_limit)
        tutorials.add(f"{slug}.ipynb", nbformat.writes(notebook) + "\n", origin)
        tutorials.add(f"{slug}.py", to_percent(notebook), origin)
        for name, data in sorted(result.files.items()):
            tutorials.add(f"{slug}/{name}", data, origin)
        html = render(
            "tutorial.html", origin, page=_page(result.title, cards[n]["url"], result.description),
            content=Markup(result.html), heading=result.heading, run=run_view(job),
            widgets=result.widgets, styles=Markup(result.styles),
            charts=[f"{gallery_url}{script}" for script in charts.scripts(result.charts)],
            downloads={"ipynb": f"{gallery_url}{slug}.ipynb", "py": f"{gallery_url}{slug}.py"},
            gallery_url=gallery_url, notebook=job.tutorial.path.as_posix(),
            docs={**docs, "updated": updated.get(job.tutorial.path.as_posix())},
            previous=cards[n - 1] if n else None, next=cards[n + 1] if n + 1 < len(cards) else None,
        )
        tutorials.add(f"{slug}.html", html, origin)
        titled = tuple(ident for ident in result.heading.values() if ident)    # the title's id and Jupyter's
        tutorials.linked.append(Linked(origin.as_posix(), cards[n]["url"], result.links,
                                       (*document_anchors(result.html), *titled), result.notes))
    index = render("tutorials.html", Path(GALLERY_TEMPLATE),
                   page=_page("Tutorials", gallery_url, "Tutorials, executed when the site is built."),
                   tutorials=cards, docs=docs)
    tutorials.add("index.html", index, GALLERY_TEMPLATE)
    origins = [job.origin for job in jobs]
    tutorials.stats = TutorialStats(origins.count("ran"), origins.count("cache"), origins.count("unexecuted"),
                                    origins.count("stored"))
    return tutorials


def run_view(job: Job) -> dict[str, Any]:
    """What the page says about how its outputs came to be."""
    needs = ", ".join(job.missing)
    if job.origin == "stored":
        return {"seconds": None, "note_title": "Not executed",
                "note": "This tutorial is not run when the site is built (execute: never); the outputs "
                        "shown are those saved in the notebook."}
    if job.origin == "unexecuted":
        return {"seconds": None, "note_title": "Not executed",
                "note": f"This tutorial needs {needs}, which the machine that built this site lacks, so "
                        "it was not run; the outputs shown, if any, are those saved in the notebook."}
    run = job.run
    if job.missing:
        return {"seconds": run.seconds, "note_title": "Outputs from another machine",
                "note": f"This tutorial needs {needs}, which the machine that built this site lacks; "
                        f"the outputs shown come from its run on {run.host} at {run.started}."}
    return {"seconds": run.seconds, "note_title": "", "note": ""}


def _page(title: str, url: str, description: str) -> dict[str, Any]:
    return generated_page(title, url, "tutorial", description)
