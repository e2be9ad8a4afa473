#!/usr/bin/env bash
# Parks the unfinished bench/paper.sh runs for a later session: copies each
# run's checkpoint (bench/runs/RUN/model.ckpt, which git ignores) to
# model.ckpt.gz, which git keeps, so that a clean clone on another machine
# resumes the run with the same bench/paper.sh command. Stop the runs first
# (Ctrl-C saves the checkpoint), then run this and commit bench/runs with
# git add -A bench/runs (a parked run that finishes later deletes its
# model.ckpt.gz).
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
