#!/usr/bin/env bash
# Checks that the game runs away from its checkout: copies the executable (the debug one
# `cargo test` built, or $TABULA_BIN) into an empty temporary directory, runs a short demo
# there under Xvfb with software Vulkan, and looks for the log line that says the board
# textures loaded and for the screenshot the demo saves. Installs xvfb and
# mesa-vulkan-drivers first when they are missing (needs root, as CI runs).
# Usage: scripts/run-anywhere.sh
set -euo pipefail
target=${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}
bin=${TABULA_BIN:-$target/debug/tabula}
if [[ ! -x $bin ]]; then
    echo "no $bin: build it with cargo build -p tabula" >&2
    exit 2
fi
if ! command -v Xvfb >/dev/null || ! ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then
    echo "installing xvfb and mesa-vulkan-drivers" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb mesa-vulkan-drivers >/dev/null
fi

dir=$(mktemp -d)
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$dir"' EXIT
cp "$bin" "$dir/tabula"
cd "$dir"
# Nothing of the checkout is reachable: no assets/, no config/, its own data and settings.
status=0
DISPLAY=$display TABULA_DATA_DIR="$dir/data" TABULA_CONFIG_DIR="$dir/config" \
    TABULA_DEMO=absorption:2:1 TABULA_SCREENSHOT="$dir/shot.png" \
    timeout 600 ./tabula >"$dir/log" 2>&1 || status=$?
if ((status != 0)); then
    echo "the game run from $dir exited with status $status" >&2
    tail -20 "$dir/log" >&2
    exit 1
fi
if ! grep -q "tabula: the board textures loaded" "$dir/log"; then
    echo "run from $dir, the game did not load its textures:" >&2
    grep -iE "warn|error" "$dir/log" | tail -20 >&2
    exit 1
fi
size=$(stat -c %s "$dir/shot.png" 2>/dev/null || echo 0)
if ((size < 10000)); then
    echo "run from $dir, the game saved no screenshot of the board ($size bytes)" >&2
    exit 1
fi
echo "ran from an empty directory: the board textures loaded and a $size-byte screenshot was saved"
