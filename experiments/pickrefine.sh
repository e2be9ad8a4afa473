#!/usr/bin/env bash
# Keeps, per run, the better of its two refines by the hard walk's
# validation accuracy (songc select; the plain refine on ties): refined.json
# (experiments/refine.sh) and refined-polish.json (POLISH=1 experiments/refine.sh).
#
#   experiments/pickrefine.sh RUN...    # RUN: a folder name under experiments/runs
#
# Writes experiments/runs/RUN/pick-refine.json (the kept model), its
# pick-refine-select.json (songc select --json: both candidates' validation
# and test accuracies) and pick-refine-eval.json (songc eval --json on the
# test split). Runs without both refines are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=experiments/experiments.sh
. experiments/experiments.sh
[ $# -gt 0 ] || { echo "usage: experiments/pickrefine.sh RUN..." >&2; exit 2; }
build_songc
for run in "$@"; do
  run_folder "$run"
  if [ ! -f "$out/refine-eval.json" ] || [ ! -f "$out/refine-polish-eval.json" ]; then
    echo "skip $run (not refined both ways)"
    continue
  fi
  run_experiment
  "$bin" select --data "$data" --test "$test" -o "$out/pick-refine.json" --json \
    "$out/refined.json" "$out/refined-polish.json" >"$out/pick-refine-select.json"
  "$bin" eval "$out/pick-refine.json" --data "$test" --json >"$out/pick-refine-eval.json.tmp"
  mv "$out/pick-refine-eval.json.tmp" "$out/pick-refine-eval.json"
  echo "$run: kept $(jq -r .selected "$out/pick-refine-select.json"), test hard walk $(jq -r '.hard_accuracy*10000|round/100' "$out/pick-refine-eval.json")"
done
