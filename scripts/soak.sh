#!/usr/bin/env bash
# The soak test (not part of CI's run): plays PLIES random moves (10^6 by default) for every
# game and option set below through `tabula-cli random`, which checks every move's legality,
# its notation and the position string reading back, and every invariant, after every move.
# Prints each run's plies a second; exits with 1 if any invariant broke.
#   bash scripts/soak.sh            10^6 plies for each set
#   bash scripts/soak.sh 100000     a quicker look
set -uo pipefail
cd "$(dirname "$0")/.."
plies="${1:-1000000}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
cargo build --release -p tabula-cli || exit 2
cli="$CARGO_TARGET_DIR/release/tabula-cli"

# game, then its options: the defaults, each rule variant, and the sizes and seat counts.
sets=(
  "adamas"
  "adamas players=3"
  "adamas size=4 prog_cap=true"
  "adamas size=2 pieces=2 capture_cap=20"
  "adamas size=5 players=3 prog_cap=true remove_stuck_pieces=false"
  "absorption"
  "absorption dark_first=true merge_connected=true"
  "absorption forbid_pass_over_origin=true symmetric_absorption=true turn_cap=200"
  "adaptoid"
  "adaptoid pie_start=true forbid_losing_attacks=true"
  "adaptoid board=@boards/super-adaptoid-example.txt"
  "adomoc"
  "adomoc spirals=ccw infinite=true"
  "adomoc spirals=cw altogether=true ply_cap=300"
)

failed=0
printf '%-80s %12s %10s %14s\n' "game and options" "plies" "seconds" "plies a second"
for set in "${sets[@]}"; do
  read -r game options <<<"$set"
  flags=()
  for option in $options; do flags+=(--option "$option"); done
  if ! output=$("$cli" random "$game" ${flags[@]+"${flags[@]}"} --plies "$plies" --seed 1 2>&1); then
    failed=1
    echo "$set: FAILED"
    echo "$output" | tail -5
    continue
  fi
  if ! line=$(grep -E '^[0-9]+ plies checked in' <<<"$output"); then
    failed=1
    echo "$set: no plies a second in the output:"
    echo "$output" | tail -5
    continue
  fi
  read -r checked seconds rate < <(sed -E 's/^([0-9]+) plies checked in ([0-9.]+) s: ([0-9]+) plies a second$/\1 \2 \3/' <<<"$line")
  printf '%-80s %12s %10s %14s\n' "$set" "$checked" "$seconds" "$rate"
done
exit "$failed"
