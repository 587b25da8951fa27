"""A corpus of notebooks made here, as a site, and what each holds.

Every notebook is written in our own words and, where it has code, run by real
libraries (IPython, matplotlib, pandas, SymPy, ipywidgets) in a real kernel when the
corpus is made (``write_corpus``), so its outputs are what those libraries really
emit, widget state included. Three are not run here: ``custom-reprs`` is run by the
build itself (``sitegen.execute: auto``), ``other-kernel`` names a kernel this
machine lacks, and ``hostile`` holds saved outputs no kernel would make: script
injection in every field. ``version-three`` is written with nbformat's v3 API.

Used by tests/test_notebook_corpus.py (made once per session) and, for
``make_corpus_site`` and ``output_kinds``, by benchmarks/bench_notebook_corpus.py,
which builds the real notebooks of public projects (benchmarks/notebook_sources.toml).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import shutil
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

REPO = Path(__file__).resolve().parents[1]
EXECUTED = ("custom-reprs.ipynb",    # the build runs it in a real kernel
            "other-kernel.ipynb")    # its kernel (ir) is not installed: shown as saved, with a note
SETTINGS = """notebooks:
  execute: never
  allow_unexecuted: true
  problems: warn
check:
  html: true
"""

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

# Jupyter's choice among an output's types (see generator/notebooks/render.py), by kind.
CHOICE = [
    ("widget", (WIDGET_VIEW,)),
    ("javascript", ("application/javascript",)),
    ("html", ("text/html",)),
    ("markdown", ("text/markdown",)),
    ("latex", ("text/latex",)),
    ("svg", ("image/svg+xml",)),
    ("png", ("image/png",)),
    ("jpeg", ("image/jpeg",)),
    ("gif", ("image/gif",)),
    ("json", ("application/json",)),
    ("text", ("text/plain",)),
]

PYTHON = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}


def _picture(kind: str, colour: tuple[int, int, int] = (40, 110, 190)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (48, 24), colour).save(buffer, kind)
    return buffer.getvalue()


def _python(*cells, **metadata) -> nbformat.NotebookNode:
    return new_notebook(cells=list(cells), metadata={**PYTHON, **metadata})


def rich_display() -> nbformat.NotebookNode:
    return _python(
        new_markdown_cell("# One output of each kind\n\nEach cell hands IPython's display machinery "
                          "one kind of rich output; the page must show every one."),
        new_code_cell("import io\nfrom IPython.display import (HTML, JSON, SVG, Image, Javascript, Latex,\n"
                      "                                Markdown, Math, display)\nfrom PIL import Image as Picture\n\n"
                      "def picture(kind, colour):\n    buffer = io.BytesIO()\n"
                      "    Picture.new('RGB', (64, 32), colour).save(buffer, kind)\n    return buffer.getvalue()"),
        new_code_cell("display(HTML('<p>Some <b>HTML</b>, with a small table:</p>'\n"
                      "             '<table><tr><th>n</th><th>square</th></tr><tr><td>3</td><td>9</td></tr></table>'))"),
        new_code_cell("Image(data=picture('PNG', (200, 80, 40)), format='png')"),
        new_code_cell("Image(data=picture('JPEG', (40, 160, 90)), format='jpeg')"),
        new_code_cell("Image(data=picture('GIF', (90, 40, 160)), format='gif')"),
        new_code_cell("SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"80\" height=\"40\">'\n"
                      "    '<rect width=\"80\" height=\"40\" rx=\"6\" fill=\"teal\"/></svg>')"),
        new_code_cell("Latex(r'''\\begin{align}\na^2 + b^2 &= c^2 \\\\\ne^{i\\pi} + 1 &= 0\n\\end{align}''')"),
        new_code_cell("Math(r'\\int_0^1 x^2 \\, dx = \\frac{1}{3}')"),
        new_code_cell("Markdown('Markdown from code: *emphasis*, `code`, a list:\\n\\n- one\\n- two, with $x^2$')"),
        new_code_cell("JSON({'tool': 'sitegen', 'kinds': ['html', 'png', 'json'], 'nested': {'ok': True}})"),
        new_code_cell("Javascript('document.title = \"a script of the notebook ran\"')"),
        new_code_cell("6 * 7"),
        new_code_cell("display('a plain string', {'a': 1})"),
    )


def figures() -> nbformat.NotebookNode:
    return _python(
        new_markdown_cell("# Figures from matplotlib\n\nOne figure drawn as PNG, then one as SVG."),
        new_code_cell("%matplotlib inline\nimport matplotlib.pyplot as plt\nimport numpy as np\n\n"
                      "x = np.linspace(0, 2 * np.pi, 100)"),
        new_code_cell("fig, ax = plt.subplots(figsize=(4, 2.5))\nax.plot(x, np.sin(x), label='sine')\n"
                      "ax.legend()\nplt.show()"),
        new_code_cell("%config InlineBackend.figure_formats = ['svg']\n"
                      "fig, ax = plt.subplots(figsize=(4, 2.5))\nax.bar(['a', 'b', 'c'], [3, 1, 2])\nplt.show()"),
    )


def tables() -> nbformat.NotebookNode:
    return _python(
        new_markdown_cell("# Tables from pandas\n\nA frame, a summary of it, a styled frame and a series."),
        new_code_cell("import pandas as pd\n\nframe = pd.DataFrame({'city': ['Oslo', 'Lima', 'Pune'],\n"
                      "                      'people': [709_000, 10_000_000, 7_000_000],\n"
                      "                      'rain_mm': [763.0, 16.0, 722.5]})\nframe"),
        new_code_cell("frame.describe()"),
        new_code_cell("frame.style.highlight_max(subset=['people'], color='#ffe08a').format({'rain_mm': '{:.1f}'})"),
        new_code_cell("frame['people'] / 1000"),
    )


def symbols() -> nbformat.NotebookNode:
    return _python(
        new_markdown_cell("# Symbols from SymPy\n\nSymPy prints its results as LaTeX beside plain text."),
        new_code_cell("import sympy as sp\n\nsp.init_printing()\nx, y = sp.symbols('x y')"),
        new_code_cell("sp.Integral(sp.exp(-x**2), (x, -sp.oo, sp.oo))"),
        new_code_cell("sp.solve(x**2 - 3*x + 1, x)"),
        new_code_cell("sp.Matrix([[1, x], [y, 1]]).inv()"),
    )


def streams() -> nbformat.NotebookNode:
    failing = new_code_cell("def share(total, people):\n    return total / people\n\nshare(10, 0)")
    failing.metadata["tags"] = ["raises-exception"]
    return _python(
        new_markdown_cell("# Streams, colours and a traceback"),
        new_code_cell("for n in range(3):\n    print('line', n)"),
        new_code_cell("import sys\nprint('this goes to standard error', file=sys.stderr)"),
        new_code_cell("print('\\x1b[31mred\\x1b[0m \\x1b[1;32mbold green\\x1b[0m '\n"
                      "      '\\x1b[38;5;208mcolour 208\\x1b[0m \\x1b[48;2;30;60;200mtrue-colour background\\x1b[0m')"),
        new_code_cell("import warnings\nwarnings.warn('a warning, as a library would give one')"),
        failing,
    )


def widgets() -> nbformat.NotebookNode:
    return _python(
        new_markdown_cell("# Widgets with their state saved\n\nThe kernel that ran this notebook saved every "
                          "widget's state in its metadata, so a page can draw them without one."),
        new_code_cell("import ipywidgets as w"),
        new_code_cell("w.IntSlider(value=4, min=0, max=10, description='Count')"),
        new_code_cell("w.HBox([w.Text(value='hello', description='Word'), w.Checkbox(value=True, description='On')])"),
        new_code_cell("w.Dropdown(options=['red', 'green', 'blue'], value='green', description='Colour')"),
        new_code_cell("w.VBox([w.Button(description='Press', button_style='info'),\n"
                      "        w.FloatProgress(value=0.6, max=1.0, description='Done'),\n"
                      "        w.ToggleButtons(options=['day', 'week', 'month'])])"),
        new_code_cell("low = w.IntSlider(description='Linked')\nhigh = w.IntText()\n"
                      "w.jslink((low, 'value'), (high, 'value'))\ndisplay(low, high)"),
        new_code_cell("w.HTML('<b>Bold</b> text in a widget')"),
        new_code_cell("# A view of a model the kernel no longer has: its state cannot be saved.\n"
                      "display({'application/vnd.jupyter.widget-view+json': {'model_id': 'gone', 'version_major': 2,\n"
                      "         'version_minor': 0}, 'text/plain': 'a widget'}, raw=True)"),
    )


def attachments() -> nbformat.NotebookNode:
    cell = new_markdown_cell("# A picture attached to a cell\n\n![a blue rectangle](attachment:rectangle.png)\n\n"
                             "And a drawing: ![a circle](attachment:circle.svg)")
    cell.attachments = {
        "rectangle.png": {"image/png": base64.b64encode(_picture("PNG")).decode()},
        "circle.svg": {"image/svg+xml": '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
                                        '<circle cx="10" cy="10" r="8" fill="orange"/></svg>'},
    }
    return _python(cell, new_code_cell("print('the attachments travel inside the notebook file')"))


def custom_reprs() -> nbformat.NotebookNode:
    return _python(
        new_markdown_cell("# Objects that display themselves\n\nThe build runs this notebook: each class "
                          "tells IPython how to show it, through the `_repr_*_` methods."),
        new_code_cell("import io\nimport matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n\n"
                      "class Ring:\n    def __init__(self, radius):\n        self.radius = radius\n\n"
                      "    def _repr_png_(self):\n        fig, ax = plt.subplots(figsize=(1.5, 1.5))\n"
                      "        ax.add_patch(plt.Circle((0, 0), self.radius, fill=False))\n"
                      "        ax.set_xlim(-2, 2)\n        ax.set_ylim(-2, 2)\n        buffer = io.BytesIO()\n"
                      "        fig.savefig(buffer, format='png')\n        plt.close(fig)\n"
                      "        return buffer.getvalue()\n\n"
                      "    def _repr_latex_(self):\n        return rf'$A = \\pi r^2 = {3.14159 * self.radius**2:.2f}$'\n\n"
                      "Ring(1.5)"),
        new_code_cell("from IPython.display import display\n\nclass Card:\n    def _repr_html_(self):\n"
                      "        return '<div><strong>A card</strong> drawn as HTML</div>'\n\n"
                      "    def _repr_markdown_(self):\n        return '**A card** drawn as Markdown'\n\n"
                      "class Box:\n    def _repr_svg_(self):\n"
                      "        return '<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"30\" height=\"30\">'\\\n"
                      "               '<rect width=\"30\" height=\"30\" fill=\"purple\"/></svg>'\n\n"
                      "class Record:\n    def _repr_json_(self):\n        return {'id': 7, 'tags': ['a', 'b']}\n\n"
                      "display(Card(), Box(), Record())"),
        new_code_cell("class Both:\n    def _repr_mimebundle_(self, include=None, exclude=None):\n"
                      "        return {'text/plain': 'both', 'text/markdown': 'Both, as *Markdown*'}\n\nBoth()"),
    )


def other_kernel() -> nbformat.NotebookNode:
    """Saved outputs as an R kernel would give them; the kernel is not installed here."""
    table = ("<table>\n<thead><tr><th></th><th scope=col>speed</th><th scope=col>dist</th></tr></thead>\n"
             "<tbody>\n<tr><th scope=row>1</th><td>4</td><td>2</td></tr>\n"
             "<tr><th scope=row>2</th><td>7</td><td>4</td></tr>\n</tbody>\n</table>\n")
    return new_notebook(
        cells=[
            new_markdown_cell("# A notebook of another language\n\nWritten for an R kernel (`ir`)."),
            new_code_cell("cars <- data.frame(speed = c(4, 7), dist = c(2, 4))\ncars", execution_count=1, outputs=[
                new_output("execute_result", execution_count=1, data={
                    "text/html": table, "text/markdown": "| speed | dist |\n|---|---|\n| 4 | 2 |\n| 7 | 4 |\n",
                    "text/latex": "\\begin{tabular}{r|ll}\n & speed & dist\\\\\n\\hline\n1 & 4 & 2\\\\\n"
                                  "2 & 7 & 4\\\\\n\\end{tabular}\n",
                    "text/plain": "  speed dist\n1 4     2   \n2 7     4   "})]),
            new_code_cell("plot(cars)", execution_count=2, outputs=[
                new_output("display_data", data={"image/png": base64.b64encode(_picture("PNG")).decode(),
                                                 "text/plain": "plot without title"})]),
            new_code_cell("message('done')", execution_count=3, outputs=[
                new_output("stream", name="stderr", text="done\n")]),
        ],
        metadata={"kernelspec": {"name": "ir", "display_name": "R", "language": "R"},
                  "language_info": {"name": "R", "version": "4.4.1", "file_extension": ".r"}})


# Every form of math Jupyter's documentation teaches: inline and display, TeX environments
# bare and between dollars, in lists and tables. 10 inline formulas, 7 displayed.
MATH_FORMS = [
    "# Math in Markdown cells\n\n"
    "A notebook's Markdown mixes prose with TeX. Inline, between single dollars: the mean "
    "$\\bar{x} = \\frac{1}{n}\\sum_{i=1}^{n} x_i$ and the variance $s^2$ of a sample.",
    "## Display math between double dollars\n\n"
    "$$\n\\int_{-\\infty}^{\\infty} e^{-t^2} \\, dt = \\sqrt{\\pi}\n$$",
    "## Display math between brackets, inline between parentheses\n\n"
    "The roots of \\(a x^2 + b x + c\\) are\n\n"
    "\\[\nx = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}\n\\]",
    "## An align environment on its own\n\n"
    "\\begin{align}\n"
    "\\nabla \\cdot \\mathbf{E} &= \\frac{\\rho}{\\varepsilon_0} \\\\\n"
    "\\nabla \\cdot \\mathbf{B} &= 0\n"
    "\\end{align}",
    "## An align environment between dollars\n\n"
    "$\\begin{align}\n"
    "f(x) &= (x + 1)^2 \\\\\n"
    "     &= x^2 + 2x + 1\n"
    "\\end{align}$",
    "## Equation environments\n\n"
    "\\begin{equation}\n"
    "\\sum_{k=0}^{\\infty} \\frac{x^k}{k!} = e^x\n"
    "\\end{equation}\n\n"
    "And one without a number:\n\n"
    "\\begin{equation*}\n"
    "\\det \\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix} = ad - bc\n"
    "\\end{equation*}",
    "## An environment inside double dollars\n\n"
    "$$\\begin{equation*}\n"
    "\\binom{n}{k} = \\frac{n!}{k! \\, (n - k)!}\n"
    "\\end{equation*}$$",
    "## Math in a list\n\n"
    "- a line: $y = m x + b$\n"
    "- a circle: $x^2 + y^2 = r^2$\n"
    "- an ellipse, with text in it: $\\frac{x^2}{a^2} + \\frac{y^2}{b^2} = 1 \\text{ for } a, b > 0$",
    "## Math in a table\n\n"
    "| name | formula |\n"
    "|---|---|\n"
    "| area of a disc | $\\pi r^2$ |\n"
    "| golden ratio | $\\varphi = \\frac{1 + \\sqrt{5}}{2}$ |",
    "## Mixed with formatting\n\n"
    "In *italic* and **bold** prose, $\\sqrt{3x - 1} + (1 + x)^2$ sits inline, and "
    "a [link](#Math-in-a-table) sits beside $\\alpha \\to \\beta$.",
]


def math_forms() -> nbformat.NotebookNode:
    """Every form of math Jupyter's documentation teaches, in Markdown cells."""
    return _python(*map(new_markdown_cell, MATH_FORMS))


