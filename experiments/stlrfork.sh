#!/usr/bin/env bash
# Forks Connect-4 255/10 runs without --straight-through-lr (wd05e360st20) where their
# straight-through epochs begin, into the run folders of the same recipe
# with --straight-through-lr 0.003 (wd05e360st20lr003, the row's recipe
# since the comparison in experiments/NOTEBOOK.md, "Restarting the learning rate
# for the straight-through epochs"), so that comparing the two costs 72
# epochs a seed more instead of 360:
#
#   experiments/stlrfork.sh SEED...   # beside experiments/targets.sh connect4-255-10 SEED
#
# For each seed (all at once) it waits until the recipe run's log holds 288 epochs,
# saves its checkpoint with the rate (experiments/fork, which checks the epoch)
# as the candidate folder's model.ckpt, and leaves it there; then
# `experiments/targets.sh connect4-255-10-stlr SEED` resumes it, refines it and
# writes the result files. A fork resumed gives the model of the full run
# (trainer's TestForkAtStraightThrough). A recipe run already past epoch
# 288 cannot be forked: run the candidate in full with the same command.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: experiments/stlrfork.sh SEED..." >&2; exit 2; }
at=288
tool=$(mktemp -d)/fork
go -C experiments build -o "$tool" ./fork
fork_seed() { # SEED
  local s=$1 n
  local src=experiments/runs/connect4-255-10-wd05e360st20-s$s
  local dst=experiments/runs/connect4-255-10-wd05e360st20lr003-s$s
  if [ -f "$dst/model.ckpt" ] || [ -f "$dst/model.ckpt.gz" ] || [ -f "$dst/eval.json" ]; then
    echo "skip seed $s: $dst has a checkpoint or a result"
    return
  fi
  while :; do
    n=0
    [ -f "$src/model.log.jsonl" ] && n=$(wc -l <"$src/model.log.jsonl")
    if [ "$n" -gt "$at" ] || [ -f "$src/done" ]; then
      echo "seed $s: $src is past epoch $at; run experiments/targets.sh connect4-255-10-stlr $s in full" >&2
      return 1
    fi
    if [ "$n" -eq "$at" ]; then
      break
    fi
    sleep 2
  done
  # The log is written after the checkpoint, so the checkpoint holds epoch
  # 288 now, until epoch 289 ends (experiments/fork refuses any other).
  mkdir -p "$dst"
  cp "$src/model.ckpt" "$dst/src.ckpt.tmp"
  "$tool" -in "$dst/src.ckpt.tmp" -epoch "$at" -straight-through-lr 0.003 -out "$dst/model.ckpt"
  rm "$dst/src.ckpt.tmp"
  echo "seed $s: forked $src at epoch $at into $dst/model.ckpt"
}

# The seeds' runs go side by side: wait for each at once.
pids=()
for s in "$@"; do
  fork_seed "$s" &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do
  wait "$p" || status=1
done
exit $status
