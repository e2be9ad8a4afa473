#!/usr/bin/env bash
# Trains and evaluates songc on one set of the suite with one recipe.
#
#   run.sh SONGC DATA OUT NAME RECIPE [SEED]
#
# songc reads a tabular set's own files (RAW/NAME.{train,test}.csv.gz, with
# their categorical and missing values) when RAW names their folder, and
# DATA's prepared numeric CSVs otherwise.
#
# RECIPE is auto (the default: no recipe flags), paper, fast or quick,
# each optionally with -rN for --restart N. Writes
# OUT/NAME-RECIPE.{json,log.jsonl,eval.json,train.out} and
# OUT/NAME-RECIPE.time (wall seconds of training, refine included); with
# SEED, trains with --seed SEED and names them NAME-RECIPE-sSEED.*. A run
# whose eval.json exists is skipped, so the suite resumes where it stopped.
set -euo pipefail
songc=$1 data=$2 out=$3 name=$4 recipe=$5 seed=${6:-}
base=$out/$name-$recipe${seed:+-s$seed}
[ -s "$base.eval.json" ] && exit 0
if [ "$name" = mnist ]; then
  train=$data/mnist/train-images-idx3-ubyte.gz test=$data/mnist/t10k-images-idx3-ubyte.gz
elif [ -n "${RAW:-}" ] && [ -e "$RAW/$name.train.csv.gz" ]; then
  train=$RAW/$name.train.csv.gz test=$RAW/$name.test.csv.gz
else
  train=$data/$name.train.csv test=$data/$name.test.csv
fi
flags=()
preset=${recipe%-r*}
[ "$preset" != auto ] && flags+=(--preset "$preset")
[ "$preset" != "$recipe" ] && flags+=(--restart "${recipe##*-r}")
[ -n "$seed" ] && flags+=(--seed "$seed")
rm -f "$base.json" "$base.log.jsonl"
start=$(date +%s.%N)
"$songc" train --data "$train" -o "$base.json" "${flags[@]}" > "$base.train.out" 2>&1
end=$(date +%s.%N)
echo "$end - $start" | bc > "$base.time"
"$songc" eval "$base.json" --data "$test" --json > "$base.eval.json.tmp"
mv "$base.eval.json.tmp" "$base.eval.json"
