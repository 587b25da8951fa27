"""Validate built pages with the Nu Html Checker (``vnu.jar``, run on the machine's Java).

The checker is the W3C's own validator, shipped on the npm registry as
``vnu-jar``; ``scripts/setup-test-tools`` installs it into ``.tools/``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from generator.errors import SiteError

JAR_ENV = "SITEGEN_VNU_JAR"
JAR_IN_TOOLS = Path(".tools/node_modules/vnu-jar/build/dist/vnu.jar")


@dataclass(frozen=True)
class Message:
    page: str      # relative to the checked folder
    line: int
    message: str
    extract: str   # the offending markup


def find_checker(site_root: Path) -> list[str]:
    """The command that runs the checker: Java, and ``$SITEGEN_VNU_JAR`` or the
    ``vnu.jar`` in ``.tools/`` of the site or of the sitegen checkout.

    Raises :class:`SiteError` saying what is missing and how to install it.
    """
    setup = f"run scripts/setup-test-tools, or set {JAR_ENV} to a vnu.jar"
    if os.environ.get(JAR_ENV):
        jar = Path(os.environ[JAR_ENV])
        if not jar.is_file():
            raise SiteError(f"the Nu Html Checker is not installed: {JAR_ENV}={jar} is not a file ({setup})")
    else:
        found = [base / JAR_IN_TOOLS for base in (site_root, Path(__file__).resolve().parents[1])
                 if (base / JAR_IN_TOOLS).is_file()]
        if not found:
            raise SiteError(f"the Nu Html Checker is not installed ({setup})")
        jar = found[0]
    java = shutil.which("java")
    if java is None:
        raise SiteError("the Nu Html Checker needs Java: install a JRE (default-jre-headless)")
    return [java, "-jar", str(jar)]


def validate(folder: Path, checker: list[str]) -> list[Message]:
    """Every error the checker (``find_checker``'s command) finds in the HTML files under ``folder``."""
    run = subprocess.run([*checker, "--errors-only", "--format", "json",
                          "--exit-zero-always", "--skip-non-html", str(folder)],
                         capture_output=True, text=True)
    try:
        messages = json.loads(run.stderr)["messages"]
    except (ValueError, KeyError):
        raise SiteError(f"the Nu Html Checker failed: {run.stderr.strip()[-500:]}") from None
    root = folder.resolve()
    return [Message(_page(m.get("url", ""), root), m.get("lastLine", 0), m["message"], _extract(m))
            for m in messages if m.get("type") in ("error", "non-document-error")]


def _page(url: str, root: Path) -> str:
    path = Path(unquote(urlsplit(url).path))
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else url


def _extract(message: dict) -> str:
    extract = message.get("extract", "")
    start, length = message.get("hiliteStart"), message.get("hiliteLength")
    if start is not None and length:
        extract = extract[start:start + length]
    return " ".join(extract.split())
