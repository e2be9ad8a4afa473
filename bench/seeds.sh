#!/usr/bin/env bash
# songc's default (auto) recipe against --preset fast over several seeds of
# each tabular set: the seed changes the validation rows carved from the
# training file, the graphs' start and the batch order; the test rows stay
# the set's own. It prints, per set, each recipe's mean test accuracy of
# the compiled walk and the mean paired difference (auto - fast) with its
# standard error, so that a gap one seed shows can be told from a gap the
# recipes have.
#
#   bench/seeds.sh [OUT]                       # OUT defaults to bench/seeds-out (ignored by git)
#   SEEDS="1 2 3" SETS="glass winequality-red" bench/seeds.sh
#
# Needs ../shared beside the checkout (SHARED=... to say otherwise) and Go.
# Finished runs are kept, so it resumes where it stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared/data}
OUT=${1:-bench/seeds-out}
SETS=${SETS:-"credit-g vote hypothyroid soybean abalone ionosphere sonar glass ecoli seeds winequality-red haberman"}
SEEDS=${SEEDS:-"1 2 3 4 5 6 7 8 9 10"}
mkdir -p "$OUT"
go build -o "$OUT/songc" ./cmd/songc
for set in $SETS; do
  for seed in $SEEDS; do
    for recipe in auto fast; do
      base=$OUT/$set-$recipe-s$seed
      [ -s "$base.eval.json" ] && continue
      flags=(--seed "$seed")
      [ "$recipe" != auto ] && flags+=(--preset "$recipe")
      "$OUT/songc" train --data "$SHARED/tabular/$set.train.csv.gz" -o "$base.json" "${flags[@]}" > "$base.train.out" 2>&1
      "$OUT/songc" eval "$base.json" --data "$SHARED/tabular/$set.test.csv.gz" --json > "$base.eval.json.tmp"
      mv "$base.eval.json.tmp" "$base.eval.json"
    done
  done
done
python3 - "$OUT" "$SETS" "$SEEDS" <<'PY'
import json, statistics as st, sys
out, sets, seeds = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
cache = {}
def acc(s, r, k):
    p = f"{out}/{s}-{r}-s{k}.eval.json"
    if p not in cache:
        cache[p] = 100 * json.load(open(p))["hard_accuracy"]
    return cache[p]
print(f"Test accuracy of the compiled walk, mean of {len(seeds)} seeds.")
print()
print("| set | auto | fast | auto - fast | SE (standard error) |")
print("|---|--:|--:|--:|--:|")
se = lambda d: st.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float("nan")
ma, mf = [], []
for s in sets:
    a, f = [acc(s, "auto", k) for k in seeds], [acc(s, "fast", k) for k in seeds]
    d = [x - y for x, y in zip(a, f)]
    ma.append(st.mean(a)); mf.append(st.mean(f))
    print(f"| {s} | {st.mean(a):.2f} | {st.mean(f):.2f} | {st.mean(d):+.2f} | {se(d):.2f} |")
# The mean's standard error: of each seed's difference of the sets' means.
dm = [st.mean(acc(s, "auto", k) - acc(s, "fast", k) for s in sets) for k in seeds]
print(f"| **mean** | {st.mean(ma):.2f} | {st.mean(mf):.2f} | {st.mean(ma) - st.mean(mf):+.2f} | {se(dm):.2f} |")
PY
