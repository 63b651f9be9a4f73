#!/usr/bin/env bash
# Prints each crate the app shares with the rest of the workspace whose features differ
# between `cargo build -p tabula` and `cargo build --workspace`, and fails if there is one:
# each such crate (and all of Bevy above it) would be built twice. The mend is a line in
# crates/feature-pins/Cargo.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
features() {
  cargo tree "$@" -e normal,build -f '{p} {f}' --prefix none
}
app=$(mktemp) workspace=$(mktemp)
trap 'rm -f "$app" "$workspace"' EXIT
features -p tabula >"$app"
features --workspace >"$workspace"
python3 - "$app" "$workspace" <<'PY'
import sys

def load(path):
    found = {}
    for line in open(path):
        words = line.replace("(*)", "").split()
        if len(words) < 2:
            continue
        features = found.setdefault(words[0] + " " + words[1], set())
        for word in words[2:]:
            if not word.startswith("("):
                features.update(word.split(","))
    return found

app, workspace = load(sys.argv[1]), load(sys.argv[2])
drift = [(name, sorted(workspace[name] - features), sorted(features - workspace[name]))
         for name, features in sorted(app.items())
         if name in workspace and workspace[name] != features]
for name, only_workspace, only_app in drift:
    print(f"{name}: the workspace adds {only_workspace}, the app alone adds {only_app}")
sys.exit(1 if drift else 0)
PY
