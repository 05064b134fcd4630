"""The layers of DESIGN.md, checked over the source text.

"gammon.core imports nothing else of gammon; no two subpackages import each
other", and each subpackage imports only the layers below it in the documented
order (docs/architecture.md: core < formats < ai < play, training < analysis < store <
web, cli), counting every import: at module level, inside functions and under
``TYPE_CHECKING``.  The check reads the files (no import runs), so an import
hidden in a function cannot slip through.
"""

from __future__ import annotations

import ast
from pathlib import Path

import gammon

ROOT = Path(gammon.__file__).parent


def _imports(source: str, rel: tuple[str, ...]) -> set[str]:
    """The gammon subpackages that the file ``rel`` (parts under ``gammon/``) imports, but its own."""
    sub = rel[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the file's package
                base = ["gammon", *rel[:-1]][: len(rel) - node.level + 1]
                names = [".".join([*base, node.module] if node.module else base)]
            elif node.module:
                names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "gammon" and len(parts) > 1 and parts[1] != sub and (ROOT / parts[1]).is_dir():
                found.add(parts[1])
    return found


def subpackage_edges() -> dict[str, set[str]]:
    """Which subpackage imports which, from every ``.py`` file under ``gammon/``."""
    edges: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT).parts
        if len(rel) < 2:
            continue  # gammon/__init__.py re-exports the public names: it sits above everything
        edges.setdefault(rel[0], set()).update(_imports(path.read_text(encoding="utf-8"), rel))
    return edges


def _reach(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_checker_sees_every_kind_of_import() -> None:
    # The check must be able to fail: imports in functions, under TYPE_CHECKING and relative ones count.
    rel = ("core", "x.py")
    assert _imports("def f():\n    from gammon.formats import mat\n", rel) == {"formats"}
    assert _imports("if TYPE_CHECKING:\n    import gammon.ai.engine\n", rel) == {"ai"}
    assert _imports("from ..play import session\n", rel) == {"play"}
    assert _imports("from .position import Position\nimport numpy\n", rel) == set()


def test_core_imports_nothing_else_of_gammon() -> None:
    # "The rules exist once, in gammon.core; everything else calls them."
    assert subpackage_edges().get("core", set()) == set()


def test_no_two_subpackages_import_each_other() -> None:
    edges = subpackage_edges()
    circles = sorted({tuple(sorted((a, b))) for a in edges for b in _reach(edges, a)
                      if a != b and a in _reach(edges, b)})
    assert circles == [], f"subpackages in a circle: {circles}"


def module_imports(path: Path) -> set[str]:
    """Every ``gammon.*`` module the file at ``path`` names in an import, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m.startswith("gammon.")}


def _imports_module(path: Path, module: str) -> bool:
    return module in module_imports(path)


def test_the_module_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    # The check must be able to fail: a late import in a method is an import.
    f = tmp_path / "x.py"
    f.write_text("def f():\n    from gammon.ai.search import PlyEvaluator\n", encoding="utf-8")
    assert _imports_module(f, "gammon.ai.search")
    f.write_text("from gammon.ai import search\n", encoding="utf-8")
    assert _imports_module(f, "gammon.ai.search")
    f.write_text("import gammon.ai.searching\n", encoding="utf-8")
    assert not _imports_module(f, "gammon.ai.search")


def test_evaluator_and_search_do_not_import_each_other() -> None:
    # Issue 10: "gammon.ai.evaluator and gammon.ai.search stop importing each other";
    # the search builds on the evaluator, never the other way round.
    assert not _imports_module(ROOT / "ai" / "evaluator.py", "gammon.ai.search")
    assert _imports_module(ROOT / "ai" / "search.py", "gammon.ai.evaluator")


#: The layers of docs/architecture.md, lowest first; a subpackage may import only lower layers.
#: Analysis stands on play: its walk replays a record through play's Session (issue 34).
LAYERS = {"core": 0, "formats": 1, "i18n": 1, "ai": 2, "play": 3, "training": 3, "analysis": 4, "store": 5,
          "web": 6, "cli": 6}
#: The one import between peers: ``gammon serve`` starts the web server.
PEER_IMPORTS = {("cli", "web")}


def layer_violations(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a subpackage that is not below the importer (peers only where allowed)."""
    return sorted(f"{a} -> {b}" for a, targets in edges.items() for b in targets
                  if not (LAYERS[b] < LAYERS[a] or (a, b) in PEER_IMPORTS))


def test_every_subpackage_has_its_layer() -> None:
    found = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert found == set(LAYERS), "a new subpackage needs its place in docs/architecture.md and LAYERS"
    text = (ROOT.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"gammon.{name}" in text for name in LAYERS), "docs/architecture.md shows every subpackage"


def test_each_subpackage_imports_only_the_layers_below() -> None:
    # The check can fail: an upward or sideways import is caught.
    assert layer_violations({"ai": {"play"}, "play": {"analysis"}, "cli": {"web"}}) == [
        "ai -> play", "play -> analysis"]
    assert layer_violations(subpackage_edges()) == []


def test_only_the_training_command_imports_training() -> None:
    # Issue 34: the training code "ships" beside the runtime but the runtime never imports it;
    # `gammon train ...` (gammon.cli.train_command) is its one door.
    importers = sorted(path.relative_to(ROOT).as_posix() for path in ROOT.rglob("*.py")
                       if path.relative_to(ROOT).parts[0] != "training"
                       and any(m == "gammon.training" or m.startswith("gammon.training.")
                               for m in module_imports(path)))
    assert importers == ["cli/train_command.py"]
