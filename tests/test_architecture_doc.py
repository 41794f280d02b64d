"""docs/architecture.md lists every module of the package, each under its own package,
and names no module that is gone: the one-page map cannot fall behind the tree."""

from __future__ import annotations

import re
from pathlib import Path

import coyote_pi

PACKAGE = Path(coyote_pi.__file__).parent
DOC = PACKAGE.parent / "docs" / "architecture.md"


def _listed() -> set[str]:
    """The modules the tree in the document shows, as paths relative to the package."""
    tree = DOC.read_text(encoding="utf-8").split("```")[1]
    listed, package = set(), ""
    for line in tree.splitlines():
        indent = len(line) - len(line.lstrip())
        words = line.split()
        if not words or indent == 0:
            continue
        if indent == 2:
            package = words[0] if words[0].endswith("/") else ""
            if not package:
                listed.add(words[0])
            continue
        # A package's modules, several to a line where they share one description.
        names = []
        for word in words:
            if not re.fullmatch(r"\w+\.py", word):
                break
            names.append(word)
        listed |= {package + name for name in names}
    return listed


def _modules() -> set[str]:
    return {str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
            if path.name not in ("__init__.py", "__main__.py")}


def test_the_architecture_note_lists_every_module_under_its_package():
    listed = _listed()
    assert {"cli.py", "engine/game.py", "commands/golden.py"} <= listed  # the parsing is not vacuous
    assert sorted(_modules() - listed) == [], "modules missing from docs/architecture.md"
    assert sorted(listed - _modules()) == [], "docs/architecture.md names modules that do not exist"
