#!/usr/bin/env bash
# Checks the README's install lines as a new user meets them: a fresh clone of this repository's HEAD, each
# `cargo install ... --root DIR` line of README.md run exactly as written with DIR an empty folder, then each
# installed command run once from DIR/bin: its --version, and `solver serve` answering its page.
#
#   scripts/install-check.sh        # from anywhere in the repository; `make install-check` runs it
#
# It compiles release builds of every command (minutes on 2 cores). CARGO_TARGET_DIR, when set, is used for
# them, so that a second run reuses the dependencies it compiled.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
server=
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "install-check: $*" >&2; exit 1; }

git clone -q "$repo" "$work/clone"
root="$work/root"
mkdir "$root"
lines=$(grep -E '^cargo install .* --root DIR( |$)' "$work/clone/README.md" | sed 's/ *#.*//') ||
  fail "README.md has no \`cargo install ... --root DIR\` line"
cd "$work/clone"
while IFS= read -r line; do
  read -ra words <<< "${line//DIR/$root}"
  echo "+ ${words[*]}" >&2
  "${words[@]}" || fail "this README line failed: $line"
done <<< "$lines"

for bin in solver pdb-builder watersort; do
  [ -x "$root/bin/$bin" ] || fail "the README's lines installed no $bin into DIR/bin"
  "$root/bin/$bin" --version >/dev/null || fail "$bin --version failed"
done

# The installed solver has its web app: `solver serve` on any free port answers its page.
log="$work/serve.log"
"$root/bin/solver" serve --port 0 --pdbs "$work/no-tables" 2>"$log" &
server=$!
for _ in $(seq 600); do
  addr=$(grep -o 'http://[0-9.:]*/' "$log" | head -1) && [ -n "$addr" ] && break
  kill -0 "$server" 2>/dev/null || fail "solver serve ended: $(cat "$log")"
  sleep 0.1
done
[ -n "${addr:-}" ] || fail "solver serve printed no address within 60 s: $(cat "$log")"
python3 - "$addr" <<'EOF' || fail "solver serve did not answer its page at $addr"
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=30) as r:
    assert r.status == 200 and b"<html" in r.read().lower()
EOF
echo "install-check: every README install line works from a fresh clone ($(echo "$lines" | wc -l) commands)" >&2
