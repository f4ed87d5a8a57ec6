"""Dependencies point inward: the engine imports only the standard library; bots import only
the engine (and numpy and numba); nothing inside imports the adapters."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "ohhell"

ALLOWED: dict[str, tuple[str, ...]] = {
    "engine": ("ohhell.engine",),
    "bots": ("ohhell.engine", "ohhell.bots", "numpy", "numba"),
}


def imported_modules(path: Path, root: Path = SRC) -> set[str]:
    """Every module ``path`` imports, relative imports resolved against its package (``root``
    being the ``ohhell`` package's folder)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ["ohhell", *path.relative_to(root).parent.parts]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.ImportFrom):  # from . import x, from ..bots import y
            base = package[: len(package) - node.level + 1]
            names.add(".".join([*base, node.module] if node.module else base))
    return names


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    """A relative import is checked as the module it names: an engine module importing the
    bots as ``from ..bots import search`` breaks the layering as surely as an absolute one."""
    module = tmp_path / "engine" / "sneaky.py"
    module.parent.mkdir()
    module.write_text("from ..bots import search\nfrom . import cards\nfrom .rules import Rules\n")
    assert imported_modules(module, tmp_path) == {
        "ohhell.bots",
        "ohhell.engine",
        "ohhell.engine.rules",
    }


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_point_inward(layer: str) -> None:
    for path in sorted((SRC / layer).rglob("*.py")):
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top == "__future__":
                continue
            assert name.startswith(ALLOWED[layer]), f"{path.relative_to(SRC)} imports {name}"


def test_engine_has_no_io_clock_or_global_randomness() -> None:
    forbidden = {
        "os",
        "io",
        "time",
        "datetime",
        "socket",
        "subprocess",
        "pathlib",
        "logging",
        "secrets",
    }
    for path in sorted((SRC / "engine").rglob("*.py")):
        imports = {name.split(".")[0] for name in imported_modules(path)}
        assert not imports & forbidden, f"{path.name} imports {imports & forbidden}"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            # the random module's own generator (random.shuffle, random.randrange, ...) is
            # global state: only a random.Random handed in may be used
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                names = [alias.name for alias in node.names]
                assert names == ["Random"], f"{path.name} imports {names} from random"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("open", "input", "print"), (
                    f"{path.name} calls {node.func.id}()"
                )
