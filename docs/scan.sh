#!/usr/bin/env bash
# Measures how a search's strength grows with its iterations, the ground the even ladder
# of levels is built on (docs/bots.md, "Strength by iterations"): for each game, N
# iterations against N/2 for N = 2, 4, ... MAX, and 1 iteration against random.
# Usage: docs/scan.sh [GAMES_PER_PAIRING] [JOBS] [MAX] [EXTRA_KEYS] [GAME...]
#   (defaults: 20 2 4096 moves=100 all four; EXTRA_KEYS are added to every mcts: spec,
#   e.g. moves=100,eval=learned)
# Prints one markdown row per pairing.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
jobs=${2:-2}
max=${3:-4096}
extra=${4:-moves=100}
shift $(( $# > 4 ? 4 : $# ))
list=${*:-absorption adamas adaptoid adomoc}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}
cargo build --release -q -p tabula-cli
cli=$CARGO_TARGET_DIR/release/tabula-cli
echo "| game | iterations | against | wins | draws | losses | score | Elo (95%) |"
echo "|---|---|---|---|---|---|---|---|"
for game in $list; do
  previous=random
  previous_name=random
  n=1
  while (( n <= max )); do
    bot="mcts:iters=$n,$extra"
    out=$("$cli" match "$game" --bots "$bot,$previous" --games "$games" --jobs "$jobs" \
      --seed 11 --max-plies 600)
    score=$(grep '^bot 1:' <<<"$out" | sed -E 's/bot 1: ([0-9]+) wins, ([0-9]+) draws, ([0-9]+) losses \((.*)\)/\1 | \2 | \3 | \4/')
    elo=$(grep '^Elo' <<<"$out" | sed -E 's/.*: ([^ ]+) \(95% interval (.*) to (.*)\)/\1 (\2 to \3)/')
    echo "| $game | $n | $previous_name | $score | $elo |"
    previous=$bot
    previous_name=$n
    n=$(( n * 2 ))
  done
done
