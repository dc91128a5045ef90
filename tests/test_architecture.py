"""The shape of the house (docs/architecture.md), checked on the source: no import cycle,
each layer imports only the layers below it, and "which game" is decided in one place, the
registry (:mod:`hukum.games`), never by comparing a game's name."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "hukum"

#: The layers from the bottom up; a module may import its own layer and those below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("hukum.cards", "hukum.game", "hukum.encoding", "hukum.recordfile", "hukum.__init__"),
    ("hukum.mindi", "hukum.ganjifa"),
    ("hukum.play", "hukum.bots"),
    ("hukum.games",),
    (
        "hukum.records",
        "hukum.analysis",
        "hukum.screening",
        "hukum.arena",
        "hukum.bench",
        "hukum.envs",
    ),
    ("hukum.online",),
    ("hukum.terminal", "hukum.server"),
    ("hukum.cli", "hukum.__main__"),
)
#: The rules engines: they import no other engine.
ENGINES = ("hukum.mindi", "hukum.ganjifa")
#: Where a game's name may be compared with a string: the registry and the game specs.
REGISTRY = "hukum.games"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1 and parts != ["hukum", "__init__"]:
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "migrations" not in p.parts
    }


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk_runtime(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node, except those under ``if TYPE_CHECKING:`` (imports for type hints only)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def _resolve(name: str) -> str | None:
    """The hukum module ``name`` refers to (a module, or the package of a name in it)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> set[str]:
    """The hukum modules ``module`` imports at run time, at any depth of its code."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _walk_runtime(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        for name in names:
            target = _resolve(name) if name.startswith("hukum") else None
            if target is not None and target != module:
                found.add(target)
    return found


def _layer(module: str) -> int:
    for i, layer in enumerate(LAYERS):
        if any(module == top or module.startswith(top + ".") for top in layer):
            return i
    raise AssertionError(f"{module} is in no layer of tests/test_architecture.py: add it")


def _top(module: str, tops: tuple[str, ...]) -> str | None:
    return next((t for t in tops if module == t or module.startswith(t + ".")), None)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (module -> modules it imports), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def game_switches(source: str, names: tuple[str, ...]) -> list[int]:
    """Lines that compare something with a game's name (``== "mindi"``, ``in ("mindi",
    ...)``, ``case "ganjifa":``): choosing the game by hand instead of through a spec."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(source)):
        constants: list[ast.expr] = []
        if isinstance(node, ast.Compare):
            constants = [node.left, *node.comparators]
            constants += [
                e
                for c in node.comparators
                if isinstance(c, ast.Tuple | ast.List | ast.Set)
                for e in c.elts
            ]
        elif isinstance(node, ast.MatchValue):
            constants = [node.value]
        if any(isinstance(c, ast.Constant) and c.value in names for c in constants):
            lines.append(constants[0].lineno)
    return lines


GRAPH = {module: imports(module) for module in MODULES}


def test_there_is_no_import_cycle() -> None:
    assert find_cycle(GRAPH) is None, " -> ".join(find_cycle(GRAPH) or [])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_layer_and_those_below(module: str) -> None:
    layer = _layer(module)
    above = sorted(m for m in GRAPH[module] if _layer(m) > layer)
    assert not above, f"{module} (layer {layer}) imports a higher layer: {above}"
    engine = _top(module, ENGINES)
    if engine is not None:
        others = sorted(m for m in GRAPH[module] if _top(m, ENGINES) not in (None, engine))
        assert not others, f"the {engine} engine imports another engine: {others}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _top(m, (REGISTRY,)) is None))
def test_no_game_is_chosen_by_its_name_outside_the_registry(module: str) -> None:
    from hukum.games import GAMES

    source = MODULES[module].read_text(encoding="utf-8")
    lines = game_switches(source, tuple(GAMES))
    assert not lines, f"{module} chooses a game by name on lines {lines}: use hukum.games"


