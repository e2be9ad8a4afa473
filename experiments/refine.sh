#!/usr/bin/env bash
# Refines the hard walk of finished experiments/paper.sh runs (songc refine), and
# records the result beside the run's own:
#
#   experiments/refine.sh RUN...    # RUN: a folder name under experiments/runs
#
# Writes experiments/runs/RUN/refined.json (the refined model, its pass log in the
# "refine" metadata), refine-eval.json (songc eval --json on the test split),
# refine-analyze.json (songc analyze --json), refine-training.json (the
# refined model's "training" metadata, committed where the model is not)
# and refine-result.json (command, wall time, machine). Runs already
# refined (refine-eval.json exists) are skipped, so the script can be
# started again after an interruption.
# PASSES (default 10) sets songc refine --passes; RIDGE sets --ridge and
# names the files with -ridgeRIDGE (refined-ridge0.001.json,
# refine-ridge0.001-eval.json, ...), so that variants sit beside the default;
# POLISH=1 adds songc refine --polish and -polish to the names.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=experiments/experiments.sh
. experiments/experiments.sh
[ $# -gt 0 ] || { echo "usage: experiments/refine.sh RUN..." >&2; exit 2; }
passes=${PASSES:-10}
tag=${RIDGE:+-ridge$RIDGE}${POLISH:+-polish}
build_songc
for run in "$@"; do
  run_folder "$run"
  if [ ! -f "$out/eval.json" ]; then
    echo "skip $run (not finished)"
    continue
  fi
  if [ -f "$out/refine$tag-eval.json" ]; then
    echo "skip $run (refined)"
    continue
  fi
  if [ ! -f "$out/model.json" ] && [ -f "$out/model.json.gz" ]; then
    # parked by experiments/park.sh between training and refining
    gunzip -c "$out/model.json.gz" >"$out/model.json.tmp"
    mv "$out/model.json.tmp" "$out/model.json"
  fi
  run_experiment
  start=$(date +%s)
  "$bin" refine "$out/model.json" --data "$data" --test "$test" --passes "$passes" ${RIDGE:+--ridge "$RIDGE"} ${POLISH:+--polish} \
    -o "$out/refined$tag.json" >"$out/refine$tag.out" 2>&1
  end=$(date +%s)
  "$bin" eval "$out/refined$tag.json" --data "$test" --json >"$out/refine$tag-eval.json.tmp"
  "$bin" analyze "$out/refined$tag.json" --json >"$out/refine$tag-analyze.json"
  jq .training "$out/refined$tag.json" >"$out/refine$tag-training.json"
  cat >"$out/refine$tag-result.json" <<EOT
{"run": "$run", "command": "${PASSES:+PASSES=$PASSES }${RIDGE:+RIDGE=$RIDGE }${POLISH:+POLISH=1 }experiments/refine.sh $run", "passes": $passes,
 "wall_seconds": $((end - start)), "date": "$(date -u +%Y-%m-%d)",
 "machine": "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)",
 "songc": "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"}
EOT
  mv "$out/refine$tag-eval.json.tmp" "$out/refine$tag-eval.json"
  [ -n "$tag" ] || rm -f "$out/model.json.gz"
  echo "$run$tag: $(tail -n 1 "$out/refine$tag.out")"
done
