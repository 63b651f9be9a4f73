#!/usr/bin/env bash
# Measures a ladder's steps (docs/bots.md, "The ladder"): each bot against the one before
# it, the first against random (or AGAINST), seats alternating.
# Usage: [AGAINST=SPEC] docs/ladder.sh GAME GAMES_PER_PAIRING JOBS SPEC...
#   SPEC is a bot spec as tabula-cli match takes it (level:N, mcts:iters=64,moves=100, ...).
# Prints one markdown row per pairing.
set -euo pipefail
cd "$(dirname "$0")/.."
game=$1 games=$2 jobs=$3
shift 3
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}
cargo build --release -q -p tabula-cli
cli=$CARGO_TARGET_DIR/release/tabula-cli
echo "| game | bot | against | wins | draws | losses | score | Elo (95%) |"
echo "|---|---|---|---|---|---|---|---|"
previous=${AGAINST:-random}
for bot in "$@"; do
  out=$("$cli" match "$game" --bots "$bot,$previous" --games "$games" --jobs "$jobs" \
    --seed 11 --max-plies 600)
  score=$(grep '^bot 1:' <<<"$out" | sed -E 's/bot 1: ([0-9]+) wins, ([0-9]+) draws, ([0-9]+) losses \((.*)\)/\1 | \2 | \3 | \4/')
  elo=$(grep '^Elo' <<<"$out" | sed -E 's/.*: ([^ ]+) \(95% interval (.*) to (.*)\)/\1 (\2 to \3)/')
  echo "| $game | \`$bot\` | \`$previous\` | $score | $elo |"
  previous=$bot
done
