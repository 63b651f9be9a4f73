#!/usr/bin/env bash
# Measures how a search's strength grows with its iterations, the ground the ladder of
# levels is built on (docs/bots.md, "Strength by iterations"): for each game, N iterations
# against N/2 for N = 2, 4, ... MAX, and 1 iteration against random (docs/ladder.sh's rows).
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
specs=()
for (( n = 1; n <= max; n *= 2 )); do specs+=("mcts:iters=$n,$extra"); done
first=1
for game in $list; do
  if (( first )); then
    docs/ladder.sh "$game" "$games" "$jobs" "${specs[@]}"
    first=0
  else
    docs/ladder.sh "$game" "$games" "$jobs" "${specs[@]}" | tail -n +3
  fi
done
