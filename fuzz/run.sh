#!/usr/bin/env bash
# Runs every fuzz target (or those named) for SECONDS each under libFuzzer, through
# cargo-fuzz on stable Rust (RUSTC_BOOTSTRAP lets it pass the flags it needs). Each target's
# kept corpus (fuzz/corpus/TARGET.tar.gz and the named inputs in fuzz/corpus/TARGET/) is
# unpacked into a working folder outside the repository, where libFuzzer adds the new inputs
# that reach new code; bash fuzz/keep.sh TARGET then keeps those worth keeping. A failing
# input is saved in fuzz/artifacts/TARGET/ and the script goes on to the next target, then
# exits with 1.
#   bash fuzz/run.sh 3600                     an hour for each target
#   bash fuzz/run.sh 60 adamas_notation record
# Without cargo-fuzz (or with TABULA_FUZZ_STABLE=1), the stable runner does the same runs
# without coverage guidance: cargo run -p tabula-fuzz -- --seconds SECONDS [TARGET...].
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
fuzz_target_dir="${TABULA_FUZZ_TARGET_DIR:-$HOME/.cache/tabula-fuzz-target}"

if [[ "${TABULA_FUZZ_STABLE:-0}" == 1 ]]; then
  exec cargo run --release -p tabula-fuzz --manifest-path ../Cargo.toml -- --seconds "$seconds" "$@"
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz" >&2
  cargo install cargo-fuzz --locked >&2 || exit 2
fi

targets=("$@")
if [[ ${#targets[@]} == 0 ]]; then
  mapfile -t targets < <(cargo fuzz list)
fi
if [[ ${#targets[@]} == 0 ]]; then
  echo "no fuzz targets found (cargo fuzz list)" >&2
  exit 2
fi
export RUSTC_BOOTSTRAP=1
# Safe Rust needs no address sanitizer, and the runs go about twice as fast without it.
# Debug assertions on: an arithmetic overflow is a failure, as in the stable runner (a
# release build would wrap it silently).
cargo fuzz build --sanitizer none --debug-assertions --target-dir "$fuzz_target_dir" || exit 2
# The stable runner's tokens (edge numbers, pieces of the inputs' languages) as a dictionary:
# libFuzzer's own mutations rarely make a number such as 18446744073709551615.
dict="$fuzz_target_dir/tokens.dict"
cargo run -q -p tabula-fuzz --manifest-path ../Cargo.toml -- dict >"$dict" || exit 2
failed=0
for target in "${targets[@]}"; do
  # Unpacked over what an earlier run left there, which keep.sh may not have kept yet.
  work="$fuzz_target_dir/corpus/$target"
  cargo run -q -p tabula-fuzz --manifest-path ../Cargo.toml -- unpack "$target" "$work" || exit 2
  mkdir -p "artifacts/$target"
  echo "== $target for ${seconds} s"
  if ! cargo fuzz run --sanitizer none --debug-assertions --target-dir "$fuzz_target_dir" "$target" \
      "$work" -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=16384 -dict="$dict" -print_final_stats=1 -artifact_prefix="artifacts/$target/" \
      2>"artifacts/$target.log"; then
    failed=1
    echo "$target: FAILED; see fuzz/artifacts/$target.log and fuzz/artifacts/$target/"
  fi
  grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)|^#[0-9]+ *DONE' \
    "artifacts/$target.log" | sed "s/^/  /"
done
exit "$failed"
