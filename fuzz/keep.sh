#!/usr/bin/env bash
# After a long run (fuzz/run.sh): keeps, of the inputs the run added to its working folder,
# only those that reach code the kept corpus does not (libFuzzer's -merge=1), and packs
# them with the kept ones into fuzz/corpus/TARGET.tar.gz. Every kept input stays, and so
# do the named ones in fuzz/corpus/TARGET/ (regressions: inputs that once failed);
# `cargo fuzz cmin` would drop any whose code others also reach.
#   bash fuzz/keep.sh adamas_notation server_messages
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
fuzz_target_dir="${TABULA_FUZZ_TARGET_DIR:-$HOME/.cache/tabula-fuzz-target}"
kept="" added=""
trap 'rm -rf "$kept" "$added" "$added.log"' EXIT
bin_dir="$fuzz_target_dir/x86_64-unknown-linux-gnu/release"
fuzz() { cargo run -q -p tabula-fuzz --manifest-path ../Cargo.toml -- "$@"; }
for target in "$@"; do
  work="$fuzz_target_dir/corpus/$target"
  if [[ ! -x "$bin_dir/$target" || ! -d "$work" ]]; then
    echo "no $bin_dir/$target or $work: run bash fuzz/run.sh first" >&2
    exit 2
  fi
  kept=$(mktemp -d "/tmp/tabula-fuzz-$target.XXXX")
  added=$(mktemp -d "/tmp/tabula-fuzz-$target-added.XXXX")
  fuzz unpack "$target" "$kept" >/dev/null
  # What the run added: the working folder's files the kept corpus does not have.
  for file in "$work"/*; do
    [[ -e "$kept/$(basename "$file")" ]] || cp "$file" "$added/"
  done
  found=$(find "$added" -type f | wc -l)
  before=$(find "$kept" -type f | wc -l)
  # The limits of run.sh, so that what ran there is judged the same here.
  if ! "$bin_dir/$target" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
      "$kept" "$added" 2>"$added.log"; then
    tail -20 "$added.log" >&2
    echo "$target: the merge failed; the run's inputs are still in $work" >&2
    exit 1
  fi
  after=$(find "$kept" -type f | wc -l)
  fuzz pack "$target" "$kept"
  echo "$target: $found new inputs, $((after - before)) kept"
  rm -rf "$kept" "$added" "$added.log"
  kept="" added=""
done
