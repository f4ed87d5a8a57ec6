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


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


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
        text = path.read_text(encoding="utf-8")
        for call in (
            "random.shuffle(",
            "random.choice(",
            "random.random(",
            "random.seed(",
            "open(",
        ):
            assert call not in text, f"{path.name} calls {call}"
