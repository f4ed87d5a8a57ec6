# Sourced by demo.sh and test.sh (not run on its own): make .venv with the project and the
# extras asked for installed in it, once per pyproject.toml (a stamp file in .venv says what
# was installed for which pyproject.toml).

_new_enough() {  # _new_enough PYTHON: whether it runs, and is Python 3.11 or newer
  "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}

_hash_of_pyproject() {  # _hash_of_pyproject PYTHON
  "$1" -c 'import hashlib; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest()[:16])'
}

_version_of() {  # _version_of PYTHON: its version and build, as it prints them
  "$1" -c 'import sys; print(sys.version)' 2>/dev/null
}

_check_python() {  # _check_python PYTHON: exit with advice unless it runs and is 3.11+
  if ! command -v "$1" >/dev/null; then
    echo "Python 3.11 or newer is needed, and there is no $1 here;" \
      "set PYTHON to one (PYTHON=python3.11 bash $0)" >&2
    exit 1
  fi
  if ! _new_enough "$1"; then
    echo "Python 3.11 or newer is needed, and $1 is not one;" \
      "set PYTHON to one (PYTHON=python3.11 bash $0)" >&2
    exit 1
  fi
  if ! "$1" -c 'import ensurepip, venv' 2>/dev/null; then  # checked before .venv is cleared
    echo "$1 cannot make a virtual environment" \
      "(on Debian or Ubuntu: apt-get install python3-venv)" >&2
    exit 1
  fi
}

# ensure_venv EXTRAS [EXTRAS THAT DO AS WELL]: e.g. ensure_venv "bots,tournament" dev
# PYTHON, when set, is the Python of .venv: one made with another is made again.
ensure_venv() {
  local extras="$1" also="${2:-}" python="${PYTHON:-python3}" clear="" hash e
  if [ -n "${PYTHON:-}" ]; then
    _check_python "$python"
  fi
  if [ -n "${PYTHON:-}" ] && _new_enough .venv/bin/python &&
    [ "$(_version_of .venv/bin/python)" != "$(_version_of "$python")" ]; then
    echo "$0: .venv was made with another Python than $python: making it again" >&2
    clear="--clear"
  elif _new_enough .venv/bin/python; then  # made before (by whichever Python): ready?
    hash=$(_hash_of_pyproject .venv/bin/python)
    for e in $extras $also; do
      if [ -f ".venv/.installed-$e-$hash" ]; then
        return 0
      fi
    done
  elif [ -e .venv ]; then
    clear="--clear"  # made by an older Python (an earlier try), or broken: made again
  fi
  _check_python "$python"
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
