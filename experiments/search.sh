#!/usr/bin/env bash
# A recipe search chosen on validation rows only: trains every variant of
# one experiment with the fast preset for each seed (experiments/paper.sh),
# refines each model (experiments/refine.sh), and prints, per variant, the
# refined hard walk's validation accuracy (the pass songc refine keeps)
# averaged over the seeds, with the soft and unrefined hard validation
# accuracies of the epoch training kept. Test accuracies are not printed:
# experiments/tables.sh shows them once a variant is chosen.
#
#   SEEDS="1 2 3" experiments/search.sh NAME TAG 'flags' [TAG 'flags']...
#
# Run k of variant TAG is experiments/runs/NAME-TAG-sK/; finished runs are
# skipped, so the script resumes after an interruption and variants already
# run by experiments/fast.sh are reused. With JSON=1 the summary is JSON lines;
# with MD=1 markdown table rows (variant, flags, refined hard validation
# accuracy: mean and per seed, unrefined hard and soft validation
# accuracy, seeds); with PRINT=1 nothing is trained or refined, and only
# the summary is printed (experiments/tables.sh), failing if a run is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: SEEDS="1 2 3" experiments/search.sh NAME TAG 'flags' [TAG 'flags']...}
shift
[ $# -ge 2 ] && [ $(($# % 2)) -eq 0 ] || {
  echo "usage: SEEDS=\"1 2 3\" experiments/search.sh NAME TAG 'flags' [TAG 'flags']..." >&2
  exit 2
}
seeds=${SEEDS:-1 2 3}

args=("$@")
if [ -n "${MD:-}" ]; then
  echo "| variant | flags (with --preset fast --refine 0) | refined hard walk, val % | per seed | trained hard walk, val % | soft, val % | seeds |"
  echo "|---|---|---|---|---|---|---|"
fi
for ((i = 0; i < ${#args[@]}; i += 2)); do
  [ -n "${PRINT:-}" ] && break
  tag=${args[i]} flags=${args[i + 1]}
  runs=()
  for s in $seeds; do
    run=$name-$tag-s$s
    runs+=("$run")
    if [ ! -f "experiments/runs/$run/eval.json" ]; then
      # shellcheck disable=SC2086 # flags are words
      TAG=$tag SEED=$s experiments/paper.sh "$name" --preset fast --refine 0 $flags >"experiments/runs-$run.out" 2>&1 ||
        { echo "$run failed: see experiments/runs-$run.out" >&2; exit 1; }
    fi
  done
  experiments/refine.sh "${runs[@]}" >/dev/null
done

for ((i = 0; i < ${#args[@]}; i += 2)); do
  tag=${args[i]}
  files=()
  for s in $seeds; do
    # The refined model's training metadata: the committed copy, or the
    # (uncommitted) model of a run made before experiments/refine.sh wrote one.
    f=experiments/runs/$name-$tag-s$s/refine-training.json
    [ -f "$f" ] || f=experiments/runs/$name-$tag-s$s/refined.json
    files+=("$f")
  done
  jq -s --arg tag "$tag" --arg flags "${args[i + 1]}" '
    def mean: add / length;
    def pct: . * 10000 | round / 100;
    map(.training // .) |
    {variant: $tag, flags: $flags, seeds: [.[].seed],
     refined_hard_val: ([.[].refine.log[] | select(.selected) | .hard_val_accuracy] | mean | pct),
     refined_hard_val_each: [.[].refine.log[] | select(.selected) | .hard_val_accuracy | pct],
     hard_val: ([.[].refine.log[] | select(.pass == 0) | .hard_val_accuracy] | mean | pct),
     soft_val: ([.[].val_accuracy] | mean | pct)}' "${files[@]}" |
    if [ -n "${JSON:-}" ]; then
      jq -c .
    elif [ -n "${MD:-}" ]; then
      jq -r '"| \(.variant) | \(if .flags == "" then "(none)" else "`\(.flags)`" end) | \(.refined_hard_val) | \(.refined_hard_val_each | map(tostring) | join(", ")) | \(.hard_val) | \(.soft_val) | \(.seeds | map(tostring) | join(",")) |"'
    else
      jq -r '"\(.variant)\t refined hard val \(.refined_hard_val) \(.refined_hard_val_each)\t hard val \(.hard_val)\t soft val \(.soft_val)\t(\(.flags))"'
    fi
done
