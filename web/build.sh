#!/usr/bin/env bash
# Builds the browser version into dist/: a self-contained folder any static server can host.
#
# rustup cannot fetch the wasm32 standard library on our machines, so this builds it from
# source with Debian's rustc-web toolchain (1.96, installed to /usr/bin), then runs
# wasm-bindgen at the version Cargo.lock pins. Installs what a fresh Debian machine lacks.
#   web/build.sh          the page players get
#   web/build.sh --dev    with the dev tools (the scripted demo that web/test.sh drives)
set -euo pipefail
features=()
case "${1:-}" in
  --dev) features=(--features dev) ;;
  "") ;;
  *) echo "usage: web/build.sh [--dev]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
root=$PWD
target_dir="${TABULA_WEB_TARGET_DIR:-$HOME/.cache/tabula-web}"
dist="${TABULA_DIST:-$root/dist}"

need_apt=()
[[ -x /usr/bin/rustc && -x /usr/bin/cargo ]] || need_apt+=(rustc-web cargo-web)
[[ -d /usr/lib/rustlib/src/rust/library ]] || need_apt+=(rust-web-src)
[[ -e /usr/bin/rust-lld ]] || need_apt+=(rust-web-llvm)
command -v ld.lld-22 >/dev/null 2>&1 || [[ -x /usr/lib/llvm-22/bin/lld ]] || need_apt+=(lld-22)
if ((${#need_apt[@]})); then
  echo "== installing ${need_apt[*]}"
  sudo_cmd=(); [[ $(id -u) == 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need_apt[@]}"
fi

# wasm-bindgen's CLI must match the library version in Cargo.lock exactly.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen_version" ]]; then
  echo "== installing wasm-bindgen-cli $bindgen_version"
  # Not --locked: one of the CLI's pinned dependencies is gone from the registry.
  cargo install wasm-bindgen-cli --version "$bindgen_version"
fi

echo "== building the wasm module (release, profile web)"
# /usr/bin first: rustup's cargo and rustc (1.95, no wasm32 std) come first on PATH otherwise.
# RUSTC_BOOTSTRAP lets the stable Debian compiler build std (-Zbuild-std).
PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS='--cfg getrandom_backend="wasm_js"' \
  /usr/bin/cargo build --profile web --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort -p tabula --bin tabula "${features[@]}" --target-dir "$target_dir"

echo "== wasm-bindgen"
rm -rf "$dist"
mkdir -p "$dist"
wasm-bindgen --target web --no-typescript --remove-name-section \
  --out-dir "$dist" --out-name tabula \
  "$target_dir/wasm32-unknown-unknown/web/tabula.wasm"
# The board texture is built into the module (src/view/loading.rs).
cp web/index.html "$dist/"

wasm="$dist/tabula_bg.wasm"
echo "== dist/ written: $(du -sh "$dist" | cut -f1); tabula_bg.wasm $(( $(stat -c %s "$wasm") / 1024 )) KiB," \
  "gzip $(( $(gzip -9c "$wasm" | wc -c) / 1024 )) KiB"
echo "Serve it with: python3 -m http.server --bind 127.0.0.1 8000 --directory dist"
