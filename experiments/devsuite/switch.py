#!/usr/bin/env python3
"""Simulates a rule that trains --preset fast in place of the search when
the search's choice is measured too coarsely: the standard error
sqrt(p(1-p)/n) of the chosen candidate's validation accuracy p on its n
validation rows (from the default's train output) above THRESHOLD points.

    switch.py AUTO_PREFIX FAST_PREFIX THRESHOLD

The prefixes are run.sh's folders, PREFIX-dataC-sS, for carvings and
seeds 1 to 3; prints the paired difference to the default and per set.
"""
import json, math, re, statistics as st, sys

SETS = "haberman seeds glass sonar ecoli ionosphere vote soybean credit-g winequality-red abalone hypothyroid".split()
auto, fast, thr = sys.argv[1], sys.argv[2], float(sys.argv[3])
diffs, per = [], {}
for c in (1, 2, 3):
    for s in (1, 2, 3):
        for name in SETS:
            a, f = f"{auto}-data{c}-s{s}/{name}", f"{fast}-data{c}-s{s}/{name}"
            out = open(a + ".train.out").read()
            p = float(re.findall(r"search: chose .*?\(validation ([0-9.]+)%\)", out)[-1]) / 100
            n = int(re.findall(r"^validation \((\d+) rows\)", out, re.M)[-1])
            se = 100 * math.sqrt(p * (1 - p) / n)
            ea = json.load(open(a + ".eval.json"))["hard_accuracy"]
            ef = json.load(open(f + ".eval.json"))["hard_accuracy"]
            d = 100 * ((ef if se > thr else ea) - ea)
            diffs.append(d)
            per.setdefault(name, []).append((d, se > thr))
print(f"threshold {thr}: paired difference {st.mean(diffs):+.2f} (SE {st.stdev(diffs) / math.sqrt(len(diffs)):.2f}, {len(diffs)} runs)")
for name in SETS:
    print(f"  {name:16s} {st.mean(d for d, _ in per[name]):+.2f}  fast on {sum(k for _, k in per[name])} of 9 runs")
