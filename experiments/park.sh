#!/usr/bin/env bash
# Parks the unfinished experiments/paper.sh runs for a later session: copies each
# run's checkpoint (experiments/runs/RUN/model.ckpt, which git ignores) to
# model.ckpt.gz, which git keeps, so that a clean clone on another machine
# resumes the run with the same experiments/paper.sh command. A run that has
# finished training but not its refine (experiments/refine.sh) keeps its model
# the same way, as model.json.gz, which experiments/refine.sh restores. Stop the
# runs first (Ctrl-C saves the checkpoint; a refine stopped starts again),
# then run this and commit experiments/runs with git add -A experiments/runs (a parked
# run that finishes later deletes its .gz file).
#
#   experiments/park.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for ckpt in experiments/runs/*/model.ckpt; do
  [ -f "$ckpt" ] || continue
  out=${ckpt%/model.ckpt}
  [ -f "$out/done" ] && continue
  gzip -9 -c "$ckpt" >"$ckpt.gz.tmp"
  mv "$ckpt.gz.tmp" "$ckpt.gz"
  echo "parked $out ($(wc -c <"$ckpt.gz") bytes), last epoch $(tail -n 1 "$out/model.log.jsonl" | jq .epoch)"
done
for model in experiments/runs/*/model.json; do
  [ -f "$model" ] || continue
  out=${model%/model.json}
  [ -f "$out/eval.json" ] && [ ! -f "$out/refine-eval.json" ] || continue
  gzip -9 -n -c "$model" >"$model.gz.tmp"
  mv "$model.gz.tmp" "$model.gz"
  echo "parked $out's model for experiments/refine.sh ($(wc -c <"$model.gz") bytes)"
done