# Every payload reports itself: a dialog, a console message and the page's title.
RUN = "alert('{0}'),console.log('ran:{0}'),document.title='ran:{0}'"
EVIL_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" onload="{0}">'
            '<script>{1}</script><circle cx="4" cy="4" r="3"/></svg>')


def hostile() -> nbformat.NotebookNode:
    """Script injection in every field a notebook has, as saved outputs no kernel made."""
    def script(where: str) -> str:
        return f"<script>{RUN.format(where)}</script>"

    def svg(where: str) -> str:
        return EVIL_SVG.format(RUN.format(f"{where} onload"), RUN.format(f"{where} script"))

    markdown = new_markdown_cell(
        f"# Hostile {script('heading')}\n\n{script('markdown')}\n\n"
        f"<img src=\"nowhere.png\" onerror=\"{RUN.format('onerror')}\" alt=\"broken\">\n\n"
        f"A [link](javascript:{RUN.format('markdown link')}) and "
        f"<a href=\"javascript:{RUN.format('html link')}\">another</a>.\n\n"
        f"<iframe srcdoc=\"{script('iframe')}\"></iframe>\n"
        f"<details open ontoggle=\"{RUN.format('ontoggle')}\"><summary>More</summary>Kept.</details>\n"
        f"<svg onload=\"{RUN.format('inline svg')}\"><script>{RUN.format('inline svg')}</script></svg>\n\n"
        "![attached](attachment:bad.svg) <img src='attachment:x\" onerror=\"alert(1).png' alt='named'>")
    markdown.attachments = {"bad.svg": {"image/svg+xml": svg("attachment")},
                            "x\" onerror=\"alert(1).png": {"image/png": base64.b64encode(_picture("PNG")).decode()}}
    markdown.metadata["tags"] = ["<script>document.title='ran:tag'</script>"]   # a tag has no comma
    broken = "this is not base64 at all!"
    cell = new_code_cell(f"print('{script('source')}')", execution_count=1, outputs=[
        new_output("stream", name="stdout", text=script("stream")),
        new_output("display_data", data={"text/html": f"{script('html')}<b onmouseover=\"{RUN.format('hover')}\">"
                                                      "bold</b>", "text/plain": "html"}),
        new_output("display_data", data={"text/markdown": f"{script('markdown output')} *kept*"}),
        new_output("display_data", data={"image/svg+xml": svg("svg output")}),
        new_output("display_data", data={"text/html": f"<img alt=none onerror=\"{RUN.format('html onerror')}\">"
                                                      f"<iframe src=\"javascript:{RUN.format('html iframe')}\">"
                                                      "</iframe><object data=\"javascript:alert(1)\"></object>"
                                                      f"<a href=\"javascript:{RUN.format('html link')}\">a link</a>"}),
        new_output("display_data", data={"image/png": base64.b64encode(_picture("PNG")).decode()},
                   metadata={"image/png": {"width": f'8" onload="{RUN.format("width")}',
                                           "height": "<script>document.title='ran:height'</script>",
                                           "alt": f'"><script>{RUN.format("alt")}</script>'}}),
        new_output("display_data", data={"image/png": broken, "text/plain": "a broken PNG"}),
        new_output("display_data", data={"image/jpeg": broken}),
        new_output("display_data", data={"text/latex": f"$\\href{{javascript:{RUN.format('latex')}}}{{x}}$"}),
        new_output("display_data", data={"application/json": {"key": script("json")}}),
        new_output("display_data", data={"application/javascript": RUN.format("javascript")}),
        new_output("execute_result", execution_count=1, data={"text/plain": script("plain")}),
        new_output("error", ename=script("ename"), evalue=script("evalue"),
                   traceback=[f"\x1b[31m{script('traceback')}\x1b[0m"]),
    ])
    cell.metadata["tags"] = ["<img src=x onerror=document.title='ran:code-tag'>"]
    return _python(markdown, cell, title=script("title"),
                   authors=[{"name": script("author")}])


