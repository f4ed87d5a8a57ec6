#!/usr/bin/env bash
# Set up (first run only) and run the main job: a game between computer players of three levels
# (hard, medium twice, easy), its record written and its score sheet shown. Arguments, if any, go
# to `ohhell simulate` instead (try --help; its players are random unless --bots says).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup_venv.sh
# the engine with the extras the README's commands use: compiled search bots, tournaments (the
# tests' dev extra holds them too)
ensure_venv "bots,tournament" dev
if [ $# -eq 0 ]; then
  set -- --bots hard,medium,medium,easy
fi
exec .venv/bin/ohhell simulate "$@"
