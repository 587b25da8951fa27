"""The ``sitegen`` command: a thin shell over functions the tests call directly."""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from pathlib import Path

from generator import __version__, gcpolicy
from generator import progress as reporting
from generator.errors import SiteError


USAGE = """\
Build a project's website from Markdown posts and pages, docs per version and
Jupyter tutorials, through Jinja templates, into a folder of static HTML."""

START = """\
a first site:
  sitegen init mysite && cd mysite   a blog, docs pages and a tutorial (see init --help)
  sitegen new post "Hello"           content/posts/YYYY-MM-DD-hello.md (a draft)
  sitegen serve --drafts             preview at http://127.0.0.1:8000/, rebuilt on save
  sitegen build && sitegen check     the site in _site/, then its links and HTML checked

'sitegen COMMAND --help' tells more of each command; 'sitegen help' is the user guide."""


def main(argv: list[str] | None = None) -> int:
    try:        # all of it: Ctrl-C while the arguments are read is no traceback either
        parser = make_parser()
        args = parser.parse_args(argv)
        if not hasattr(args, "run"):
            parser.print_help()
            return 2
        code = args.run(args) or 0
        sys.stdout.flush()      # here, not on the way out: a reader gone by now is caught below
        return code
    except SiteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:     # what read the output went away (`sitegen build | head -1`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # nor one from the exit's flush
        return 141              # as a process that SIGPIPE ended, as a shell reports it


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sitegen", description=USAGE, epilog=START,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"sitegen {__version__}")
    parser.add_argument("-C", "--site", type=Path, default=Path("."),
                        help="the site's folder (holding site.yaml); default: here")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    build = commands.add_parser("build", help="build the site into its output directory")
    add_content_flags(build)
    build.add_argument("--refresh", nargs="*", metavar="NAME",
                       help="ignore every cache and redo all work; with tutorial names "
                            "(notebooks/NAME.ipynb as NAME.ipynb or NAME), run those again only")
    build.add_argument("--check", action="store_true", help="then check the built site (see 'check')")
    add_removal_flag(build)
    build.set_defaults(run=run_build)

    serve = commands.add_parser("serve", help="preview the site, rebuilding and reloading on every save")
    add_content_flags(serve)
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=port, default=8000,
                       help="port to listen on (default 8000; 0: any free port)")
    serve.add_argument("--open", action="store_true", help="open the preview in a browser")
    add_removal_flag(serve)
    serve.set_defaults(run=run_serve)

    check = commands.add_parser("check", help="check the built site: links, anchors, third-party "
                                              "requests, valid HTML")
    check.add_argument("--against", metavar="LIST",
                       help="URLs published before that must still resolve: a sitemap.txt, "
                            "a sitemap.xml, or a git ref of the publish branch")
    check.set_defaults(run=run_check)

    versions = commands.add_parser("versions", help="list the docs versions and the commits they resolve to")
    versions.set_defaults(run=run_versions)

    init = commands.add_parser("init", help="start a new site in a new folder, with the default theme")
    init.add_argument("dest", type=Path, metavar="DIR", help="the new site's folder (new or empty)")
    init.add_argument("--kind", choices=["project", "blog", "docs"], default="project",
                      help="blog: posts; docs: docs pages and a tutorial; project (default): both")
    init.set_defaults(run=run_init)

    tutorials = commands.add_parser("tutorials", help="run tutorials into the cache, or list how their "
                                                      "runs stand, without building the site")
    tutorial_commands = tutorials.add_subparsers(title="commands", metavar="COMMAND")
    tutorials.set_defaults(run=lambda args: tutorials.print_help() or 2)
    run = tutorial_commands.add_parser("run", help="run the tutorials not yet cached (e.g. one CI shard)")
    run.add_argument("--shard", type=shard, metavar="I/N",
                     help="run only the I-th of N slices of the tutorials (N jobs together run each once)")
    run.add_argument("--only", nargs="+", metavar="NAME", default=[],
                     help="run only these tutorials (slug, file name or path)")
    run.add_argument("--device", metavar="NAME",
                     help="run only the tutorials declaring this device ('cpu': those declaring none)")
    run.add_argument("--refresh", action="store_true", help="run them even if a run is cached")
    run.set_defaults(run=run_tutorials)
    status = tutorial_commands.add_parser("status", help="list each tutorial: cached, stale or failed, "
                                                         "and where its run was made")
    status.set_defaults(run=run_tutorial_status)

    new = commands.add_parser("new", help="start a new post (a draft), page, docs page or tutorial")
    new.add_argument("kind", choices=["post", "page", "doc", "tutorial"])
    new.add_argument("title")
    new.set_defaults(run=run_new)

    publish = commands.add_parser("publish", help="check the built site, commit it to the publish branch "
                                                  "and push it")
    publish.add_argument("--branch", help="the branch to publish on (default: site.yaml publish.branch)")
    publish.add_argument("--remote", help="the remote to push to (default: site.yaml publish.remote)")
    publish.add_argument("-m", "--message", help="the commit's subject (default: 'Build at <UTC date>')")
    publish.add_argument("--no-push", dest="push", action="store_false",
                         help="commit to the local branch only")
    publish.add_argument("--dry-run", action="store_true",
                         help="list the files that would change; commit nothing")
    publish.add_argument("--allow-dirty", action="store_true", help="publish even with uncommitted changes")
    publish.add_argument("--allow-removals", action="store_true",
                         help="let the publish remove URLs the branch serves today")
    publish.add_argument("--built", type=Path, metavar="DIR",
                         help="publish this already-built site folder instead of building")
    publish.set_defaults(run=run_publish)

    guide = commands.add_parser("help", help="read the user guide, offline: its topics, or one of them")
    guide.add_argument("topic", nargs="*", help="a topic, or words of its title (e.g. 'tutorials')")
    guide.set_defaults(run=run_help)

    imports = commands.add_parser("import", help="make a sitegen site from another generator's site")
    imports.add_argument("kind", choices=["jekyll"])
    imports.add_argument("source", type=Path, metavar="SRC", help="the Jekyll site (its repository)")
    imports.add_argument("dest", type=Path, metavar="DEST", help="the new site's folder (new or empty)")
    imports.set_defaults(run=run_import)
    return parser


