"""The Python examples of the README and docs/ run as written: each fenced ``python`` block,
in a fresh interpreter, from the repository root (a snippet a reader cannot run is a bug)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.conftest import require, run_python

ROOT = Path(__file__).parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SNIPPETS = [
    pytest.param(code, id=f"{path.name}:{number}")
    for path in DOCS
    for number, code in enumerate(
        re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M), 1
    )
]
EXTRAS = {"numpy": "numpy", "pettingzoo": "pettingzoo", "openspiel": "pyspiel"}
"""A word in a snippet, and the module it needs (an extra a user may not have installed)."""


def test_the_docs_have_examples() -> None:
    assert {str(param.id).split(":")[0] for param in SNIPPETS} >= {
        "README.md",
        "rl.md",
        "records.md",
    }


@pytest.mark.parametrize("code", SNIPPETS)
def test_a_docs_example_runs_as_written(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for word, module in (*EXTRAS.items(), ("jsonschema", "jsonschema")):
        if word in code:
            require(module)
    monkeypatch.chdir(ROOT)
    run_python(code, timeout=300)  # a tournament example plays real games on shared cores