def version_three() -> str:
    """A notebook in nbformat 3 (worksheets, ``pyout``, ``pyerr``), as IPython 2 saved them."""
    from nbformat import v3

    png = base64.b64encode(_picture("PNG", (200, 30, 90))).decode()
    cells = [
        v3.new_heading_cell("An old notebook", level=1),
        v3.new_text_cell("markdown", source="Written in **nbformat 3**, with math: $e^{i\\theta}$."),
        v3.new_code_cell(input="1 + 2", prompt_number=1, outputs=[
            v3.new_output("pyout", output_text="3", prompt_number=1)]),
        v3.new_code_cell(input="print('hello')", prompt_number=2, outputs=[
            v3.new_output("stream", output_text="hello\n", stream="stdout")]),
        v3.new_code_cell(input="show()", prompt_number=3, outputs=[
            v3.new_output("display_data", output_png=png, output_text="<a picture>"),
            v3.new_output("display_data", output_html="<p>old <i>HTML</i></p>", output_text="html"),
            v3.new_output("display_data", output_latex="$$\\sum_{k=1}^n k = \\frac{n(n+1)}{2}$$")]),
        v3.new_code_cell(input="1 / 0", prompt_number=4, outputs=[
            v3.new_output("pyerr", ename="ZeroDivisionError", evalue="division by zero",
                          traceback=["\x1b[0;31mZeroDivisionError\x1b[0m: division by zero"])]),
    ]
    notebook = v3.new_notebook(name="version-three", worksheets=[v3.new_worksheet(cells=cells)])
    return v3.writes_json(notebook)


