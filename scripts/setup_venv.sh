# Sourced by demo.sh and test.sh (not run on its own): make .venv with the project and the
# extras asked for installed in it, once per pyproject.toml (a stamp file in .venv says what
# was installed for which pyproject.toml).

_new_enough() {  # _new_enough PYTHON: whether it runs, and is Python 3.11 or newer
  "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}

_hash_of_pyproject() {  # _hash_of_pyproject PYTHON
  "$1" -c 'import hashlib; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest()[:16])'
}

# ensure_venv EXTRAS [EXTRAS THAT DO AS WELL]: e.g. ensure_venv "bots,tournament" dev
ensure_venv() {
  local extras="$1" also="${2:-}" python="${PYTHON:-python3}" clear="" hash e
  if _new_enough .venv/bin/python; then  # made before (by whichever Python): ready?
    hash=$(_hash_of_pyproject .venv/bin/python)
    for e in $extras $also; do
      if [ -f ".venv/.installed-$e-$hash" ]; then
        return 0
      fi
    done
  elif [ -e .venv ]; then
    clear="--clear"  # made by an older Python (an earlier try), or broken: made again
  fi
  if ! command -v "$python" >/dev/null; then
    echo "Python 3.11 or newer is needed, and there is no $python here;" \
      "set PYTHON to one (PYTHON=python3.11 bash $0)" >&2
    exit 1
  fi
  if ! _new_enough "$python"; then
    echo "Python 3.11 or newer is needed, and $python is not one;" \
      "set PYTHON to one (PYTHON=python3.11 bash $0)" >&2
    exit 1
  fi
  if ! "$python" -m venv $clear .venv; then
    echo "could not make .venv with $python (on Debian or Ubuntu: apt-get install python3-venv)" >&2
    exit 1
  fi
  hash=$(_hash_of_pyproject .venv/bin/python)
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[$extras]"
  rm -f .venv/.installed-*
  touch ".venv/.installed-$extras-$hash"
}
