#!/usr/bin/env bash
# Applies the rule experiments/NOTEBOOK.md fixed before seeds 4 and 5 ran
# ("Restarting the learning rate for the straight-through epochs"): the
# Connect-4 255/10 recipe (wd05e360st20) takes --straight-through-lr 0.003
# (wd05e360st20lr003) only if the mean validation accuracy of the refined
# walks over the seeds is higher with it. Prints the per-seed table that
# section shows (Markdown), the means, and the verdict.
#
#   experiments/stlrrule.sh [SEED...]   # seeds 1 to 5 by default
#
# Every figure is read from the run folders' result files: the best walk
# on validation from model.log.jsonl, the refined walk's from
# refine-training.json (the pass refine kept), test from eval.json and
# refine-eval.json. A seed whose run or refine has not finished stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  set -- 1 2 3 4 5
fi
runs=experiments/runs

for s in "$@"; do
  for d in "$runs/connect4-255-10-wd05e360st20-s$s" "$runs/connect4-255-10-wd05e360st20lr003-s$s"; do
    for f in model.log.jsonl refine-training.json eval.json refine-eval.json; do
      [ -f "$d/$f" ] || { echo "experiments/stlrrule.sh: $d/$f: missing (run or refine unfinished)" >&2; exit 1; }
    done
  done
done

cols() { # DIR: walk-val epoch refined-val pass compiled-test refined-test
  local d=$1
  jq -s -r 'max_by(.hard_val_accuracy) | "\(.hard_val_accuracy*100) \(.epoch)"' "$d/model.log.jsonl" | tr '\n' ' '
  jq -r '.refine as $r | "\($r.log[$r.selected_pass].hard_val_accuracy*100) \($r.selected_pass)"' "$d/refine-training.json" | tr '\n' ' '
  jq -r '.hard_accuracy*100' "$d/eval.json" | tr '\n' ' '
  jq -r '.hard_accuracy*100' "$d/refine-eval.json"
}

rows=$(for s in "$@"; do
  echo "$s $(cols "$runs/connect4-255-10-wd05e360st20-s$s") $(cols "$runs/connect4-255-10-wd05e360st20lr003-s$s")"
done)

awk -v n=$# '
function f(x) { return sprintf("%.2f", x) }
BEGIN {
  print "| seed | without the flag: walk on validation (epoch) | refined, validation (pass) | compiled, test | refined, test | 0.003: walk on validation (epoch) | refined, validation (pass) | compiled, test | refined, test |"
  print "|---|---|---|---|---|---|---|---|---|"
}
{
  printf "| %s | %s (%d) | %s (%d) | %s | %s | %s (%d) | %s (%d) | %s | %s |\n", $1, f($2), $3, f($4), $5, f($6), f($7), f($8), $9, f($10), $11, f($12), f($13)
  for (i = 2; i <= 13; i++) sum[i] += $i
}
END {
  for (i = 2; i <= 13; i++) m[i] = sum[i] / n
  printf "| mean | %s | %s | %s | %s | %s | %s | %s | %s |\n", f(m[2]), f(m[4]), f(m[6]), f(m[7]), f(m[8]), f(m[10]), f(m[12]), f(m[13])
  printf "\nrefined walks on validation, mean over %d seeds: recipe %.4f, 0.003 %.4f\n", n, m[4], m[10]
  if (m[10] > m[4]) print "verdict: --straight-through-lr 0.003 joins the recipe"
  else print "verdict: the recipe stays as it is"
}' <<<"$rows"