# name -> (maker, run by a kernel when the corpus is made)
NOTEBOOKS: dict[str, tuple[Callable, bool]] = {
    "rich-display.ipynb": (rich_display, True),
    "figures.ipynb": (figures, True),
    "tables.ipynb": (tables, True),
    "symbols.ipynb": (symbols, True),
    "streams.ipynb": (streams, True),
    "widgets.ipynb": (widgets, True),
    "attachments.ipynb": (attachments, True),
    "custom-reprs.ipynb": (custom_reprs, False),
    "other-kernel.ipynb": (other_kernel, False),
    "hostile.ipynb": (hostile, False),
    "version-three.ipynb": (version_three, False),
    "math-forms.ipynb": (math_forms, False),
}


def notebooks() -> list[str]:
    return sorted(NOTEBOOKS)


def write_corpus(folder: Path) -> list[Path]:
    """Make every notebook of the corpus in ``folder``, running those with code in real kernels,
    two at a time (kernels mostly wait: for their imports, for the client)."""
    from nbclient import NotebookClient

    made = {name: make() for name, (make, _) in NOTEBOOKS.items()}
    clients = [NotebookClient(made[name], timeout=120, kernel_name="python3",
                              resources={"metadata": {"path": str(folder)}})
               for name, (_, run) in NOTEBOOKS.items() if run]

    async def run_all() -> None:
        slots = asyncio.Semaphore(2)

        async def run(client) -> None:
            async with slots:
                await client.async_execute()

        await asyncio.gather(*map(run, clients))

    folder.mkdir(parents=True, exist_ok=True)
    asyncio.run(run_all())
    for name, notebook in made.items():
        (folder / name).write_text(notebook if isinstance(notebook, str) else nbformat.writes(notebook))
    return [folder / name for name in notebooks()]