def add_content_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--drafts", action="store_true", help="include posts marked draft: true")
    parser.add_argument("--future", action="store_true", help="include posts dated in the future")


def add_removal_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-removals", action="store_true",
                        help="let a build remove more than half of the files in the output folder")


def run_build(args: argparse.Namespace) -> int:
    # The collector is off until what the build returns is frozen. What the build (and what it
    # imports) makes is freed by reference counting or lives to the end, and a collection would
    # only walk it: turned on earlier (the engine does so on its way out if it found it on), the
    # first would walk every object the build made, 0.2 s of an edit build at 10,000 posts.
    with gcpolicy.paused():
        from generator.build import BuildOptions, build

        started = time.perf_counter()
        refresh, rerun = args.refresh == [], tuple(args.refresh or ())
        if rerun:
            check_tutorial_names(args.site, rerun)
        with reporting.active(reporting.Progress()) as progress:
            result = build(args.site, BuildOptions(drafts=args.drafts, future=args.future, refresh=refresh,
                                                   rerun=rerun, allow_removals=args.allow_removals))
        gcpolicy.freeze()
    print_build(result, time.perf_counter() - started)
    if result.site:
        print(progress.summary())
    return run_check(argparse.Namespace(site=args.site, against=None)) if args.check else 0


def print_build(result, seconds: float | None = None) -> None:
    """What a build did: files, documents parsed and reused, each planner's report (a build with
    nothing to do: one line, and the reports of what it kept)."""
    done = (f"built {len(result.site.posts)} posts, {len(result.site.pages)} pages"
            if result.site else "nothing changed")
    print(f"{done}: {result.summary()}" + (f" in {seconds:.2f}s" if seconds is not None else ""))
    warnings = result.warnings      # made once: at 100,000 posts, of every document
    if warnings:     # one write: 100,000 posts may have as many broken links, a print each was 0.5 s
        sys.stderr.write("".join(f"{warning}\n" for warning in warnings))
    if result.site:
        print(result.documents.summary())
    for report in result.reports.values():
        if report.summary():
            print(report.summary())


def check_tutorial_names(site: Path, names: tuple[str, ...]) -> None:
    """``--refresh NAME`` names a tutorial of the working tree, or it is a mistake."""
    from generator.configure import load_config
    from generator.notebooks.sources import discover, names_of

    known = set().union(*(names_of(path) for path in discover(site, load_config(site).notebooks.exclude)))
    for name in names:
        if name not in known:
            raise SiteError(f"--refresh {name}: no tutorial of that name in notebooks/ "
                            "(give its file name, e.g. intro.ipynb, or its page name)")


