#!/usr/bin/env bash
# Training speed of two commits side by side, on this machine, in one run
# (experiments/speed-history.md, "One graph: steps and epochs against the commit before
# the speed work"):
#
#   - seconds per training step (songc bench, median of 41 batches) of the
#     default recipe's smallest and middle sizes, 16/8 and 64/20, on
#     Letter's shape (16 features, 26 classes), batch 64 and 128;
#   - seconds per training epoch, validation pass included (the median of
#     the per-epoch times the training log records), of Letter 64/20 (the
#     embedded data), Connect-4 8/10 and the tabular suite's largest set,
#     abalone, at 64/20, all with --preset fast.
#
# The two binaries run in turn, REPS times (default 3), so that a drift of
# the machine's speed touches both alike; the table gives the medians and
# OLD / NEW.
#
#   bench/versus.sh OLD [NEW]    # commits; NEW defaults to HEAD
#
# DATA names the data sets' folder (default ../shared/data). Builds and
# logs go to bench/runs/versus/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: bench/versus.sh OLD [NEW]}
new=${2:-HEAD}
data=${DATA:-../shared/data}
reps=${REPS:-3}
out=bench/runs/versus
mkdir -p "$out"
build() { # commit, binary
  local tree
  tree=$(mktemp -d)
  git worktree add -q --detach "$tree" "$1"
  (cd "$tree" && go build -o "$OLDPWD/$2" ./cmd/songc)
  git worktree remove --force "$tree"
}
build "$old" "$out/songc-old"
build "$new" "$out/songc-new"

epoch() { # binary tag rep name, then songc train flags
  local bin=$1 tag=$2 rep=$3 name=$4
  shift 4
  "$bin" train --preset fast --refine 0 -o "$out/$name-$tag-$rep.json" "$@" >/dev/null 2>&1
  python3 -c 'import json,statistics,sys
s=[json.loads(l)["seconds"] for l in open(sys.argv[1])]
print(statistics.median(s))' "$out/$name-$tag-$rep.log.jsonl" >>"$out/$name-$tag.txt"
}
step() { # binary tag nodes steps batch
  "$1" bench --nodes "$3" --steps "$4" --batch "$5" --features 16 --classes 26 --batches 41 --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds_per_batch"])' >>"$out/step-$3-$4-b$5-$2.txt"
}
rm -f "$out"/*.txt
for rep in $(seq "$reps"); do
  for tag in old new; do
    bin="$out/songc-$tag"
    for b in 64 128; do
      step "$bin" $tag 16 8 $b
      step "$bin" $tag 64 20 $b
    done
    epoch "$bin" $tag "$rep" letter-64-20 --nodes 64 --steps 20 --epochs 5
    epoch "$bin" $tag "$rep" connect4-8-10 --data "$data/connect4/train.csv.gz" --nodes 8 --steps 10 --epochs 5
    epoch "$bin" $tag "$rep" abalone-64-20 --data "$data/tabular/abalone.train.csv.gz" --nodes 64 --steps 20 --epochs 7
  done
done
python3 - "$out" "$old" "$new" <<'EOF'
import statistics, sys
out, old, new = sys.argv[1:4]
def med(name):
    return statistics.median(float(l) for l in open(f"{out}/{name}.txt"))
print(f"| what | {old} | {new} | {old} / {new} |")
print("|---|--:|--:|--:|")
for n, s in (("16", "8"), ("64", "20")):
    for b in ("64", "128"):
        o, w = med(f"step-{n}-{s}-b{b}-old"), med(f"step-{n}-{s}-b{b}-new")
        print(f"| step {n}/{s}, batch {b} (s) | {o:.6f} | {w:.6f} | {o/w:.2f} |")
for name, what in (("letter-64-20", "Letter 64/20"), ("connect4-8-10", "Connect-4 8/10"), ("abalone-64-20", "abalone 64/20")):
    o, w = med(f"{name}-old"), med(f"{name}-new")
    print(f"| epoch {what} (s) | {o:.4f} | {w:.4f} | {o/w:.2f} |")
EOF
echo "date $(date -u +%F), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
