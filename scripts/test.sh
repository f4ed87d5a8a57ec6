#!/usr/bin/env bash
# Set up (first run only, or when dependencies changed) and run every check: lint, types, unit
# tests, doctests, property tests, golden records, differential tests against OpenSpiel, smoke
# benchmarks. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[dev]'
  rm -f .venv/.installed-*
  touch "$stamp"
fi
echo "== ruff"
.venv/bin/ruff check src tests benchmarks examples scripts
.venv/bin/ruff format --check src tests benchmarks examples scripts
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest"
exec .venv/bin/pytest -n auto "$@"
