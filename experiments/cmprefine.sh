#!/usr/bin/env bash
# Compares two refines of the same runs, from the pass each one kept (the
# "refine" log in the model's metadata): the hard walk's validation, test
# and training accuracy of refined.json against refined-TAG.json.
#
#   TAG=polish experiments/cmprefine.sh RUN...    # RUN: a folder name under experiments/runs
#
# Prints one line per run with both refines, then the mean changes. Runs
# without both files are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=experiments/experiments.sh
. experiments/experiments.sh
tag=${TAG:?set TAG, as in refined-TAG.json}
[ $# -gt 0 ] || { echo "usage: TAG=polish experiments/cmprefine.sh RUN..." >&2; exit 2; }
kept='.training.refine.log[] | select(.selected) | "\(.hard_val_accuracy) \(.hard_test_accuracy) \(.hard_train_accuracy)"'
for run in "$@"; do
  run_folder "$run"
  [ -f "$out/refined.json" ] && [ -f "$out/refined-$tag.json" ] || continue
  echo "$run $(jq -r "$kept" "$out/refined.json") $(jq -r "$kept" "$out/refined-$tag.json")"
done | awk -v tag="$tag" '
  { printf "%-32s val %.2f -> %.2f  test %.2f -> %.2f  train %.2f -> %.2f\n", $1, $2*100, $5*100, $3*100, $6*100, $4*100, $7*100
    dv += $5 - $2; dt += $6 - $3; dr += $7 - $4; n++ }
  END { if (n) printf "mean change with %s over %d runs: val %+.2f, test %+.2f, train %+.2f\n", tag, n, dv/n*100, dt/n*100, dr/n*100 }'
