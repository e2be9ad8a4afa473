#!/usr/bin/env bash
# The recipe searches of experiments/NOTEBOOK.md, each one experiments/search.sh command
# (validation rows only; resumable; PRINT=1 and MD=1 pass through):
#
#   experiments/searches.sh connect4-wd   # Connect-4 8/10: weight decay, epochs, batch, annealing
#   experiments/searches.sh letter-wd     # Letter 64/20 at lr 0.1: weight decay
#   experiments/searches.sh connect4-st   # Connect-4 8/10: --straight-through share
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:?usage: experiments/searches.sh connect4-wd|connect4-st|letter-wd} in
connect4-wd)
  # Three rounds, each chosen from the last one's validation figures:
  # the decay around the 0.1 of the first search (experiments/NOTEBOOK.md) with
  # longer training, smaller batches and a longer or colder anneal; then
  # 0.05 and 0.03 with those that helped; then more epochs.
  SEEDS="1 2 3" experiments/search.sh connect4-8-10 \
    fast '' \
    wd1 '--weight-decay 0.1' \
    wd05 '--weight-decay 0.05' \
    wd2 '--weight-decay 0.2' \
    wd1e240 '--weight-decay 0.1 --epochs 240' \
    wd1b32 '--weight-decay 0.1 --batch 32' \
    wd1a4 '--weight-decay 0.1 --anneal 0.4' \
    wd1t02 '--weight-decay 0.1 --anneal-temp 0.2' \
    wd05b32 '--weight-decay 0.05 --batch 32' \
    wd05e240 '--weight-decay 0.05 --epochs 240' \
    wd03 '--weight-decay 0.03' \
    wd1b16 '--weight-decay 0.1 --batch 16' \
    wd03b32 '--weight-decay 0.03 --batch 32' \
    wd05e480 '--weight-decay 0.05 --epochs 480' \
    wd03e240 '--weight-decay 0.03 --epochs 240' \
    wd05b32e240 '--weight-decay 0.05 --batch 32 --epochs 240'
  ;;
connect4-st)
  # The share of straight-through epochs, on the recipe connect4-wd chose.
  SEEDS="1 2 3" experiments/search.sh connect4-8-10 \
    wd05e240 '--weight-decay 0.05 --epochs 240' \
    wd05e240st10 '--weight-decay 0.05 --epochs 240 --straight-through 0.1' \
    wd05e240st20 '--weight-decay 0.05 --epochs 240 --straight-through 0.2' \
    wd05e240st30 '--weight-decay 0.05 --epochs 240 --straight-through 0.3' \
    wd05e240st50 '--weight-decay 0.05 --epochs 240 --straight-through 0.5'
  ;;
letter-wd)
  SEEDS="1 2 3" experiments/search.sh letter-64-20 \
    fastlr10 '--lr 0.1' \
    fastlr10wd01 '--lr 0.1 --weight-decay 0.01' \
    fastlr10wd05 '--lr 0.1 --weight-decay 0.05'
  ;;
*)
  echo "usage: experiments/searches.sh connect4-wd|connect4-st|letter-wd" >&2
  exit 2
  ;;
esac