def test_the_checks_catch_what_they_are_for() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    switch = 'if game == "mindi":\n    pass\nx = name in ("a", "ganjifa")\n'
    switch += 'match g:\n    case "ganjifa":\n        pass\n'
    assert game_switches(switch, ("mindi", "ganjifa")) == [1, 3, 5]
    assert game_switches("if game == spec.name:\n    pass\n", ("mindi",)) == []
    assert _layer("hukum.mindi.deal") < _layer("hukum.bots.search") < _layer("hukum.server.app")
    assert "hukum.recordfile" in imports("hukum.mindi.record")


# ---------------------------------------------------------------- the front end (static/)

STATIC = PACKAGE / "server" / "static"
#: Where a game's name may be compared in the front end: the game's own drawing,
#: static/games/<name>.js (registered by name in static/games/index.js).
DRAWINGS = STATIC / "games"
#: The most lines of static/app.js (the boot module: shell and routes), and of any module.
APP_LINES = 300
MODULE_LINES = 500
#: The translation tables (static/i18n/<language>.js), the one exception to MODULE_LINES.
TRANSLATIONS = "i18n/"


def _static_modules() -> list[str]:
    return sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js"))


def js_game_switches(source: str, names: tuple[str, ...]) -> list[int]:
    """Lines of a script that compare something with a game's name (``=== "mindi"``,
    ``"ganjifa" !== game``, ``case "mindi":``, ``["mindi"].includes(game)``)."""
    import re

    quoted = "|".join(re.escape(n) for n in names)
    name = rf"""["'`](?:{quoted})["'`]"""
    pattern = re.compile(
        rf"[!=]==?\s*{name}|{name}\s*[!=]==?|\bcase\s+{name}\s*:"
        rf"|\[[^\]]*{name}[^\]]*\]\s*\.includes\("
    )
    return [i for i, line in enumerate(source.splitlines(), 1) if pattern.search(line)]


def js_game_names(source: str, names: tuple[str, ...]) -> list[int]:
    """Lines of a script that hold a game's name as data, quoted (``"ganjifa"``,
    ``{ game: 'mindi' }``, ``levels(`mindi`)``): a page that names a game draws that game
    alone, and the next game needs its code."""
    import re

    quoted = "|".join(re.escape(n) for n in names)
    pattern = re.compile(rf"""(["'`])(?:{quoted})\1""")
    return [i for i, line in enumerate(source.splitlines(), 1) if pattern.search(line)]


#: Where a game's name may be written in the front end: each game's own modules (its
#: drawing, its board's drawing) and the translations (keys such as "analysis.lost.mindi").
GAME_OWN = ("games/", "board/games/", "i18n/")


@pytest.mark.parametrize("module", _static_modules())
def test_no_page_names_a_game(module: str) -> None:
    from hukum.games import GAMES

    if module.startswith(GAME_OWN):
        return
    lines = js_game_names((STATIC / module).read_text(encoding="utf-8"), tuple(GAMES))
    assert not lines, (
        f"static/{module} names a game on lines {lines}: draw every game from GET /api/rules "
        "(its games) and ask what is a game's own of its drawing (static/games/<name>.js)"
    )


@pytest.mark.parametrize("module", _static_modules())
def test_no_page_chooses_a_game_by_its_name(module: str) -> None:
    from hukum.games import GAMES

    if module in {f"games/{name}.js" for name in GAMES}:
        return
    lines = js_game_switches((STATIC / module).read_text(encoding="utf-8"), tuple(GAMES))
    assert not lines, (
        f"static/{module} chooses a game by name on lines {lines}: ask the game's drawing "
        "(static/games/index.js, drawingOf)"
    )


def test_every_game_has_a_drawing_registered_by_its_name() -> None:
    from hukum.games import GAMES

    registry = (DRAWINGS / "index.js").read_text(encoding="utf-8")
    for name in GAMES:
        drawing = (DRAWINGS / f"{name}.js").read_text(encoding="utf-8")
        assert f'name: "{name}"' in drawing, f"static/games/{name}.js does not give its name"
        assert f'from "./{name}.js"' in registry, f"static/games/index.js lacks {name}.js"


