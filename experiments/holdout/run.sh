#!/usr/bin/env bash
# Trains songc's default (auto) and --preset fast, seeds 1 to 3, on every
# held-out set's raw files and evaluates the compiled walk on the test
# rows; fits bench/suite/baselines.py's CART, XGBoost and logistic
# regression on the one-hot files; prints the table (table.py).
#
#   experiments/holdout/run.sh SONGC DATA OUT    # DATA: make.py's OUT
#
# A run whose eval.json exists is skipped, so the script resumes.
set -euo pipefail
songc=$1 data=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
sets=$(ls "$data/raw" | sed -n 's/\.train\.csv$//p')
for name in $sets; do
  for recipe in auto fast; do
    for seed in 1 2 3; do
      b=$out/$name-$recipe-s$seed
      [ -s "$b.eval.json" ] && continue
      flags=(--seed "$seed")
      [ "$recipe" != auto ] && flags+=(--preset "$recipe")
      s=$(date +%s.%N)
      "$songc" train --data "$data/raw/$name.train.csv" -o "$b.json" "${flags[@]}" > "$b.train.out" 2>&1
      echo "$(date +%s.%N) - $s" | bc > "$b.time"
      "$songc" eval "$b.json" --data "$data/raw/$name.test.csv" --json > "$b.eval.json.tmp"
      mv "$b.eval.json.tmp" "$b.eval.json"
    done
  done
done
[ -s "$out/baselines.json" ] || /usr/bin/python3 "$here/../../bench/suite/baselines.py" "$data/num" "$out/baselines.json" $sets > /dev/null
/usr/bin/python3 "$here/table.py" "$data" "$out" $sets
