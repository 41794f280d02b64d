"""The package's layers: no module imports from a layer above its own, and the real table
never loads the simulated one.

From the bottom: the cards and the names the table and its page share (contract); the
pure rules (engine); the game record, the vision code, the devices, the memory helper and
the virtual players, each built on the rules and none on another; what the table and
its page both read (the configuration and the words: the translator and the verdict's
explanation; the speech, which words only public facts; the review of a finished game);
the table (the controller and its parts); the simulated table (sim); the measurements on it
(bench) and the printable parts' builder (parts); and at the top the command line (cli and
``coyote_pi.commands``, where every command module lives), the Pi's installer, doctor and
service glue (pi) and the web page (web).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import cv2

import coyote_pi
from coyote_pi.cli import COMMANDS
from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import Conditions, TableScene

PACKAGE = Path(coyote_pi.__file__).parent

#: The layers from the bottom up: a module may import its own layer and the layers below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("coyote_pi", "coyote_pi.cards", "coyote_pi.contract"),
    ("coyote_pi.engine",),
    ("coyote_pi.record", "coyote_pi.vision", "coyote_pi.devices", "coyote_pi.memory", "coyote_pi.players"),
    ("coyote_pi.config", "coyote_pi.words", "coyote_pi.speech", "coyote_pi.review"),
    ("coyote_pi.table",),
    ("coyote_pi.sim",),
    ("coyote_pi.bench", "coyote_pi.parts"),
    ("coyote_pi.commands", "coyote_pi.cli", "coyote_pi.__main__", "coyote_pi.pi", "coyote_pi.web"),
)
#: Packages of one layer that must not import each other either.
INDEPENDENT = frozenset(LAYERS[2])


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    base = PACKAGE.parent.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _owner(name: str) -> str | None:
    """The layer entry a module belongs to: the longest one that is it or contains it."""
    owners = [entry for layer in LAYERS for entry in layer if name == entry or name.startswith(entry + ".")]
    return max(owners, key=len, default=None)


def _rank(owner: str) -> int:
    return next(index for index, layer in enumerate(LAYERS) if owner in layer)


def _is_command(tree: ast.Module) -> bool:
    """A command module provides ``configure(parser)`` and ``run(args)`` (see coyote_pi.cli)."""
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    return {"configure", "run"} <= functions


def _imports(name: str, tree: ast.Module) -> set[str]:
    """The package's modules that ``name`` imports, anywhere in it (in functions too)."""
    found = set()
    package = name if _is_module(name + ".__init__") else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            found |= {f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}") else base for alias in node.names}
    return {module for module in found if module == "coyote_pi" or module.startswith("coyote_pi.")}


def test_no_module_imports_from_a_higher_layer():
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        owner = _owner(name)
        if owner is None:
            problems.append(f"{name} belongs to no layer: add its package to LAYERS")
            continue
        rank = _rank(owner)
        for imported in sorted(_imports(name, tree)):
            other = _owner(imported)
            if other is None:
                problems.append(f"{name} imports {imported}, which belongs to no layer")
            elif _rank(other) > rank:
                problems.append(f"{name} imports {imported}, a higher layer")
            elif other != owner and {owner, other} <= INDEPENDENT:
                problems.append(f"{name} imports {imported}: {owner} and {other} must not depend on each other")
    assert not problems, "\n".join(problems)


#: The modules that build a controller: only they may import it. Its parts receive a
#: coyote_pi.table.part.Table (or a Protocol on top of it), never the controller itself.
CONTROLLER = "coyote_pi.table.controller"
CONTROLLER_BUILDERS = frozenset({"coyote_pi.table.rig", "coyote_pi.sim.soak"})


def test_only_the_builders_import_the_controller():
    importers = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        if CONTROLLER in _imports(name, ast.parse(path.read_text(encoding="utf-8"), str(path))):
            importers.add(name)
    assert importers == CONTROLLER_BUILDERS, f"imports the controller beyond its builders: {importers - CONTROLLER_BUILDERS}"
    # the check sees an import under TYPE_CHECKING too, where the parts once imported it
    hidden = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from coyote_pi.table.controller import Controller")
    assert CONTROLLER in _imports("coyote_pi.table.turn", hidden)


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in graph or other == module:
                continue
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = set()
            while not group or module not in group:
                group.add(stack.pop())
            if len(group) > 1:
                found.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_modules_import_each_other():
    """A circle of imports is one module in several files: none is left, counting the
    imports under ``if TYPE_CHECKING:`` too (type hints are a dependency all the same;
    the table's parts once went round one through the state they share, now
    coyote_pi.table.state, which imports no part). ``python3 -m coyote_pi.commands.install``
    goes round none either."""
    graph = {_module_name(path): _imports(_module_name(path), ast.parse(path.read_text(encoding="utf-8")))
             for path in PACKAGE.rglob("*.py")}
    assert _cycles(graph) == []
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]  # the search finds one
    hinted = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from coyote_pi.table import part")
    assert _imports("coyote_pi.table.state", hinted) == {"coyote_pi.table.part"}  # and sees a hint's import


