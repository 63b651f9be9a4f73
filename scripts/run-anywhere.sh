#!/usr/bin/env bash
# Checks that the game runs away from its checkout: copies the executable (the debug one
# `cargo test` built, which has the dev tools, or $TABULA_BIN) into an empty temporary directory, runs a short demo
# there under Xvfb with software Vulkan, and looks for the log line that says the board
# textures were made and for the screenshot the demo saves. A PulseAudio server with a null
# sink stands in for the speakers, and what reaches it is recorded: the demo's moves must be
# heard. Installs xvfb, mesa-vulkan-drivers and pulseaudio first when they are missing
# (needs root, as CI runs).
# Usage: scripts/run-anywhere.sh
set -euo pipefail
target=${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}
bin=${TABULA_BIN:-$target/debug/tabula}
if [[ ! -x $bin ]]; then
    echo "no $bin: build it with cargo build -p tabula --features dev" >&2
    exit 2
fi
# The demo's log lines are in the executable only when it was built with the dev tools.
if ! grep -qa 'tabula-demo: ' "$bin"; then
    echo "$bin has no scripted demo: build it with cargo build -p tabula --features dev" >&2
    exit 2
fi
if ! command -v Xvfb >/dev/null || ! ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then
    echo "installing xvfb and mesa-vulkan-drivers" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb mesa-vulkan-drivers >/dev/null
fi
if ! command -v pulseaudio >/dev/null || ! command -v parec >/dev/null; then
    echo "installing pulseaudio" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pulseaudio pulseaudio-utils >/dev/null
fi

dir=$(mktemp -d)
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb ${pulse:-} ${recorder:-} 2>/dev/null || true; rm -rf "$dir"' EXIT
# The sound server, private to this run: its socket in the run's own directory.
export XDG_RUNTIME_DIR="$dir/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
pulseaudio -n --daemonize=no --exit-idle-time=-1 --log-target=file:"$dir/pulse.log" \
    -L "module-null-sink sink_name=speakers" -L module-native-protocol-unix &
pulse=$!
for _ in $(seq 50); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
if ! pactl info >/dev/null 2>&1; then
    echo "the private PulseAudio server did not start:" >&2
    tail -20 "$dir/pulse.log" >&2
    exit 1
fi
parec -d speakers.monitor --format=s16le --rate=22050 --channels=1 >"$dir/heard.raw" &
recorder=$!
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
if ! grep -q "tabula: the board textures made" "$dir/log"; then
    echo "run from $dir, the game did not make its textures:" >&2
    grep -iE "warn|error" "$dir/log" | tail -20 >&2
    exit 1
fi
size=$(stat -c %s "$dir/shot.png" 2>/dev/null || echo 0)
if ((size < 10000)); then
    echo "run from $dir, the game saved no screenshot of the board ($size bytes)" >&2
    exit 1
fi
# parec writes what it has when stopped; wait for it before reading.
kill $recorder 2>/dev/null || true
wait $recorder 2>/dev/null || true
# The loudest sample the speakers got, of 32767.
peak=$(od -An -v -td2 -w2 "$dir/heard.raw" | awk '{ v = $1 < 0 ? -$1 : $1; if (v > m) m = v } END { print m + 0 }')
if ! grep -q "sound: playing through the PulseAudio server" "$dir/log" || ((peak < 1000)); then
    echo "run from $dir, the game was not heard (loudest sample $peak of 32767):" >&2
    grep -i "sound" "$dir/log" >&2 || true
    exit 1
fi
echo "ran from an empty directory: the board textures made, a $size-byte screenshot was saved, and the moves were heard (loudest sample $peak of 32767)"