def make_corpus_site(destination: Path, sources: Iterable[Path], executed: Iterable[str] = EXECUTED,
                     fixture: Path = REPO / "tests" / "data" / "basic") -> Path:
    """A site with the basic fixture's content, this repository's templates and assets, and the
    notebooks; those named in ``executed`` get ``sitegen.execute: auto``, the rest show saved outputs."""
    shutil.copytree(fixture, destination)
    for folder in ("templates", "assets"):
        shutil.copytree(REPO / folder, destination / folder, dirs_exist_ok=True)
    (destination / "assets/css/site.css").unlink()   # the fixture's stub: the theme's stylesheet applies
    with open(destination / "site.yaml", "a") as f:
        f.write(SETTINGS)
    target = destination / "notebooks"
    target.mkdir()
    executed = set(executed)
    for path in sources:
        if path.name in executed:
            data = json.loads(path.read_text())
            data["metadata"]["sitegen"] = {"execute": "auto"}
            (target / path.name).write_text(json.dumps(data, indent=1))
        else:
            shutil.copy(path, target / path.name)
    return destination


def output_kinds(path: Path) -> Counter:
    """How many outputs of each kind the notebook holds, as Jupyter would show them.

    ``error`` and ``stream`` outputs count as such; a display output counts
    under the richest type it has (an nbformat v3 notebook read through
    nbformat, as the build reads it); a widget whose model's state the
    notebook did not save counts apart.
    """
    notebook = nbformat.read(path, as_version=4)
    saved = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    kinds: Counter = Counter()
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and cell.get("attachments"):
            kinds["attachment"] += len(cell.attachments)
        for output in cell.get("outputs", ()):
            if output.output_type in ("stream", "error"):
                kinds[output.output_type] += 1
                continue
            data = output.get("data", {})
            kind = next((kind for kind, mimes in CHOICE if any(m in data for m in mimes)), "other")
            if kind == "widget" and "state" not in saved.get(data[WIDGET_VIEW].get("model_id"), {}):
                kind = "widget without state"
            kinds[kind] += 1
    return kinds
