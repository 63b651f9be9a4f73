#!/usr/bin/env bash
# Plays a scripted game of each game in the real app under Xvfb (software rendering) and
# writes docs/screenshots/GAME.png, then a lesson step (lesson-GAME.png) and a puzzle
# (puzzle-GAME.png).
# Needs: apt-get install xvfb xauth mesa-vulkan-drivers.
# Usage: bash docs/screenshots.sh [GAME:MOVES ...]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
# The scripted demo is one of the dev tools.
cargo build -p tabula --features dev
display=:97
Xvfb "$display" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb' EXIT
sleep 2
runtime=$(mktemp -d)
chmod 700 "$runtime"
mkdir -p docs/screenshots
specs=("$@")
[ ${#specs[@]} -eq 0 ] && specs=(absorption:14 adamas:10 adaptoid:14 adomoc:16)
for spec in "${specs[@]}"; do
  game=${spec%%:*}
  echo "== $spec"
  DISPLAY=$display XDG_RUNTIME_DIR=$runtime TABULA_DEMO="$spec" \
    TABULA_DEMO_OPTIONS="${TABULA_DEMO_OPTIONS:-}" \
    TABULA_SCREENSHOT="docs/screenshots/$game.png" \
    CARGO_MANIFEST_DIR="$PWD" timeout 600 "$CARGO_TARGET_DIR/debug/tabula" \
    2>&1 | grep -E "ERROR|panicked|Screenshot saved" || true
done
# A lesson step with a try that misses, caught while the reason shows (TABULA_LESSONS to
# choose others: GAME:STEP:read|solve|miss, each written to lesson-GAME.png).
for spec in ${TABULA_LESSONS:-adamas:12:miss}; do
  game=${spec%%:*}
  echo "== lesson $spec"
  DISPLAY=$display XDG_RUNTIME_DIR=$runtime TABULA_LESSON="$spec" \
    TABULA_CONFIG_DIR="$runtime" TABULA_SCREENSHOT="docs/screenshots/lesson-$game.png" \
    timeout 600 "$CARGO_TARGET_DIR/debug/tabula" 2>&1 | grep -E "ERROR|panicked|tabula-demo" || true
done
# The title screen, its showcase a few seconds on.
echo "== title"
DISPLAY=$display XDG_RUNTIME_DIR=$runtime TABULA_CONFIG_DIR="$(mktemp -d)" \
  TABULA_TITLE_SCREENSHOT="docs/screenshots/title.png" \
  timeout 600 "$CARGO_TARGET_DIR/debug/tabula" 2>&1 | grep -E "ERROR|panicked" || true
# A puzzle with a first turn that misses, refuted on the board (TABULA_PUZZLES to choose
# others: GAME:read|solve|miss, each written to puzzle-GAME.png).
for spec in ${TABULA_PUZZLES:-adaptoid:miss}; do
  game=${spec%%:*}
  echo "== puzzle $spec"
  DISPLAY=$display XDG_RUNTIME_DIR=$runtime TABULA_PUZZLE="$spec" \
    TABULA_CONFIG_DIR="$(mktemp -d)" TABULA_SCREENSHOT="docs/screenshots/puzzle-$game.png" \
    timeout 600 "$CARGO_TARGET_DIR/debug/tabula" 2>&1 | grep -E "ERROR|panicked|tabula-demo" || true
done
