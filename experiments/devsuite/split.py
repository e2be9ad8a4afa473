#!/usr/bin/env python3
"""Splits each suite set's training file into fit (75%) and dev (25%) rows,
stratified by the label (last column), so that recipe variants are compared
on rows that are neither their validation rows nor the test rows.

    split.py PREPARED_DIR OUT_DIR SEED
"""
import csv, os, random, sys
src, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(out, exist_ok=True)
sets = "credit-g vote hypothyroid soybean abalone ionosphere sonar glass ecoli seeds winequality-red haberman".split()
for name in sets:
    with open(os.path.join(src, name + ".train.csv")) as f:
        rows = list(csv.reader(f))
    head, rows = rows[0], rows[1:]
    by = {}
    for r in rows:
        by.setdefault(r[-1], []).append(r)
    rng = random.Random(seed)
    fit, dev = [], []
    for k in sorted(by):
        g = by[k]
        rng.shuffle(g)
        n = round(len(g) * 0.25)
        dev += g[:n]
        fit += g[n:]
    rng.shuffle(fit)
    rng.shuffle(dev)
    for part, rs in (("fit", fit), ("dev", dev)):
        with open(os.path.join(out, f"{name}.{part}.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(rs)