def run_serve(args: argparse.Namespace) -> int:
    from generator.build import BuildOptions
    from generator.serve import serve

    serve(args.site, args.host, args.port,
          BuildOptions(drafts=args.drafts, future=args.future, allow_removals=args.allow_removals),
          open_browser=args.open)
    return 0


def run_versions(args: argparse.Namespace) -> int:
    from generator.configure import load_config
    from generator.docs.versions import resolve_versions

    config = load_config(args.site)
    rows = [("NAME", "SOURCE", "COMMIT", "ALIASES", "STATUS")]
    for resolved in resolve_versions(config):
        version = resolved.version
        status = version.status + (", default" if version.default else "")
        rows.append((version.name, resolved.source, resolved.commit or "-",
                     ", ".join(version.aliases) or "-", status))
    if len(rows) == 1:
        print("no docs versions in site.yaml: the docs are built unversioned, from the working tree")
        return 0
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
    return 0


def run_check(args: argparse.Namespace) -> int:
    from generator.check import check_site
    from generator.configure import load_config

    with reporting.active(reporting.Progress()) as progress:
        report = check_site(load_config(args.site), against=args.against)
    for note in report.skipped:
        print(note, file=sys.stderr)
    for finding in report.findings:
        print(finding)
    for warning in report.warnings:
        print(f"warning: {warning}")
    print(report.summary(), file=sys.stderr if report.findings else sys.stdout)
    print(progress.summary(), file=sys.stderr)      # standard output lists the findings alone
    return 0 if report.ok else 1


def port(text: str) -> int:
    """A TCP port, checked here: a bad one is argparse's one-line error, not the socket's traceback."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is not a port: ports go from 0 to 65535")
    return number


def shard(text: str):
    from generator.notebooks.runs import Shard

    try:
        return Shard.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_tutorials(args: argparse.Namespace) -> int:
    from generator.configure import load_config
    from generator.notebooks.runs import run_tutorials, select
    from generator.statedir import own_state_dir

    config = load_config(args.site)
    own_state_dir(config.state_dir)     # the runs go to .sitegen/cache: never through a link, as a build's
    report = run_tutorials(config, select(config, args.only, args.device, args.shard), args.refresh)
    for name, why in report.skipped:
        print(f"skipped {name}: {why}")
    print(report.summary())
    return 0


def run_tutorial_status(args: argparse.Namespace) -> int:
    from generator.configure import load_config
    from generator.notebooks.runs import status_rows, tutorial_status

    rows = status_rows(tutorial_status(load_config(args.site)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
    return 0


def run_new(args: argparse.Namespace) -> int:
    from generator.scaffold import new_source

    path = new_source(args.site, args.kind, args.title)
    print(f"created {path}")
    return 0


def run_init(args: argparse.Namespace) -> int:
    from generator.notebooks.environment import EXTRA
    from generator.scaffold import init_site

    made = init_site(args.dest, kind=args.kind)
    for path in made:
        print(f"created {args.dest / path}")
    if args.kind != "blog" and not any(path.suffix == ".py" for path in made):
        print(f"no tutorial: running tutorials needs {EXTRA}")
    print(f"next: cd {args.dest} && sitegen serve")
    print("the guide, installed with sitegen: sitegen help (sitegen help site.yaml for every setting)")
    return 0


def run_help(args: argparse.Namespace) -> int:
    from generator.guide import find_topic, guide_text, topic_list

    text = guide_text()
    print(find_topic(text, " ".join(args.topic)) if args.topic else topic_list(text), end="")
    return 0


def run_import(args: argparse.Namespace) -> int:
    from generator.importers.jekyll import import_jekyll

    started = time.perf_counter()
    result = import_jekyll(args.source, args.dest)
    print(f"{result.summary()} ({time.perf_counter() - started:.2f}s)")
    return 0


def run_publish(args: argparse.Namespace) -> int:
    from generator.check import require_clean
    from generator.configure import load_config
    from generator.publish import PublishOptions, publish

    check = functools.partial(require_clean, load_config(args.site))
    with reporting.active(reporting.Progress()) as progress:
        result = publish(args.site, PublishOptions(
            branch=args.branch, remote=args.remote, message=args.message, push=args.push,
            dry_run=args.dry_run, allow_dirty=args.allow_dirty, allow_removals=args.allow_removals,
            built=args.built), check=check)
    if result.built is not None:
        print_build(result.built)
    print(result.summary())
    print(progress.summary())
    return 0
