#!/usr/bin/env bash
# The development suite, side by side: songc's default (auto) recipe, the
# fixed recipes (--preset paper, --preset fast), and what a user would
# pick instead (a validation-tuned CART tree, XGBoost, a logistic
# regression), on the same training and test rows of every set (on MNIST,
# the auto recipe alone); then the
# cost of one prediction of songc's compiled classifier, the CART tree and
# the XGBoost model (both exported to Go and checked against Python on
# every test row), on the test rows in a shuffled order.
#
#   bench/suite.sh [OUT]            # OUT defaults to bench/suite/out (ignored by git)
#   SETS="glass seeds" bench/suite.sh   # default: all of bench/suite/sets.txt
#   RECIPES="auto fast" bench/suite.sh
#   TABLE=1 bench/suite.sh          # only make the tables, from OUT's runs
#
# songc reads the tabular sets' files as they are (categorical and missing
# values included); the baselines read prep.py's one-hot encoding of them.
#
# Needs ../shared beside the checkout (SHARED=... to say otherwise), Go,
# and Debian's python3-sklearn and python3-xgboost, which it installs when
# /usr/bin/python3 lacks them. Finished runs are kept, so the suite
# resumes where it stopped. The tables go to OUT/table.md and, unless
# SETS was given, between the suite markers of docs/RESULTS.md (after runs
# of a few sets, TABLE=1 bench/suite.sh writes the page from all of OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared/data}
OUT=${1:-bench/suite/out}
partial=${SETS:+1} # a few sets: the page keeps its table
SETS=${SETS:-$(awk '!/^#/ { print $1 }' bench/suite/sets.txt)}
RECIPES=${RECIPES:-"auto fast paper"}
PY=/usr/bin/python3
mkdir -p "$OUT/runs" "$OUT/predict"

if [ -z "${TABLE:-}" ]; then
  if ! $PY -c 'import sklearn, xgboost' 2>/dev/null; then
    apt-get update -qq && apt-get install -y python3-sklearn python3-xgboost
  fi
  $PY bench/suite/prep.py "$SHARED" "$OUT/data" > /dev/null
  [ -e "$OUT/data/mnist" ] || ln -s "$(cd "$SHARED/mnist" && pwd)" "$OUT/data/mnist"
  go build -o "$OUT/songc" ./cmd/songc
  # The IDX sets (MNIST) run the auto recipe alone: the fixed recipes and
  # the baselines would take as long as the rest of the suite together.
  idx=" $(awk '!/^#/ && $2 == "idx" { print $1 }' bench/suite/sets.txt | tr '\n' ' ')"
  csvsets=()
  for name in $SETS; do [[ $idx == *" $name "* ]] || csvsets+=("$name"); done
  $PY bench/suite/baselines.py "$OUT/data" "$OUT/baselines.json" "${csvsets[@]}"
  export RAW=$SHARED/tabular
  for name in $SETS; do
    for recipe in $RECIPES; do
      [[ $idx == *" $name "* ]] && [ "$recipe" != auto ] && continue
      echo "songc $recipe on $name" >&2
      bench/suite/run.sh "$OUT/songc" "$OUT/data" "$OUT/runs" "$name" "$recipe" || echo "songc $recipe on $name failed: $OUT/runs/$name-$recipe.train.out" >&2
    done
    model=$OUT/runs/$name-auto.json
    # The prediction costs are measured on the tabular sets, whose records
    # PredictInput reads from their own files.
    if [ -e "$RAW/$name.test.csv.gz" ] && [ -s "$model" ] && [ ! -s "$OUT/predict/$name.txt" ]; then
      "$OUT/songc" compile "$model" -o "$OUT/predict/$name/classifier.go" --package classifier > /dev/null
      go run ./bench/suite/predict -models "$OUT/baselines-models" -name "$name" -classifier "$OUT/predict/$name/classifier.go" \
        -test "$OUT/data/$name.test.csv" -raw "$RAW/$name.test.csv.gz" -o "$OUT/predict/$name/bench"
      (cd "$OUT/predict/$name/bench" && go test -count=1 -run TestSameAsPython -bench . -benchtime 2000000x) > "$OUT/predict/$name.txt.tmp"
      mv "$OUT/predict/$name.txt.tmp" "$OUT/predict/$name.txt"
    fi
  done
fi
$PY bench/suite/table.py "$OUT" > "$OUT/table.md"
cat "$OUT/table.md"
if [ -n "$partial" ]; then
  echo "SETS given: docs/RESULTS.md is left as it is; the tables are in $OUT/table.md" >&2
  exit 0
fi
# Replace the table between the markers of the results page.
$PY - "$OUT/table.md" docs/RESULTS.md <<'PYEOF'
import sys
table, page = open(sys.argv[1]).read(), sys.argv[2]
s = open(page).read()
a, b = "<!-- suite table: bench/suite.sh writes it -->\n", "<!-- end of suite table -->\n"
if a in s and b in s:
    i, j = s.index(a) + len(a), s.index(b)
    open(page, "w").write(s[:i] + table + s[j:])
PYEOF