@pytest.mark.parametrize("module", _static_modules())
def test_the_front_end_is_in_small_modules(module: str) -> None:
    lines = len((STATIC / module).read_text(encoding="utf-8").splitlines())
    if module == "app.js":
        assert lines <= APP_LINES, f"static/app.js has {lines} lines (at most {APP_LINES})"
    if module.startswith(TRANSLATIONS):
        # A language's table is data, one key a line, and one file a language (adding a
        # language is one file): it grows with the strings, not with the code.
        assert "function" not in (STATIC / module).read_text(encoding="utf-8"), module
        return
    assert lines <= MODULE_LINES, f"static/{module} has {lines} lines (most {MODULE_LINES})"


def test_the_front_end_checks_catch_what_they_are_for() -> None:
    names = ("mindi", "ganjifa")
    script = 'if (game === "ganjifa") x();\nconst a = "mindi" !== g;\n'
    script += "switch (g) {\n  case 'mindi':\n}\nif ([`ganjifa`].includes(g)) y();\n"
    script += 'create({ game: "ganjifa" });\nt("analysis.lost.mindi");\n'
    assert js_game_switches(script, names) == [1, 2, 4, 6]
    assert js_game_switches("if (d.name === table.game) z();\n", names) == []
    assert js_game_names(script, names) == [1, 2, 4, 6, 7]
    fine = "levels(game);\nt(`g.${name}`);\nconst preset = 'mindi-world';\n"
    assert js_game_names(fine, names) == []
    assert "app.js" in _static_modules() and "games/index.js" in _static_modules()


# ------------------------------------------------- the server reads games through their specs

#: Where no source is parsed (the rules schema comes from the engines' ``Rules`` dataclasses).
SERVER = "hukum.server"
#: Where the routes are: they see games only through their specs (``hukum.games``).
ROUTES = "hukum.server.routes"


def imported_names(source: str) -> set[str]:
    """Every module a source imports (at run time or for type hints only), and every name it
    imports from one (``hukum.mindi.Deal``), relative imports left out."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return found


def engine_names(source: str) -> list[str]:
    """What a source imports of a rules engine (:data:`ENGINES`) or of one game's spec
    module (``hukum.games.mindi``) rather than the registry."""
    games = tuple(f"{REGISTRY}.{top.rpartition('.')[2]}" for top in ENGINES)
    return sorted(
        name
        for name in imported_names(source)
        if _top(name, ENGINES) is not None or _top(name, games) is not None
    )


def test_the_import_checks_catch_what_they_are_for() -> None:
    assert "ast" in imported_names("import ast\n")
    assert "ast" in imported_names("from ast import parse\n")
    assert "ast" not in imported_names("from hukum.game import ast_free\n")
    source = "from hukum.mindi import Deal\nimport hukum.ganjifa.deal\n"
    source += "from hukum.games.mindi import MindiSpec\nfrom hukum.games import GAMES\n"
    source += "if TYPE_CHECKING:\n    from hukum.ganjifa import View\n"
    assert engine_names(source) == [
        "hukum.games.mindi",
        "hukum.games.mindi.MindiSpec",
        "hukum.ganjifa",
        "hukum.ganjifa.View",
        "hukum.ganjifa.deal",
        "hukum.mindi",
        "hukum.mindi.Deal",
    ]
    assert engine_names("from hukum.games import GAMES, game_named\n") == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _top(m, (SERVER,))))
def test_no_server_module_parses_source(module: str) -> None:
    names = imported_names(MODULES[module].read_text(encoding="utf-8"))
    assert "ast" not in names, f"{module} imports ast: read a game's rules schema instead"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _top(m, (ROUTES,))))
def test_no_route_names_an_engine_type(module: str) -> None:
    named = engine_names(MODULES[module].read_text(encoding="utf-8"))
    assert not named, f"{module} names an engine's types {named}: ask the game's spec"