#: The parts' shared state: the parts and the screens read it, so it imports none of them.
STATE = "coyote_pi.table.state"


def test_the_tables_state_and_screens_import_no_part():
    """A part is a module that takes the table's seam (coyote_pi.table.part.Table); the
    state every part reads, and the screens built from it, import none."""
    trees = {_module_name(path): ast.parse(path.read_text(encoding="utf-8"))
             for path in (PACKAGE / "table").glob("*.py")}
    imports = {name: _imports(name, tree) for name, tree in trees.items()}
    parts = {name for name, found in imports.items() if "coyote_pi.table.part" in found}
    assert {"coyote_pi.table.turn", "coyote_pi.table.game_start"} <= parts  # the check sees the parts
    for reader in (STATE, "coyote_pi.table.screens", "coyote_pi.table.part"):
        seen, todo = set(), [reader]
        while todo:  # everything it imports, directly or not
            for imported in imports.get(todo.pop(), set()) - seen:
                seen.add(imported)
                todo.append(imported)
        assert not seen & parts, f"{reader} imports the parts {sorted(seen & parts)}"


def test_the_layer_check_sees_the_commands_and_the_simulation():
    """The check above is not vacuous: every command the CLI offers is found as one, some
    command imports the simulation, and the simulation imports the table below it."""
    trees = {_module_name(path): ast.parse(path.read_text(encoding="utf-8")) for path in PACKAGE.rglob("*.py")}
    commands = {name for name, tree in trees.items() if _is_command(tree)}
    assert {module for module, _ in COMMANDS.values()} <= commands
    assert all(_owner(name) == "coyote_pi.commands" for name in commands), "a command outside coyote_pi.commands"
    assert any(_owner(imported) == "coyote_pi.sim" for name in commands for imported in _imports(name, trees[name]))
    assert "coyote_pi.table.rig" in _imports("coyote_pi.sim.rig", trees["coyote_pi.sim.rig"])
    assert _imports("coyote_pi.table.x", ast.parse("from coyote_pi import cards as C")) == {"coyote_pi.cards"}
    assert _imports("coyote_pi.table.x", ast.parse("from . import store\nfrom ..sim import rig")) == {
        "coyote_pi.table.store", "coyote_pi.sim.rig"}


#: Runs in a fresh interpreter: imports every module of the real table's packages, then
#: runs ``coyote-pi run`` on a folder camera until the deal is read and recorded, stops
#: it as systemd does (SIGTERM), and reports which simulation modules were ever loaded.
REAL_TABLE = textwrap.dedent("""
    import importlib, json, os, pkgutil, signal, sys, threading, time
    from pathlib import Path

    import coyote_pi
    from coyote_pi.cli import main

    config, records = sys.argv[1], Path(sys.argv[2])
    for package in ("engine", "vision", "devices", "table"):
        module = importlib.import_module(f"coyote_pi.{package}")
        for info in pkgutil.walk_packages(module.__path__, f"coyote_pi.{package}."):
            importlib.import_module(info.name)
    importlib.import_module("coyote_pi.record")
    seen = []

    def stop_once_the_deal_is_recorded():
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not seen:
            seen.extend(path for path in records.glob("*.jsonl") if '"type":"deal"' in path.read_text())
            time.sleep(0.05)
        while signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:  # the table is not listening yet
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=stop_once_the_deal_is_recorded, daemon=True).start()
    status = main(["run", "--config", config, "--record-dir", str(records), "--players", "2",
                   "--variant", "basic", "--language", "en", "--start-seat", "1"])
    print(json.dumps({"status": status, "deal_recorded": bool(seen),
                      "loaded": sorted(name for name in sys.modules if name.split(".")[:2] == ["coyote_pi", "sim"])}))
""")


def test_the_real_table_never_loads_the_simulation(tmp_path):
    stills = tmp_path / "stills"
    stills.mkdir()
    dealt = TableScene(seats=2, seat_cards={1: "7", 2: "15"}, slots={"centre": ("face_down", "3")})
    cv2.imwrite(str(stills / "deal.png"),
                render_scene(dealt, width=1280, height=720, seed=1, conditions=Conditions.clean()))
    config = tmp_path / "table.toml"
    config.write_text(f'[table]\ncamera_interval = 0.0\n[display]\ndriver = "dummy"\n[buttons]\nbackend = "mock"\n'
                      f'[camera]\nbackend = "folder"\nfolder = "{stills}"\nloop = true\n', encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "NOTIFY_SOCKET"}
    done = subprocess.run([sys.executable, "-c", REAL_TABLE, str(config), str(tmp_path / "records")],
                          capture_output=True, text=True, timeout=180, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["status"] == 0 and report["deal_recorded"], done.stderr[-3000:]
    assert report["loaded"] == []
