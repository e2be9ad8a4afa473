#!/usr/bin/python3
"""Fits what a user would pick instead of songc, on the suite's files.

usage: baselines.py DATA OUT.json [NAME...]

DATA holds prep.py's NAME.train.csv and NAME.test.csv (bench/suite.sh
fits no baseline on MNIST). For each set, on the same training and test
rows as songc:
  - cart: scikit-learn's DecisionTreeClassifier, max_leaf_nodes chosen
    among 2, 4, ..., 1024 on a stratified validation split of the
    training rows (the share songc's auto recipe holds out, 0.1 to 0.3),
    then refitted on all training rows;
  - xgboost: XGBClassifier with its defaults;
  - logreg: LogisticRegression on standardised inputs (max_iter 2000).
Writes test accuracy, balanced accuracy, fit seconds and, for cart, the
chosen leaf count; saves each tree and booster (OUT dir) for the Go
exporters of bench/suite/predict.
"""
import json, os, sys, time

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, balanced_accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

SEED = 1


def load_csv(path):
    with open(path) as f:
        header = f.readline()
        rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
    x = np.array([[float(v) for v in r[:-1]] for r in rows])
    y = np.array([r[-1] for r in rows])
    return x, y


def load_set(data, name):
    """The training and test rows of set name in DATA, and its classes
    (the training labels, sorted): x, class index, x, class index (-1
    for a class no training row has), classes."""
    xtr, ytr = load_csv(os.path.join(data, name + ".train.csv"))
    xte, yte = load_csv(os.path.join(data, name + ".test.csv"))
    classes = sorted(set(ytr))
    index = {c: i for i, c in enumerate(classes)}
    return xtr, np.array([index[v] for v in ytr]), xte, np.array([index.get(v, -1) for v in yte]), classes


def val_share(rows):
    # The auto recipe's rule (trainer.DefaultValShare): about 60 rows, 0.1 to 0.3.
    return min(0.3, max(0.1, 60 / rows))


def fit_cart(xtr, ytr, seed):
    """The validation-tuned CART tree: max_leaf_nodes chosen among 2, 4,
    ..., 1024 on a stratified validation split drawn with seed, then the
    tree refitted on all of xtr. Returns the tree, its leaf count and
    that count's validation accuracy."""
    fit, val, yfit, yval = train_test_split(xtr, ytr, test_size=val_share(len(ytr)), stratify=ytr, random_state=seed)
    best, best_acc = 2, -1.0
    for leaves in [2 ** k for k in range(1, 11)]:
        acc = accuracy_score(yval, DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=seed).fit(fit, yfit).predict(val))
        if acc > best_acc:
            best, best_acc = leaves, acc
    return DecisionTreeClassifier(max_leaf_nodes=best, random_state=seed).fit(xtr, ytr), best, best_acc


def main():
    from xgboost import XGBClassifier  # here, so that cart.py's import needs scikit-learn only

    data, out = sys.argv[1], sys.argv[2]
    names = sys.argv[3:]
    models = os.path.splitext(out)[0] + "-models"
    os.makedirs(models, exist_ok=True)
    results = {}
    if os.path.exists(out):
        with open(out) as f:
            results = json.load(f)
    for name in names:
        xtr, ytr_i, xte, yte_i, classes = load_set(data, name)
        known = yte_i >= 0
        res = {}

        def score(key, model, seconds, extra=None):
            p = model.predict(xte)
            with open(os.path.join(models, "%s.%s.pred.json" % (name, key)), "w") as f:
                json.dump({"classes": classes, "predictions": [int(v) for v in p]}, f)
            r = {"accuracy": float(accuracy_score(yte_i, p)), "balanced": float(balanced_accuracy_score(yte_i[known], p[known])),
                 "seconds": round(seconds, 3)}
            r.update(extra or {})
            res[key] = r

        t0 = time.time()
        cart, best, best_acc = fit_cart(xtr, ytr_i, SEED)
        score("cart", cart, time.time() - t0, {"max_leaf_nodes": best, "val_accuracy": best_acc})
        t = cart.tree_
        with open(os.path.join(models, name + ".cart.json"), "w") as f:
            json.dump({"feature": t.feature.tolist(), "threshold": t.threshold.tolist(), "left": t.children_left.tolist(),
                       "right": t.children_right.tolist(), "class": t.value[:, 0, :].argmax(axis=1).tolist()}, f)

        t0 = time.time()
        xgb = XGBClassifier(random_state=SEED, n_jobs=2).fit(xtr, ytr_i)
        score("xgboost", xgb, time.time() - t0)
        xgb.get_booster().dump_model(os.path.join(models, name + ".xgb.json"), dump_format="json")
        with open(os.path.join(models, name + ".xgb.meta.json"), "w") as f:
            json.dump({"classes": len(classes), "base_score": float(xgb.get_booster().attr("base_score") or 0.5)}, f)

        t0 = time.time()
        lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(xtr, ytr_i)
        score("logreg", lr, time.time() - t0)

        maj = max(np.mean(yte_i == k) for k in range(len(classes)))
        res["majority"] = float(maj)
        results[name] = res
        print(name, json.dumps(res), flush=True)
        with open(out, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
