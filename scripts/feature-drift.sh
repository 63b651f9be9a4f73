#!/usr/bin/env bash
# Prints each crate the app shares with the rest of the workspace whose features differ
# between `cargo build -p tabula` and `cargo build --workspace`, and fails if there is one:
# each such crate (and all of Bevy above it) would be built twice. A crate built for the
# build machine (a proc-macro, a build script's dependency) is compared with its kind only.
# The mend is a line in crates/feature-pins/Cargo.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
# One line per crate and feature: "host|target NAME VERSION FEATURE" ("-" for none).
features() {
  # ASCII lines: four characters a level, whichever awk counts bytes or characters.
  cargo tree "$@" -e normal,build -f '{p} {f}' --prefix indent --charset ascii | awk '
    {
      match($0, /^[ |`-]*/)
      level = int(RLENGTH / 4)
      text = substr($0, RLENGTH + 1)
      if (text ~ /^\[build-dependencies\]/) { build[level] = 1; next }
      delete build[level + 1]
      macro[level] = (text ~ /\(proc-macro\)/)
      host[level] = level > 0 && (host[level - 1] || macro[level - 1] || build[level])
      kind = (host[level] || macro[level]) ? "host" : "target"
      # A crate seen before is printed again as "(*)", without its features.
      if (text ~ /\(\*\)$/) next
      split(text, words, " ")
      list = words[length(words)]
      if (list ~ /^\(/ || length(words) < 3) list = "-"
      count = split(list, each, ",")
      for (i = 1; i <= count; i++) print kind, words[1], words[2], each[i]
    }' | sort -u
}
app=$(mktemp) workspace=$(mktemp) shared=$(mktemp)
trap 'rm -f "$app" "$workspace" "$shared"' EXIT
features -p tabula >"$app"
features --workspace >"$workspace"
# The crates both builds have; a crate only the workspace builds costs the app nothing.
comm -12 <(cut -d' ' -f1-3 "$app" | sort -u) <(cut -d' ' -f1-3 "$workspace" | sort -u) >"$shared"
only_shared() { awk 'NR == FNR { keep[$1 " " $2 " " $3] = 1; next } keep[$1 " " $2 " " $3]' "$shared" "$1"; }
drift=$(diff <(only_shared "$app") <(only_shared "$workspace") | grep '^[<>]' || true)
if [[ -n $drift ]]; then
  echo "features that differ (< the app alone, > the workspace):"
  echo "$drift"
  exit 1
fi
