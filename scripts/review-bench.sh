#!/usr/bin/env bash
# How long a review of a 60-move game takes for each game: the first 60 moves of a level-2
# game against itself (all of it when shorter), reviewed by `tabula-cli review` with the
# default bot (config/review.ron: level 5) or the one given. Prints each game's review time
# and its players' summaries. Usage: scripts/review-bench.sh [BOT] [SEED]
set -euo pipefail
bot=${1:-}
seed=${2:-1}
target=${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}
cli=${TABULA_CLI:-$target/release/tabula-cli}
if [[ ! -x $cli ]]; then
    echo "no $cli: build it with cargo build --release -p tabula-cli" >&2
    exit 2
fi
for game in absorption adamas adaptoid adomoc; do
    moves=$("$cli" play "$game" --seats level:2,level:2 --seed "$seed" </dev/null |
        sed -n 's/^[^ ]* plays //p' | head -60 | paste -sd';')
    count=$(tr ';' '\n' <<<"$moves" | grep -c .)
    log=$(mktemp)
    start=$(date +%s.%N)
    "$cli" review "$game" --record "$moves" --seed "$seed" ${bot:+--bot "$bot"} >"$log" 2>/dev/null
    end=$(date +%s.%N)
    printf '%s: %d moves reviewed in %.1f s\n' "$game" "$count" "$(awk "BEGIN { print $end - $start }")"
    grep -E '^[^ ]+: [0-9]+ inaccurac' "$log" | sed 's/^/  /'
    rm -f "$log"
done
