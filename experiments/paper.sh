#!/usr/bin/env bash
# Runs one paper experiment with songc, resumably, and records its result.
#
#   experiments/paper.sh NAME [extra songc train flags...]
#
# NAME is one of the experiments below. Outputs go to experiments/runs/NAME/
# (experiments/runs/NAME-TAG/ when the environment sets TAG, for variants, and
# -sSEED is added when it sets SEED, which becomes --seed):
# model.json, model.log.jsonl (per-epoch log), model.ckpt (checkpoint after
# every epoch), training.json (the model's "training" metadata), eval.json
# (songc eval --json on the test split), analyze.json and result.json
# (command, wall time, machine). Run it again after an interruption and it
# resumes from the checkpoint, or from model.ckpt.gz, the copy that
# experiments/park.sh commits for a later session on another machine.
#
# git keeps the result files (so that experiments/NOTEBOOK.md can be rebuilt from a
# clean clone with experiments/tables.sh) but not the models, checkpoints and
# plots (.gitignore): a model is remade byte for byte by its command.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: experiments/paper.sh NAME [flags]}
shift
# shellcheck source=experiments/experiments.sh
. experiments/experiments.sh
experiment "$name"

out=experiments/runs/$name${TAG:+-$TAG}${SEED:+-s$SEED}
[ -n "${SEED:-}" ] && flags="$flags --seed $SEED"
mkdir -p "$out"
go build -o "$out/songc" ./cmd/songc
start=$(date +%s)
if [ ! -f "$out/model.ckpt" ] && [ -f "$out/model.ckpt.gz" ] && [ ! -f "$out/done" ]; then
  gunzip -c "$out/model.ckpt.gz" >"$out/model.ckpt.tmp"
  mv "$out/model.ckpt.tmp" "$out/model.ckpt"
fi
if [ -f "$out/model.ckpt" ] && [ ! -f "$out/done" ]; then
  # The checkpoint's paths are absolute: say where the data are on this
  # machine, which may not be the one that saved it.
  "$out/songc" train --resume "$out/model.ckpt" --data "$data" --test "$test" -o "$out/model.json" "$@"
else
  rm -f "$out/done"
  # shellcheck disable=SC2086
  "$out/songc" train --data "$data" --test "$test" $flags -o "$out/model.json" --checkpoint "$out/model.ckpt" "$@"
fi
touch "$out/done"
rm -f "$out/model.ckpt.gz"
end=$(date +%s)
jq .training "$out/model.json" >"$out/training.json"
"$out/songc" eval "$out/model.json" --data "$test" --json >"$out/eval.json"
"$out/songc" analyze "$out/model.json" --json --plots "$out/plots" >"$out/analyze.json"
cat >"$out/result.json" <<EOF
{"experiment": "$name${TAG:+-$TAG}${SEED:+-s$SEED}", "command": "${TAG:+TAG=$TAG }${SEED:+SEED=$SEED }experiments/paper.sh $name $*", "flags": "$flags $*",
 "wall_seconds_this_session": $((end - start)), "date": "$(date -u +%Y-%m-%d)",
 "machine": "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)",
 "songc": "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"}
EOF
echo "wrote $out/eval.json and $out/result.json"
