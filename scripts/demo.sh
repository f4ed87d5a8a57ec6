#!/usr/bin/env bash
# Set up (first run only) and run the main job: simulate a game between random players, write its
# record and show its score sheet. Extra arguments go to `ohhell simulate` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup_venv.sh
# the engine with the extras the README's commands use: compiled search bots, tournaments (the
# tests' dev extra holds them too)
ensure_venv "bots,tournament" dev
exec .venv/bin/ohhell simulate "$@"
