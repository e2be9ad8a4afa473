#!/usr/bin/python3
"""The tree check simulated with scikit-learn, from the auto recipe's runs.

usage: treesim.py dev RUNS DATA [refit]     # RUNS-dataC-sS/SET.train.out, DATA C/SET.{fit,dev}.csv
       treesim.py seeds RUNS DATA [refit]   # RUNS/SET-auto-sK.train.out, DATA/SET.{train,test}.csv

For each run, a CART tree (DecisionTreeClassifier, max_leaf_nodes 2 to
128 in powers of 2, chosen on a stratified split of as many validation
rows as the run's, drawn with the run's seed: not the run's own rows) is
compared with the run's final validation accuracy (its summary's
"validation (N rows)" line); where the tree scores higher, the run's
accuracy on the dev or test rows is replaced by the tree's, the tree
grown on the fit rows of that split, or with refit on all the training
rows. Prints each set's mean change and the mean's over all runs.
"""
import json, os, re, sys

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "suite"))
from baselines import load_csv  # noqa: E402

SETS = "credit-g vote hypothyroid soybean abalone ionosphere sonar glass ecoli seeds winequality-red haberman".split()


def labels(ytr, yte):
    index = {c: i for i, c in enumerate(sorted(set(ytr)))}
    return np.array([index[v] for v in ytr]), np.array([index.get(v, -1) for v in yte])


def change(out, score, xtr, ytr, xte, yte, seed, refit):
    m = re.search(r"validation \((\d+) rows\): soft accuracy [\d.]+%, hard-walk accuracy ([\d.]+)%", out)
    n, walk = int(m.group(1)), float(m.group(2))
    fit, val, yfit, yval = train_test_split(xtr, ytr, test_size=n, stratify=ytr, random_state=seed)
    best, best_acc, leaves = None, -1.0, 0
    for k in [2 ** j for j in range(1, 8)]:
        t = DecisionTreeClassifier(max_leaf_nodes=k, random_state=seed).fit(fit, yfit)
        a = (t.predict(val) == yval).mean()
        if a > best_acc:
            best, best_acc, leaves = t, a, k
    if not 100 * best_acc > walk:
        return 0.0
    if refit:
        best = DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=seed).fit(xtr, ytr)
    return 100 * (best.predict(xte) == yte).mean() - score


def main():
    mode, runs, data = sys.argv[1:4]
    refit = sys.argv[4:] == ["refit"]
    diffs = {s: [] for s in SETS}
    for s in SETS:
        if mode == "dev":
            cases = [(c, k) for c in (1, 2, 3) for k in (1, 2, 3)]
        else:
            cases = [(None, k) for k in range(1, 11)]
        for c, k in cases:
            if mode == "dev":
                base = "%s-data%d-s%d/%s" % (runs, c, k, s)
                xtr, ytr = load_csv("%s%d/%s.fit.csv" % (data, c, s))
                xte, yte = load_csv("%s%d/%s.dev.csv" % (data, c, s))
            else:
                base = "%s/%s-auto-s%d" % (runs, s, k)
                xtr, ytr = load_csv("%s/%s.train.csv" % (data, s))
                xte, yte = load_csv("%s/%s.test.csv" % (data, s))
            ytr, yte = labels(ytr, yte)
            score = 100 * json.load(open(base + ".eval.json"))["hard_accuracy"]
            diffs[s].append(change(open(base + ".train.out").read(), score, xtr, ytr, xte, yte, k, refit))
    for s in SETS:
        d = diffs[s]
        print("%-16s %+.2f  up %d, down %d of %d" % (s, np.mean(d), sum(v > 0 for v in d), sum(v < 0 for v in d), len(d)))
    v = [x for s in SETS for x in diffs[s]]
    print("mean %+.2f (SE %.2f, %d runs)" % (np.mean(v), np.std(v, ddof=1) / len(v) ** 0.5, len(v)))


if __name__ == "__main__":
    main()
