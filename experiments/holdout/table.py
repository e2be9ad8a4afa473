#!/usr/bin/python3
"""Prints run.sh's results as a markdown table: usage: table.py DATA OUT NAME...

rows counts NAME's training rows (DATA/raw/NAME.train.csv); auto time is
the mean over the three seeds of the whole songc train's wall time."""
import json, os, statistics, sys

data, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]
base = json.load(open(os.path.join(out, "baselines.json")))
print("| set | rows | majority | auto, seeds 1-3 | auto mean | fast mean | auto - fast | CART (leaves) | XGBoost | logistic | auto time |")
print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
cols = {k: [] for k in ["auto", "fast", "cart", "xgboost", "logreg"]}
for n in names:
    acc = {}
    for r in ["auto", "fast"]:
        acc[r] = [100 * json.load(open(os.path.join(out, "%s-%s-s%d.eval.json" % (n, r, s))))["hard_accuracy"] for s in (1, 2, 3)]
    t = statistics.mean(float(open(os.path.join(out, "%s-auto-s%d.time" % (n, s))).read()) for s in (1, 2, 3))
    b = base[n]
    a, f = statistics.mean(acc["auto"]), statistics.mean(acc["fast"])
    for k, v in [("auto", a), ("fast", f), ("cart", 100 * b["cart"]["accuracy"]), ("xgboost", 100 * b["xgboost"]["accuracy"]), ("logreg", 100 * b["logreg"]["accuracy"])]:
        cols[k].append(v)
    with open(os.path.join(data, "raw", n + ".train.csv")) as fh:
        rows = sum(1 for _ in fh) - 1  # the header
    print("| %s | %d | %.2f | %s | %.2f | %.2f | %+.2f | %.2f (%d) | %.2f | %.2f | %.0f s |" % (
        n, rows, 100 * b["majority"], ", ".join("%.2f" % v for v in acc["auto"]), a, f, a - f,
        100 * b["cart"]["accuracy"], b["cart"]["max_leaf_nodes"], 100 * b["xgboost"]["accuracy"], 100 * b["logreg"]["accuracy"], t))
m = {k: statistics.mean(v) for k, v in cols.items()}
print("| **mean of %d** | | | | **%.2f** | %.2f | %+.2f | %.2f | %.2f | %.2f | |" % (len(names), m["auto"], m["fast"], m["auto"] - m["fast"], m["cart"], m["xgboost"], m["logreg"]))
