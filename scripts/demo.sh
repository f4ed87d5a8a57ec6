#!/usr/bin/env bash
# Set up (first run only) and run the main job: simulate a game between random players, write its
# record and show its score sheet. Extra arguments go to `ohhell simulate` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
# the engine with the extras the README's commands use: compiled search bots, tournaments
if [ ! -x .venv/bin/ohhell ] || ! .venv/bin/python -c \
  'import importlib.util as u, sys; sys.exit(not all(map(u.find_spec, ("numba", "rich", "matplotlib"))))'
then
  "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[bots,tournament]'
fi
exec .venv/bin/ohhell simulate "$@"
