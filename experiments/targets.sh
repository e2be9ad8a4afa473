#!/usr/bin/env bash
# Runs, then refines, the best recipe of each row of issue 6's table
# ("Against the targets" in experiments/NOTEBOOK.md), resumably: each run is one
# experiments/paper.sh command (a finished run, one with eval.json, is skipped;
# an unfinished one resumes from its checkpoint), each refine one
# experiments/refine.sh command.
#
#   experiments/targets.sh small   # the small rows, 3 seeds (Connect-4 8/10: 10)
#   experiments/targets.sh large   # Letter 511/50, MNIST 255/50 and Connect-4 255/10
#   experiments/targets.sh connect4-255-10-stlr [SEED...]
#                            # the large lane's Connect-4 255/10 runs only
#                            # (wd05e360st20lr003, with --straight-through-lr
#                            # 0.003; seeds 1 to 5 by default), e.g. two seeds
#                            # side by side: each uses about 1.1 of the 2 cores
#   experiments/targets.sh connect4-255-10 [SEED...]
#                            # the same without --straight-through-lr
#                            # (wd05e360st20), which experiments/NOTEBOOK.md
#                            # "Restarting the learning rate" compares (the
#                            # runs with the flag were forks of these at epoch
#                            # 288, made by experiments/stlrfork.sh and the fork
#                            # tool, deleted since: see git log)
#
# The recipes, their tags and why each was chosen are in experiments/NOTEBOOK.md;
# experiments/fast.sh runs these and every other recipe that was tried. The
# small lane takes about an hour on the 2-core machine; the large one
# about 14 hours, an estimate from the logged epochs (resume it across
# sessions; experiments/park.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=experiments/experiments.sh
. experiments/experiments.sh

both() { # NAME TAG SEED [flags]: train without refining, then refine
  fast_run "$@"
  experiments/refine.sh "$1-$2-s$3"
}

c4large() { # TAG "FLAGS" SEED...: wd05e360st20 and FLAGS
  local tag=$1 flags=$2
  shift 2
  if [ $# -eq 0 ]; then
    set -- 1 2 3 4 5
  fi
  for s in "$@"; do
    # shellcheck disable=SC2086 # FLAGS is a list of words
    both connect4-255-10 "$tag" "$s" --weight-decay 0.05 --epochs 360 --straight-through 0.2 $flags
  done
}

usage="usage: experiments/targets.sh small|large|connect4-255-10|connect4-255-10-stlr [SEED...]"
case ${1:?$usage} in
small)
  for s in 1 2 3; do
    both letter-64-20 fastlr10wd01 $s --lr 0.1 --weight-decay 0.01
    both mnistcnn-16-8 fast $s
    both connect4-8-10 wd05e240st20 $s --weight-decay 0.05 --epochs 240 --straight-through 0.2
    both mnist-64-20 wd01 $s --no-standardize --epochs 60 --weight-decay 0.01
  done
  for s in 1 2 3; do
    both letter-128-30 fastlr10 $s --lr 0.1
  done
  for s in 4 5 6 7 8 9 10; do
    both connect4-8-10 wd05e240st20 $s --weight-decay 0.05 --epochs 240 --straight-through 0.2
  done
  ;;
large)
  both letter-511-50 fastlr10 1 --lr 0.1 --epochs 40
  for s in 1 2; do
    both mnist-255-50 fast60wd01 $s --no-standardize --epochs 60 --weight-decay 0.01
  done
  c4large wd05e360st20lr003 "--straight-through-lr 0.003" 1 2 3 4 5
  ;;
connect4-255-10)
  shift
  c4large wd05e360st20 "" "$@"
  ;;
connect4-255-10-stlr)
  shift
  c4large wd05e360st20lr003 "--straight-through-lr 0.003" "$@"
  ;;
*)
  echo "$usage" >&2
  exit 2
  ;;
esac
