#!/usr/bin/env bash
# How long a review of a 60-move game takes for each game: the first 60 moves of a game of
# the former level 2 against itself (its settings before the ladder, so the games are the
# ones earlier figures were measured on; seeds from SEED on, until a game lasts 60 moves),
# reviewed by `tabula-cli review` with the default bot (config/review.ron: the top level)
# or the one given. Prints each game's review time
# and its players' summaries. Usage: [GAMES="adamas ..."] [JOBS=J] [LOOKS=L] [KEEP=DIR]
# scripts/review-bench.sh [BOT] [SEED]: JOBS the threads each move played is studied on
# (review --jobs: every core unless given; a search for time runs on one),
# LOOKS the parts of the bot's time a position's first look takes (review --looks),
# KEEP a directory to keep each game's table and time in (GAME.out, GAME.time), which
# scripts/review-compare.py compares with another's.
set -euo pipefail
bot=${1:-}
seed=${2:-1}
target=${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}
cli=${TABULA_CLI:-$target/release/tabula-cli}
if [[ ! -x $cli ]]; then
    echo "no $cli: build it with cargo build --release -p tabula-cli" >&2
    exit 2
fi
games=${GAMES:-absorption adamas adaptoid adomoc}
for game in $games; do
    # The first of ten seeds whose game lasts 60 moves (else the last one tried).
    for try in $(seq "$seed" $((seed + 9))); do
        former_2=mcts:iters=300,c=0.5,playout=6,moves=80
        moves=$("$cli" play "$game" --seats "$former_2,$former_2" --seed "$try" </dev/null |
            sed -n 's/^[^ ]* plays //p' | head -60 | paste -sd';')
        count=$(tr ';' '\n' <<<"$moves" | grep -c .)
        ((count < 60)) || break
    done
    log=$(mktemp)
    start=$(date +%s.%N)
    "$cli" review "$game" --record "$moves" --seed "$try" ${bot:+--bot "$bot"} \
        ${JOBS:+--jobs "$JOBS"} ${LOOKS:+--looks "$LOOKS"} >"$log" 2>"$log.err"
    end=$(date +%s.%N)
    seconds=$(awk "BEGIN { printf \"%.1f\", $end - $start }")
    printf '%s (seed %d): %d moves reviewed in %s s\n' "$game" "$try" "$count" "$seconds"
    grep -E '^[^ ]+: [0-9]+ inaccurac' "$log" | sed 's/^/  /'
    # The review's own last word (its progress lines end in carriage returns).
    tr '\r' '\n' <"$log.err" | grep '^reviewed' | sed 's/^/  /' || true
    if [[ -n ${KEEP:-} ]]; then
        mkdir -p "$KEEP"
        cp "$log" "$KEEP/$game.out"
        echo "$seconds" >"$KEEP/$game.time"
    fi
    rm -f "$log" "$log.err"
done
