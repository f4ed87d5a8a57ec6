#!/usr/bin/env bash
# Set up (first run only, or when dependencies changed) and run every check: lint, types, unit
# tests, doctests, property tests, golden records, differential tests against OpenSpiel, smoke
# benchmarks. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup_venv.sh
ensure_venv dev  # everything the tests need; PYTHON picks the Python (default python3)
echo "== ruff"
.venv/bin/ruff check src tests benchmarks examples scripts
.venv/bin/ruff format --check src tests benchmarks examples scripts
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest"
exec .venv/bin/pytest -n auto "$@"
