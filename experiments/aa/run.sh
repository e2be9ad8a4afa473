#!/usr/bin/env bash
# How far apart two runs of one recipe land on the tabular sets' test rows.
# `--preset fast` is trained twice per seed: as it is (restart 0) and with
# --restart 1, which draws other initial parameters and Gumbel noise but
# keeps the seed's validation rows and batch order. Both are the same
# recipe, so any gap between their ten-seed means is noise: the table says
# how large a per-set gap the suite's test files show between recipes that
# do not differ at all.
#
#   experiments/aa/run.sh [OUT]        # OUT defaults to bench/seeds-out, bench/seeds.sh's folder
#
# The restart-0 runs are named as bench/seeds.sh names its fast runs, so a
# folder it filled is reused, whatever build trained them: compare them
# only with a build whose fast models are the same (rerun one set's
# restart-0 runs to check). Needs ../shared beside the checkout (SHARED=...
# to say otherwise), Go and python3. Finished runs are kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED=${SHARED:-../shared/data}
OUT=${1:-bench/seeds-out}
SETS=${SETS:-"credit-g vote hypothyroid soybean abalone ionosphere sonar glass ecoli seeds winequality-red haberman"}
SEEDS=${SEEDS:-"1 2 3 4 5 6 7 8 9 10"}
mkdir -p "$OUT"
go build -o "$OUT/songc-aa" ./cmd/songc
for set in $SETS; do
  for seed in $SEEDS; do
    for r in 0 1; do
      base=$OUT/$set-fast-s$seed
      [ "$r" = 1 ] && base=$OUT/$set-fastr1-s$seed
      [ -s "$base.eval.json" ] && continue
      "$OUT/songc-aa" train --data "$SHARED/tabular/$set.train.csv.gz" -o "$base.json" --preset fast --seed "$seed" --restart "$r" > "$base.train.out" 2>&1
      "$OUT/songc-aa" eval "$base.json" --data "$SHARED/tabular/$set.test.csv.gz" --json > "$base.eval.json.tmp"
      mv "$base.eval.json.tmp" "$base.eval.json"
    done
  done
done
python3 - "$OUT" "$SETS" "$SEEDS" <<'PY'
import json, statistics as st, sys
out, sets, seeds = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
def acc(s, r, k):
    return 100 * json.load(open(f"{out}/{s}-{r}-s{k}.eval.json"))["hard_accuracy"]
print(f"Test accuracy of the compiled walk of --preset fast, mean of {len(seeds)} seeds, as it is and with --restart 1.")
print()
print("| set | fast | fast, restart 1 | difference | SE (standard error) |")
print("|---|--:|--:|--:|--:|")
se = lambda d: st.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float("nan")
gaps = 0
for s in sets:
    a, b = [acc(s, "fast", k) for k in seeds], [acc(s, "fastr1", k) for k in seeds]
    d = [y - x for x, y in zip(a, b)]
    gaps += abs(st.mean(d)) > 1
    print(f"| {s} | {st.mean(a):.2f} | {st.mean(b):.2f} | {st.mean(d):+.2f} | {se(d):.2f} |")
print()
print(f"{gaps} of {len(sets)} sets differ by more than one point.")
PY
