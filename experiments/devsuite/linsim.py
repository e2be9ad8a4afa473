#!/usr/bin/python3
"""The logistic check simulated with scikit-learn, from the auto recipe's runs.

usage: linsim.py dev RUNS DATA       # RUNS-dataC-sS/SET.train.out, DATA C/SET.{fit,dev}.csv
       linsim.py seeds RUNS DATA     # RUNS/SET-auto-sK.train.out, DATA/SET.{train,test}.csv
       linsim.py holdout RUNS DATA   # RUNS/SET-auto-sK (K 1..3), DATA/num/SET.{train,test}.csv

For each run, a logistic regression (standardized columns, C from the
environment's CS, default "0.01 0.1 1 10 100", chosen on a stratified
split of as many validation rows as the run's, drawn with the run's seed:
not the run's own rows) is compared with what the run kept on its
validation rows (the tree check's tree where it replaced the walk, else
the refined walk); where the regression scores higher, a sign test
against the most frequent class on those rows (the majority check) keeps
it, fitted again on all the training rows, or the constant, and the
run's accuracy on the dev or test rows is replaced by theirs. Prints
each set's mean change, how many runs kept the regression, and the
mean's over all runs.
"""
import json, os, re, sys
import numpy as np
from math import comb
from sklearn.model_selection import train_test_split
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "suite"))
from baselines import load_csv
SETS = "credit-g vote hypothyroid soybean abalone ionosphere sonar glass ecoli seeds winequality-red haberman".split()
CS = [float(x) for x in os.environ.get("CS", "0.01 0.1 1 10 100").split()]

def labels(ytr, yte):
    index = {c: i for i, c in enumerate(sorted(set(ytr)))}
    return np.array([index[v] for v in ytr]), np.array([index.get(v, -1) for v in yte])

def sign(a, b):
    n = a + b
    return sum(comb(n, k) for k in range(a, n + 1)) / 2 ** n

def kept_val(out):
    m = re.search(r"validation \((\d+) rows[^)]*\): soft accuracy [\d.]+%, hard-walk accuracy ([\d.]+)%", out)
    n, walk = int(m.group(1)), float(m.group(2))
    t = re.search(r"tree check: .* scores accuracy ([\d.]+)% on the validation rows, the walk ([\d.]+)%; the tree, grown again", out)
    if t:
        walk = float(t.group(1))
    else:
        t = re.search(r"tree check: .* the walk ([\d.]+)%", out)
        if t: walk = float(t.group(1))
    return n, walk

def lr(C):
    return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=2000))

def change(out, score, xtr, ytr, xte, yte, seed):
    n, walk = kept_val(out)
    fit, val, yfit, yval = train_test_split(xtr, ytr, test_size=n, stratify=ytr, random_state=seed)
    best, best_acc, bc = None, -1.0, 0
    for C in CS:
        t = lr(C).fit(fit, yfit)
        a = (t.predict(val) == yval).mean()
        if a > best_acc:
            best, best_acc, bc = t, a, C
    if not 100 * best_acc > walk + 1e-9:
        return 0.0, False
    # majority check on the fit-only model's val classes
    maj = np.bincount(yfit).argmax()
    p = best.predict(val)
    a = int(((p == yval) & (yval != maj)).sum()); b = int(((p != yval) & (yval == maj)).sum())
    full = lr(bc).fit(xtr, ytr)
    if sign(a, b) < 0.05:
        new = 100 * (full.predict(xte) == yte).mean()
    else:
        new = 100 * (yte == np.bincount(ytr).argmax()).mean()
    return new - score, True

def main():
    global SETS
    mode, runs, data = sys.argv[1:4]
    diffs = {s: [] for s in SETS}; kept = {s: 0 for s in SETS}
    if mode == "holdout":
        SETS = sorted(f[:-10] for f in os.listdir(data + "/raw") if f.endswith(".train.csv"))
        diffs = {s: [] for s in SETS}; kept = {s: 0 for s in SETS}
    for s in SETS:
        cases = [(c, k) for c in (1, 2, 3) for k in (1, 2, 3)] if mode == "dev" else [(None, k) for k in range(1, 11)]
        for c, k in cases:
            if mode == "dev":
                base = "%s-data%d-s%d/%s" % (runs, c, k, s)
                xtr, ytr = load_csv("%s%d/%s.fit.csv" % (data, c, s)); xte, yte = load_csv("%s%d/%s.dev.csv" % (data, c, s))
            elif mode == "holdout":
                if k > 3: continue
                base = "%s/%s-auto-s%d" % (runs, s, k)
                xtr, ytr = load_csv("%s/num/%s.train.csv" % (data, s)); xte, yte = load_csv("%s/num/%s.test.csv" % (data, s))
            else:
                base = "%s/%s-auto-s%d" % (runs, s, k)
                xtr, ytr = load_csv("%s/%s.train.csv" % (data, s)); xte, yte = load_csv("%s/%s.test.csv" % (data, s))
            ytr, yte = labels(ytr, yte)
            score = 100 * json.load(open(base + ".eval.json"))["hard_accuracy"]
            d, kp = change(open(base + ".train.out").read(), score, xtr, ytr, xte, yte, k)
            diffs[s].append(d); kept[s] += kp
    for s in SETS:
        d = diffs[s]
        print("%-16s %+.2f  up %d, down %d of %d, kept %d" % (s, np.mean(d), sum(v > 0 for v in d), sum(v < 0 for v in d), len(d), kept[s]))
    v = [x for s in SETS for x in diffs[s]]
    print("mean %+.2f (SE %.2f, %d runs)" % (np.mean(v), np.std(v, ddof=1) / len(v) ** 0.5, len(v)))
main()
