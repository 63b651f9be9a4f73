#!/usr/bin/env bash
# After a long run: keeps, of the inputs a run added to fuzz/corpus/TARGET/ (files git does
# not know yet), only those that reach code the committed corpus does not (libFuzzer's
# -merge=1). The committed inputs all stay, failing inputs kept as regressions among them;
# `cargo fuzz cmin` would drop any whose code others also reach.
#   bash fuzz/keep.sh adamas_notation server_messages
set -euo pipefail
cd "$(dirname "$0")"
fuzz_target_dir="${TABULA_FUZZ_TARGET_DIR:-$HOME/.cache/tabula-fuzz-target}"
bin_dir="$fuzz_target_dir/x86_64-unknown-linux-gnu/release"
for target in "$@"; do
  if [[ ! -x "$bin_dir/$target" ]]; then
    echo "no $bin_dir/$target: build it with bash fuzz/run.sh first" >&2
    exit 2
  fi
  mkdir -p "corpus/$target"
  # Committed inputs a cmin removed come back.
  git checkout -- "corpus/$target" 2>/dev/null || true
  added=$(mktemp -d "/tmp/tabula-fuzz-$target.XXXX")
  git ls-files --others --exclude-standard -z "corpus/$target" | xargs -0 -r mv -t "$added"
  found=$(find "$added" -type f | wc -l)
  before=$(find "corpus/$target" -type f | wc -l)
  # The limits of run.sh, so that what ran there is judged the same here.
  if ! "$bin_dir/$target" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
      "corpus/$target" "$added" 2>"$added.log"; then
    tail -20 "$added.log" >&2
    mv -t "corpus/$target" "$added"/* 2>/dev/null || true
    echo "$target: the merge failed; the run's inputs are back in corpus/$target" >&2
    exit 1
  fi
  after=$(find "corpus/$target" -type f | wc -l)
  echo "$target: $found new inputs, $((after - before)) kept"
  rm -rf "$added" "$added.log"
done
