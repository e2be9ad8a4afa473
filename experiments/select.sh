#!/usr/bin/env bash
# The authors' protocol with a validation split: trains RESTARTS graphs of
# one experiment with the same seed (songc train --restart 0, 1, ...),
# refines each (songc refine), and keeps the one whose hard walk has the
# best validation accuracy (songc select). Resumable: every graph is one
# experiments/paper.sh run and one experiments/refine.sh run, both of which skip what
# is done.
#
#   SEED=1 RESTARTS=5 experiments/select.sh NAME [TAG [songc train flags...]]
#
# Graph r of seed s is experiments/runs/NAME[-TAG]-rR-sS (restart 0 is the plain
# run NAME[-TAG]-sS, shared with experiments/paper.sh and experiments/fast.sh). The
# selection goes to experiments/runs/NAME[-TAG]-pickK-sS/: model.json (a copy of
# the chosen refined graph), select.json (songc select --json: every
# candidate's validation and test accuracies), eval.json (songc eval --json
# on the test split), analyze.json and result.json (command, wall time of
# all K graphs and refines, machine). RIDGE is passed to experiments/refine.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=experiments/experiments.sh
. experiments/experiments.sh
name=${1:?usage: SEED=1 RESTARTS=5 experiments/select.sh NAME [TAG [flags]]}
tag=${2:-}
shift $(($# < 2 ? $# : 2))
seed=${SEED:-1}
k=${RESTARTS:-5}
rtag=${RIDGE:+-ridge$RIDGE}
experiment "$name"

runs=()
for ((r = 0; r < k; r++)); do
  t=$tag
  if [ "$r" -gt 0 ]; then
    t=${tag:+$tag-}r$r
  fi
  run=$name${t:+-$t}-s$seed
  if [ ! -f "experiments/runs/$run/eval.json" ]; then
    flags=()
    [ "$r" -gt 0 ] && flags=(--restart "$r")
    TAG=$t SEED=$seed experiments/paper.sh "$name" "$@" "${flags[@]}" >"experiments/runs-$run.out" 2>&1
  fi
  experiments/refine.sh "$run"
  runs+=("$run")
done

out=experiments/runs/$name${tag:+-$tag}-pick$k$rtag-s$seed
mkdir -p "$out"
build_songc
models=()
wall=0
for run in "${runs[@]}"; do
  models+=("experiments/runs/$run/refined$rtag.json")
  w=$(grep -o '"wall_seconds_this_session": [0-9]*' "experiments/runs/$run/result.json" | grep -o '[0-9]*$')
  rw=$(grep -o '"wall_seconds": [0-9]*' "experiments/runs/$run/refine$rtag-result.json" | grep -o '[0-9]*$')
  wall=$((wall + w + rw))
done
"$bin" select --data "$data" --test "$test" --json -o "$out/model.json" "${models[@]}" >"$out/select.json"
"$bin" eval "$out/model.json" --data "$test" --json >"$out/eval.json"
"$bin" analyze "$out/model.json" --json >"$out/analyze.json"
cat >"$out/result.json" <<EOF
{"experiment": "${out##*/}", "command": "SEED=$seed RESTARTS=$k ${RIDGE:+RIDGE=$RIDGE }experiments/select.sh $name $tag $*",
 "candidates": $k, "wall_seconds_all_candidates": $wall, "date": "$(date -u +%Y-%m-%d)",
 "machine": "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)",
 "songc": "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"}
EOF
echo "${out##*/}: $(grep -o '"selected": "[^"]*"' "$out/select.json")"
