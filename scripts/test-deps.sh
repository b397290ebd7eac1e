#!/usr/bin/env bash
# What the test suite needs beyond the Rust toolchain, installed when missing: Chromium, for the browser
# tests of the web app (`solver/tests/browser.rs`). `$CHROMIUM` names another browser binary and skips the
# install. Installing takes root and Debian's packages (`apt-get`); without them this says what to do.
set -euo pipefail
if [ -n "${CHROMIUM:-}" ]; then
    [ -x "$CHROMIUM" ] || { echo "test-deps: \$CHROMIUM=$CHROMIUM is not an executable file" >&2; exit 1; }
    exit 0
fi
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "test-deps: the browser tests need Chromium: run as root on Debian (apt-get install -y chromium)," \
         "or set CHROMIUM=/path/to/chromium" >&2
    exit 1
fi
echo "test-deps: installing Chromium for the browser tests (apt-get install -y chromium)" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
