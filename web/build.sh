#!/usr/bin/env bash
# Builds the browser version into dist/: a self-contained folder any static server can host,
# its files named by their content's hash and each beside its brotli and gzip copies, with
# a manifest and a service worker that make it installable and let it start offline.
#
# rustup cannot fetch the wasm32 standard library on our machines, so this builds it from
# source with Debian's rustc-web toolchain (1.96, installed to /usr/bin), then runs
# wasm-bindgen at the version Cargo.lock pins. Installs what a fresh Debian machine lacks.
#   web/build.sh          the page players get
#   web/build.sh --dev    with the dev tools (the scripted demo that web/test.sh drives)
set -euo pipefail
features=()
profile=web
# The test build is compressed quickly: brotli's best took 79 s of CI's run on its larger
# module, and the test checks only that a compressed copy is served.
brotli_quality=11
gzip_level=9
case "${1:-}" in
  --dev) features=(--features dev); profile=web-dev; brotli_quality=5; gzip_level=6 ;;
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
command -v brotli >/dev/null 2>&1 || need_apt+=(brotli)
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

echo "== building the wasm module (release, profile $profile)"
# /usr/bin first: rustup's cargo and rustc (1.95, no wasm32 std) come first on PATH otherwise.
# RUSTC_BOOTSTRAP lets the stable Debian compiler build std (-Zbuild-std).
PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS='--cfg getrandom_backend="wasm_js"' \
  /usr/bin/cargo build --profile "$profile" --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort -p tabula --bin tabula "${features[@]}" --target-dir "$target_dir"

echo "== wasm-bindgen"
rm -rf "$dist"
mkdir -p "$dist"
wasm-bindgen --target web --no-typescript --remove-name-section \
  --out-dir "$dist" --out-name tabula \
  "$target_dir/wasm32-unknown-unknown/$profile/tabula.wasm"

# Each file named by its content's hash, so a server can let browsers keep it for good and
# a new build is a new name (tabula-server --dist does; docs/web.md says how elsewhere).
hashed() {
  local file=$1 stem=${1%.*} extension=${1##*.}
  local name
  name="$(basename "$stem")-$(sha256sum "$file" | cut -c1-16).$extension"
  mv "$file" "$dist/$name"
  echo "$name"
}
js=$(hashed "$dist/tabula.js")
wasm=$(hashed "$dist/tabula_bg.wasm")
# The search worker's script imports the module's script by its name.
sed -e "s|\./tabula\.js|./$js|" web/search-worker.js >"$dist/search-worker.js"
grep -qF "./$js" "$dist/search-worker.js" \
  || { echo "web/search-worker.js no longer imports ./tabula.js" >&2; exit 1; }
worker=$(hashed "$dist/search-worker.js")
# The page names them, and the module's size: its progress bar counts the bytes received
# once decompressed, whatever the encoding they came in.
sed -e "s|\./tabula\.js|./$js|" -e "s|\./tabula_bg\.wasm|./$wasm|" \
  -e "s|\./search-worker\.js|./$worker|" \
  -e "s|const MODULE_BYTES = 0;|const MODULE_BYTES = $(stat -c %s "$dist/$wasm");|" \
  web/index.html >"$dist/index.html"
grep -qF "./$wasm" "$dist/index.html" && grep -qF "./$js" "$dist/index.html" \
  && grep -qF "./$worker" "$dist/index.html" \
  && grep -q "const MODULE_BYTES = [1-9]" "$dist/index.html" \
  || { echo "web/index.html no longer names ./tabula.js, ./tabula_bg.wasm, ./search-worker.js and MODULE_BYTES" >&2; exit 1; }

# What makes the page installable and lets it start offline: its manifest and icons, and a
# service worker that keeps this build's files, named by a hash of them all so that any new
# build (the page's code included) is a new worker the page offers to update to.
cp web/manifest.webmanifest web/icon.svg web/icon-192.png web/icon-512.png "$dist/"
kept=("./" "./$js" "./$wasm" "./$worker" ./manifest.webmanifest ./icon.svg ./icon-192.png ./icon-512.png)
build=$(cat "$dist/index.html" "$dist/$js" "$dist/$wasm" "$dist/$worker" "$dist/manifest.webmanifest" \
  | sha256sum | cut -c1-16)
list=$(printf '"%s", ' "${kept[@]}")
sed -e "s|const BUILD = \"BUILD\";|const BUILD = \"$build\";|" \
  -e "s|const FILES = \[\];|const FILES = [${list%, }];|" web/sw.js >"$dist/sw.js"
grep -qF "const BUILD = \"$build\";" "$dist/sw.js" && grep -qF "\"./$wasm\"" "$dist/sw.js" \
  || { echo "web/sw.js no longer has BUILD and FILES to write" >&2; exit 1; }

echo "== compressing (brotli, gzip): a server sends these where the browser takes them"
for file in "$dist/$wasm" "$dist/$js" "$dist/$worker" "$dist/index.html"; do
  gzip "-$gzip_level" --keep --no-name "$file"
  brotli --quality="$brotli_quality" --keep "$file"
done

size() { stat -c %s "$1"; }
echo "== dist/ written: $(du -sh "$dist" | cut -f1); $wasm $(( $(size "$dist/$wasm") / 1024 )) KiB," \
  "gzip $(( $(size "$dist/$wasm.gz") / 1024 )) KiB, brotli $(( $(size "$dist/$wasm.br") / 1024 )) KiB"
echo "Serve it with: tabula-server --dist $dist (compressed), or"
echo "  python3 -m http.server --bind 127.0.0.1 8000 --directory $dist"
