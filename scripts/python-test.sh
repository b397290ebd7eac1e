#!/usr/bin/env bash
# The Python package's tests (python/tests), as `make test` runs them: a virtual environment of their own
# (target/python-venv, kept between runs), what they need from PyPI (maturin, pytest, NumPy, nbclient and
# ipykernel for the notebook), the package built and installed from the checkout with `pip install ./python`
# (an abi3 wheel, release build), then pytest. A failing test fails the script. Without a Python that has
# venv it skips, except under CI=true, where it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${STP_VENV:-target/python-venv}
if ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
    if [ "${CI:-}" = true ]; then
        echo "python-test: error: $PYTHON with the venv module is needed (apt-get install python3-venv)" >&2
        exit 1
    fi
    echo "python-test: skipped: no $PYTHON with the venv module (apt-get install python3-venv)" >&2
    exit 0
fi
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
pip=("$VENV/bin/python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" maturin pytest numpy nbclient nbformat ipykernel
"${pip[@]}" --force-reinstall --no-deps ./python
# From the checkout's root, so that `import stp` finds the installed package, not python/stp's sources.
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@"
