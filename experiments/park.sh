#!/usr/bin/env bash
# Parks the unfinished bench/paper.sh runs for a later session: copies each
# run's checkpoint (bench/runs/RUN/model.ckpt, which git ignores) to
# model.ckpt.gz, which git keeps, so that a clean clone on another machine
# resumes the run with the same bench/paper.sh command. A run that has
# finished training but not its refine (bench/refine.sh) keeps its model
# the same way, as model.json.gz, which bench/refine.sh restores. Stop the
# runs first (Ctrl-C saves the checkpoint; a refine stopped starts again),
# then run this and commit bench/runs with git add -A bench/runs (a parked
# run that finishes later deletes its .gz file).
#
#   bench/park.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for ckpt in bench/runs/*/model.ckpt; do
  [ -f "$ckpt" ] || continue
  out=${ckpt%/model.ckpt}
  [ -f "$out/done" ] && continue
  gzip -9 -c "$ckpt" >"$ckpt.gz.tmp"
  mv "$ckpt.gz.tmp" "$ckpt.gz"
  echo "parked $out ($(wc -c <"$ckpt.gz") bytes), last epoch $(tail -n 1 "$out/model.log.jsonl" | jq .epoch)"
done
for model in bench/runs/*/model.json; do
  [ -f "$model" ] || continue
  out=${model%/model.json}
  [ -f "$out/eval.json" ] && [ ! -f "$out/refine-eval.json" ] || continue
  gzip -9 -n -c "$model" >"$model.gz.tmp"
  mv "$model.gz.tmp" "$model.gz"
  echo "parked $out's model for bench/refine.sh ($(wc -c <"$model.gz") bytes)"
done
