#!/usr/bin/env bash
# Measures the shipped ladder for docs/bots.md: for each game, level 1 against random and
# each level against the one below (docs/ladder.sh), then the top level against plain UCT
# given the same time a move.
# Usage: docs/bots.sh [GAMES_PER_PAIRING] [JOBS] [GAME...]   (defaults: 40 2 all four)
# Prints one markdown row per pairing; a pairing's games run JOBS at a time. The top level
# thinks for a time, so its rows need a machine with nothing else running.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-40}
jobs=${2:-2}
shift $(( $# > 2 ? 2 : $# ))
list=${*:-absorption adamas adaptoid adomoc}
echo "| game | bot | against | wins | draws | losses | score | Elo (95%) |"
echo "|---|---|---|---|---|---|---|---|"
for game in $list; do
  # Each game's top level: the length of its ladder in config/bots.ron.
  case $game in
    absorption) top=16 ;;
    adomoc) top=13 ;;
    adamas) top=11 ;;
    *) top=12 ;;
  esac
  levels=()
  for n in $(seq 1 "$top"); do levels+=("level:$n"); done
  docs/ladder.sh "$game" "$games" "$jobs" "${levels[@]}" | tail -n +3
  AGAINST=uct:ms=1900 docs/ladder.sh "$game" "$games" "$jobs" "level:$top" | tail -n +3
done
