#!/usr/bin/env bash
# Set up (first run only) and run the main job: simulate a game between random players, write its
# record and show its score sheet. Extra arguments go to `ohhell simulate` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/ohhell ]; then
  "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e .
fi
exec .venv/bin/ohhell simulate "$@"
