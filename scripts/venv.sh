#!/usr/bin/env bash
# Installs hukum into the virtual environment .venv (made if missing) with the extras named,
# pyproject.toml's optional dependencies, as the Makefile's commands need them:
#
#   scripts/venv.sh              the package alone: what `hukum serve` needs (make run)
#   scripts/venv.sh dev rl       with the test and lint tools and the RL libraries (make test)
#
# One environment, whose extras grow as commands need more: a stamp for the package
# (.venv/.installed) and one for each extra (.venv/.installed-dev), each newer than
# pyproject.toml once installed from it. What is missing or older goes in one pip run, with
# pip's progress shown; when everything is there, nothing runs and nothing is printed.
#
#   PYTHON   the interpreter that makes the environment (default python3)
#   VENV     the environment's folder (default .venv)
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"

# Whether a stamp exists and is newer than pyproject.toml.
fresh() { [ -f "$1" ] && [ "$1" -nt pyproject.toml ]; }

missing=()
for extra in $(printf '%s\n' "$@" | tr ',' '\n' | sort -u); do
    fresh "$VENV/.installed-$extra" || missing+=("$extra")
done
if fresh "$VENV/.installed" && [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ ! -x "$VENV/bin/pip" ]; then
    echo "hukum: making the virtual environment $VENV"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
fi
what="${missing[*]-}"
if [ -n "$what" ]; then
    echo "hukum: installing hukum with ${what// /, } into $VENV (some minutes the first time)"
    target=".[${what// /,}]"
else
    echo "hukum: installing hukum and what its server needs into $VENV (a minute or two the first time)"
    target="."
fi
"$VENV/bin/pip" install --progress-bar on -e "$target"
# The exact solver is compiled (numba) into its cache once, here, not by the first server
# that analyses a deal or lets the expert play (hukum.analysis.compile_solver).
echo "hukum: compiling the exact solver once (about 20 s)"
"$VENV/bin/python" -c "from hukum.analysis import compile_solver; compile_solver()"
touch "$VENV/.installed"
for extra in ${missing[@]+"${missing[@]}"}; do
    touch "$VENV/.installed-$extra"
done
