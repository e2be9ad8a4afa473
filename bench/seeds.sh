#!/usr/bin/env bash
# Two recipes over several seeds of each tabular set, songc's default
# (auto) against --preset fast unless told otherwise: the seed changes the
# validation rows carved from the training file, the graphs' start and the
# batch order; the test rows stay the set's own. It prints, per set, each
# recipe's mean test accuracy of the compiled walk and the mean paired
# difference (first - second) with its standard error, so that a gap one
# seed shows can be told from a gap the recipes have.
#
#   bench/seeds.sh [OUT]                       # OUT defaults to bench/seeds-out (ignored by git)
#   SEEDS="1 2 3" SETS="glass winequality-red" bench/seeds.sh   # default: the tabular sets of bench/suite/sets.txt
#   RECIPES="fast-r1 fast" bench/seeds.sh      # one recipe against itself
#   RECIPES="auto cart" bench/seeds.sh         # against the tuned CART tree
#
# RECIPES names two recipes: auto, fast, quick or paper, each optionally
# with -rN for --restart N (other initial parameters and Gumbel noise, the
# same validation rows and batch order), so that "fast-r1 fast" measures
# how far apart two runs of one recipe land; or cart, scikit-learn's tree
# of bench/suite.sh, its size chosen on a validation split drawn with each
# seed (bench/suite/cart.py, on bench/suite/prep.py's one-hot encoding).
#
# Needs ../shared beside the checkout (SHARED=... to say otherwise) and Go;
# cart needs Debian's python3-sklearn, which it installs when
# /usr/bin/python3 lacks it.
# Finished runs are kept, so it resumes where it stopped; they are named
# by set, recipe and seed only, so give another OUT to another build.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared/data}
OUT=${1:-bench/seeds-out}
SETS=${SETS:-$(awk '!/^#/ && $2 == "tabular" { print $1 }' bench/suite/sets.txt)}
SEEDS=${SEEDS:-"1 2 3 4 5 6 7 8 9 10"}
RECIPES=${RECIPES:-"auto fast"}
PY=/usr/bin/python3
read -r A B rest <<< "$RECIPES"
[ -n "$B" ] && [ -z "$rest" ] || { echo "RECIPES names two recipes, got \"$RECIPES\"" >&2; exit 2; }
mkdir -p "$OUT"
go build -o "$OUT/songc" ./cmd/songc
todo=
if [ "$A" = cart ] || [ "$B" = cart ]; then
  for set in $SETS; do for seed in $SEEDS; do [ -s "$OUT/$set-cart-s$seed.eval.json" ] || todo=1; done; done
fi
if [ -n "$todo" ]; then # the trees not fitted yet
  $PY -c 'import sklearn' 2>/dev/null || { apt-get update -qq && apt-get install -y python3-sklearn; }
  $PY bench/suite/prep.py "$SHARED" "$OUT/data" $SETS > /dev/null
  $PY bench/suite/cart.py "$OUT/data" "$OUT" "$SEEDS" $SETS
fi
export RAW=$SHARED/tabular # run.sh reads the sets' own files
for set in $SETS; do
  for seed in $SEEDS; do
    for recipe in $A $B; do
      [ "$recipe" = cart ] || bench/suite/run.sh "$OUT/songc" "$OUT/data" "$OUT" "$set" "$recipe" "$seed"
    done
  done
done
$PY - "$OUT" "$SETS" "$SEEDS" "$A" "$B" <<'PY'
import json, math, statistics as st, sys
out, sets, seeds, A, B = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4], sys.argv[5]
cache = {}
def acc(s, r, k):
    p = f"{out}/{s}-{r}-s{k}.eval.json"
    if p not in cache:
        cache[p] = 100 * json.load(open(p))["hard_accuracy"]
    return cache[p]
print(f"Test accuracy of the compiled walk, mean of {len(seeds)} seeds.")
print()
print(f"| set | {A} | {B} | {A} - {B} | SE (standard error) |")
print("|---|--:|--:|--:|--:|")
se = lambda d: st.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float("nan")
ma, mb, gaps, noise = [], [], 0, []
for s in sets:
    a, b = [acc(s, A, k) for k in seeds], [acc(s, B, k) for k in seeds]
    d = [x - y for x, y in zip(a, b)]
    ma.append(st.mean(a)); mb.append(st.mean(b))
    gaps += abs(st.mean(d)) > 1
    noise.append(se(d))
    print(f"| {s} | {st.mean(a):.2f} | {st.mean(b):.2f} | {st.mean(d):+.2f} | {noise[-1]:.2f} |")
# The mean's standard error: of each seed's difference of the sets' means.
dm = [st.mean(acc(s, A, k) - acc(s, B, k) for s in sets) for k in seeds]
print(f"| **mean** | {st.mean(ma):.2f} | {st.mean(mb):.2f} | {st.mean(ma) - st.mean(mb):+.2f} | {se(dm):.2f} |")
print()
print(f"{gaps} of {len(sets)} sets differ by more than one point.")
# Taking each set's standard error as the noise of its difference: how
# many sets a recipe exactly as good as the second would trail it on by
# more than a point, and the chance it trails by at most a point on all.
phi = st.NormalDist().cdf
# A set whose differences are all alike (SE 0) never trails by chance;
# with one seed there is no SE to judge by.
within = [phi(1 / n) if n > 0 else 1.0 for n in noise if not math.isnan(n)]
behind, none = sum(1 - p for p in within), math.prod(within)
if within:
    print(f"At these standard errors, a recipe as good as {B} on every set would trail it by more than a point on {behind:.1f} sets on average, and by at most a point on all {len(within)} with probability {none:.2f}.")
PY
