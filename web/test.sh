#!/usr/bin/env bash
# The browser test: serves dist/ (built by web/build.sh --dev) on 127.0.0.1 and runs web/test.mjs
# in headless Chromium; then serves it again from tabula-server for one online game against
# tabula-cli's bot. Screenshots go to OUT (default target/web-test); look at them.
# Installs Chromium and playwright-core (the browser driver) when they are missing.
#   web/test.sh [GAME:MOVES:SEED ...]     e.g. web/test.sh adomoc:12:1
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dist="${TABULA_DIST:-$root/dist}"
out="${OUT:-$root/target/web-test}"
tools="${TABULA_WEB_TOOLS:-$HOME/.cache/tabula-web/node}"

shopt -s nullglob
modules=("$dist"/tabula_bg-*.wasm)
shopt -u nullglob
wasm=${modules[0]:-}
[[ -n "$wasm" ]] || { echo "no $dist/tabula_bg-HASH.wasm: run web/build.sh --dev first" >&2; exit 1; }
# The test drives the scripted demo, which only a build with the dev tools has.
grep -qa 'tabula-demo: ' "$wasm" \
  || { echo "$dist was built without the dev tools: run web/build.sh --dev" >&2; exit 1; }
if [[ ! -x /usr/bin/chromium ]]; then
  echo "== installing chromium"
  sudo_cmd=(); [[ $(id -u) == 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq chromium
fi
if [[ ! -d "$tools/node_modules/playwright-core" ]]; then
  echo "== installing playwright-core (drives the installed Chromium; downloads no browser)"
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --silent playwright-core@1.64.1
fi

# A free port on loopback (the clipboard needs a secure context: 127.0.0.1 counts).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# Waits for a server on PORT to serve the page; says what its LOG holds if it never does.
wait_for_page() {
  local port=$1 log=$2
  for _ in $(seq 100); do
    curl -fs -o /dev/null "http://127.0.0.1:$port/index.html" && return 0
    sleep 0.1
  done
  echo "the server on port $port did not come up:" >&2
  cat "$log" >&2
  exit 1
}

mkdir -p "$out"
port=$(free_port)
python3 -m http.server --bind 127.0.0.1 "$port" --directory "$dist" >"$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
wait_for_page "$port" "$out/server.log"

# The online game: the page from tabula-server itself, as one command hosts the whole game.
# TABULA_SERVER_BIN and TABULA_CLI_BIN name programs already built (CI passes the ones
# `cargo test` built: a `cargo build` after it compiles every workspace crate again, as
# Cargo's test profile is not its dev profile); else they are built here.
target="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
server_bin="${TABULA_SERVER_BIN:-}"
cli_bin="${TABULA_CLI_BIN:-}"
if [[ -z "$server_bin" || -z "$cli_bin" ]]; then
  CARGO_TARGET_DIR="$target" cargo build -q -p tabula-server -p tabula-cli
  server_bin="${server_bin:-$target/debug/tabula-server}"
  cli_bin="${cli_bin:-$target/debug/tabula-cli}"
fi
online_port=$(free_port)
rm -f "$out"/online.db*
"$server_bin" --listen "127.0.0.1:$online_port" --database "sqlite://$out/online.db" \
  --dist "$dist" >"$out/online-server.log" 2>&1 &
online_server=$!
trap 'kill $server $online_server 2>/dev/null || true' EXIT
wait_for_page "$online_port" "$out/online-server.log"

TABULA_ONLINE_SERVER="http://127.0.0.1:$online_port" TABULA_CLI="$cli_bin" \
  PLAYWRIGHT_CORE="$tools/node_modules/playwright-core/index.mjs" node web/test.mjs "http://127.0.0.1:$port" "$out" "$@"
