#!/usr/bin/env bash
# Runs the recipe docs/RESULTS.md recommends for one row of the paper's
# tables, seed after seed, into the run folders that
# `go run ./bench/results` tabulates.
#
#   bench/recipe.sh ROW [SEED...]   # without seeds, those docs/RESULTS.md reports
#   bench/recipe.sh list            # rows, run names, flags and seeds
#
# Seed s of ROW goes to $RUNS/NAME-sS (RUNS defaults to bench/runs, which
# git ignores; NAME is the row's run name below):
#
#   model.json, model.log.jsonl  songc train FLAGS --seed s --refine 0
#   eval.json                    songc eval --json: the trained model on the test rows
#   refined.json                 songc refine --passes 10: its hard walk refined
#   refine-eval.json             songc eval --json of the refined model
#   result.json, refine-result.json
#                                commands, wall seconds, machine, commit
#
# `songc train FLAGS` without --refine 0 trains and refines in one command
# and writes the model of refined.json (--preset fast refines with 10
# passes); the script runs the two steps apart so that the table shows the
# hard walk before and after refining.
#
# Resumable: finished steps are skipped, and an interrupted training
# (Ctrl-C saves model.ckpt) resumes from its checkpoint. DATA is the folder
# of the data sets, in the authors' splits (default ../shared/data):
# letter/, connect4/ and mnist-cnn50/ hold train.csv.gz and test.csv.gz,
# mnist/ the IDX files.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${DATA:-../shared/data}
runs=${RUNS:-bench/runs}

row() { # ROW: sets name, train, test, flags and seeds
  case $1 in
  letter-64-20) name=letter-64-20-fastlr10wd01 set=letter flags="--nodes 64 --steps 20 --preset fast --lr 0.1 --weight-decay 0.01" seeds="1 2 3" ;;
  letter-128-30) name=letter-128-30-fastlr10 set=letter flags="--nodes 128 --steps 30 --preset fast --lr 0.1" seeds="1 2 3" ;;
  letter-511-50) name=letter-511-50-fastlr10 set=letter flags="--nodes 511 --steps 50 --preset fast --lr 0.1 --epochs 40" seeds=1 ;;
  connect4-8-10) name=connect4-8-10-wd05e240st20 set=connect4 flags="--nodes 8 --steps 10 --preset fast --weight-decay 0.05 --epochs 240 --straight-through 0.2" seeds="1 2 3 4 5 6 7 8 9 10" ;;
  connect4-255-10) name=connect4-255-10-wd05e360st20lr003 set=connect4 flags="--nodes 255 --steps 10 --preset fast --weight-decay 0.05 --epochs 360 --straight-through 0.2 --straight-through-lr 0.003" seeds="1 2 3 4 5" ;;
  mnist-64-20) name=mnist-64-20-wd01 set=mnist flags="--nodes 64 --steps 20 --preset fast --no-standardize --epochs 60 --weight-decay 0.01" seeds="1 2 3" ;;
  mnist-255-50) name=mnist-255-50-fast60wd01 set=mnist flags="--nodes 255 --steps 50 --preset fast --no-standardize --epochs 60 --weight-decay 0.01" seeds="1 2" ;;
  mnistcnn-16-8) name=mnistcnn-16-8-fast set=mnist-cnn50 flags="--nodes 16 --steps 8 --preset fast" seeds="1 2 3" ;;
  *) echo "bench/recipe.sh: unknown row $1 (bench/recipe.sh list)" >&2; exit 2 ;;
  esac
  if [ "$set" = mnist ]; then
    train=$data/mnist/train-images-idx3-ubyte.gz test=$data/mnist/t10k-images-idx3-ubyte.gz
  else
    train=$data/$set/train.csv.gz test=$data/$set/test.csv.gz
  fi
}

rows="letter-64-20 letter-128-30 letter-511-50 connect4-8-10 connect4-255-10 mnist-64-20 mnist-255-50 mnistcnn-16-8"
case ${1:?usage: bench/recipe.sh ROW [SEED...] | list} in
list)
  for r in $rows; do
    row "$r"
    printf '%-16s %-34s seeds %-21s %s\n' "$r" "$name" "$seeds" "$flags"
  done
  exit 0
  ;;
esac
rowname=$1
row "$rowname"
shift
[ $# -gt 0 ] || set -- $seeds

# One binary for every step, built from this checkout.
bin=$(mktemp -d)/songc
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/songc
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

for s in "$@"; do
  out=$runs/$name-s$s
  mkdir -p "$out"
  if [ ! -f "$out/eval.json" ]; then
    start=$(date +%s)
    if [ -f "$out/model.ckpt" ]; then
      "$bin" train --resume "$out/model.ckpt" --data "$train" --test "$test" -o "$out/model.json"
    else
      # shellcheck disable=SC2086 # flags are words
      "$bin" train --data "$train" --test "$test" $flags --seed "$s" --refine 0 \
        -o "$out/model.json" --checkpoint "$out/model.ckpt"
    fi
    end=$(date +%s)
    cat >"$out/result.json" <<EOF
{"run": "$name-s$s", "command": "bench/recipe.sh $rowname $s", "flags": "$flags --seed $s --refine 0",
 "wall_seconds_this_session": $((end - start)), "date": "$(date -u +%Y-%m-%d)", "machine": "$machine", "songc": "$commit"}
EOF
    "$bin" eval "$out/model.json" --data "$test" --json >"$out/eval.json.tmp"
    mv "$out/eval.json.tmp" "$out/eval.json"
    rm -f "$out/model.ckpt"
  fi
  if [ ! -f "$out/refine-eval.json" ]; then
    start=$(date +%s)
    "$bin" refine "$out/model.json" --data "$train" --test "$test" --passes 10 -o "$out/refined.json" -q
    end=$(date +%s)
    cat >"$out/refine-result.json" <<EOF
{"run": "$name-s$s", "command": "songc refine MODEL --passes 10", "passes": 10,
 "wall_seconds": $((end - start)), "date": "$(date -u +%Y-%m-%d)", "machine": "$machine", "songc": "$commit"}
EOF
    "$bin" eval "$out/refined.json" --data "$test" --json >"$out/refine-eval.json.tmp"
    mv "$out/refine-eval.json.tmp" "$out/refine-eval.json"
  fi
  echo "$out: done"
done
