#!/usr/bin/env bash
# Measures the bot levels for docs/bots.md: for each game, each level against the one
# below, level 5 against plain UCT at the same time per move, and level 5 against random.
# Usage: docs/bots.sh [GAMES_PER_PAIRING] [JOBS] [GAME...]   (defaults: 20 2 all four)
# Prints one markdown row per pairing; a pairing's games run JOBS at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
jobs=${2:-2}
shift $(( $# > 2 ? 2 : $# ))
list=${*:-absorption adamas adaptoid adomoc}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}
cargo build --release -q -p tabula-cli
cli=$CARGO_TARGET_DIR/release/tabula-cli
# Level 5 thinks 1.9 s a move (config/bots.ron); plain UCT gets the same.
pairings=(
  "level:2,level:1"
  "level:3,level:2"
  "level:4,level:3"
  "level:5,level:4"
  "level:5,uct:ms=1900"
  "level:5,random"
)
echo "| game | bot 1 | bot 2 | games | bot 1 wins | draws | bot 1 losses | bot 1 score | Elo (95%) |"
echo "|---|---|---|---|---|---|---|---|---|"
for game in $list; do
  for pair in "${pairings[@]}"; do
    out=$("$cli" match "$game" --bots "$pair" --games "$games" --jobs "$jobs" --seed 1)
    score=$(grep '^bot 1:' <<<"$out" | sed -E 's/bot 1: ([0-9]+) wins, ([0-9]+) draws, ([0-9]+) losses \((.*)\)/\1 | \2 | \3 | \4/')
    elo=$(grep '^Elo' <<<"$out" | sed -E 's/.*: ([^ ]+) \(95% interval (.*) to (.*)\)/\1 (\2 to \3)/')
    echo "| $game | ${pair%%,*} | ${pair#*,} | $games | $score | $elo |"
  done
done
