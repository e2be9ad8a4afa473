#!/usr/bin/env bash
# Runs one recipe variant (a songc binary and flags) on every set's fit rows
# and evaluates it on the dev rows: experiments/devsuite/run.sh SONGC DATA OUT [FLAGS...]
set -euo pipefail
songc=$1 data=$2 out=$3; shift 3
mkdir -p "$out"
for name in haberman seeds glass sonar ecoli ionosphere vote soybean credit-g winequality-red abalone hypothyroid; do
  b=$out/$name
  [ -s "$b.eval.json" ] && continue
  rm -f "$b.json" "$b.log.jsonl"
  s=$(date +%s.%N)
  "$songc" train --data "$data/$name.fit.csv" -o "$b.json" "$@" > "$b.train.out" 2>&1
  echo "$(date +%s.%N) - $s" | bc > "$b.time"
  "$songc" eval "$b.json" --data "$data/$name.dev.csv" --json > "$b.eval.json"
done
/usr/bin/python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]; tot = 0; n = 0; t = 0
for name in "haberman seeds glass sonar ecoli ionosphere vote soybean credit-g winequality-red abalone hypothyroid".split():
    p = os.path.join(out, name + ".eval.json")
    if not os.path.exists(p): continue
    e = json.load(open(p)); tm = float(open(os.path.join(out, name + ".time")).read())
    print(f"{name:16s} hard {100*e['hard_accuracy']:6.2f} bal {100*e['hard_balanced_accuracy']:6.2f} maj {100*e['majority_baseline']:6.2f} forced {100*e['forced_exits']/e['rows']:5.2f} {tm:6.1f}s")
    tot += e['hard_accuracy']; n += 1; t += tm
print(f"mean of {n}: {100*tot/n:.2f}  time {t:.0f}s")
PY
