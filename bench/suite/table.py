#!/usr/bin/python3
"""Prints the suite's results (Markdown) from bench/suite.sh's files: test
accuracy beside the other models, the auto recipe's models, and the cost of
one prediction.

usage: table.py OUT

Reads OUT/data/NAME.json, OUT/baselines.json, per set and recipe
OUT/runs/NAME-RECIPE.{eval.json,time,json}, and the prediction benchmarks'
output OUT/predict/NAME.txt (ns per prediction, test rows shuffled; the
CART and XGBoost models exported to Go and checked equal to Python). Accuracies are on the test
rows, in percent; songc's are the hard walk's, what songc compile emits.
A run that has not finished shows "-".
"""
import json, os, sys

from prep import suite

SETS = suite()


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main():
    out = sys.argv[1]
    base = load(os.path.join(out, "baselines.json")) or {}
    acc, auto, costs = [], [], []  # the three tables' rows
    means = {k: [] for k in ["auto", "paper", "fast", "cart", "xgboost", "logreg"]}
    cost = predict_cost(out)
    pct = lambda v: "%.2f" % (100 * v) if v is not None else "-"
    secs = lambda t: ("%.1f s" % t if t < 10 else "%.0f s" % t if t < 120 else "%.1f min" % (t / 60)) if t is not None else "-"
    for name in SETS:
        info = load(os.path.join(out, "data", name + ".json")) or {}
        b = base.get(name, {})
        run = {}
        for r in ["auto", "paper", "fast"]:
            p = os.path.join(out, "runs", "%s-%s" % (name, r))
            ev, t = load(p + ".eval.json"), None
            try:
                t = float(open(p + ".time").read())
            except (OSError, ValueError):
                pass
            m = load(p + ".json")
            run[r] = (ev, t, m)
        if not b and not any(v[0] for v in run.values()):
            continue
        ev, t, m = run["auto"]
        chosen = "-"
        if m:
            meta = m.get("training", {})
            chosen = "%d/%d, %d ep" % (m["nodes"], m["steps"], meta.get("epochs", 0))
            refine = meta.get("refine", {})
            c = meta.get("search", {}).get("candidates", [{}])[meta.get("search", {}).get("chosen", 0)]
            walk = "%s/%s, %d ep" % (c.get("nodes", "?"), c.get("steps", "?"), meta.get("epochs", 0))
            replaced = walk
            if refine.get("tree_check", {}).get("kept"):
                # The tree check put a tree in the walk's place.
                chosen = replaced = "tree of %d leaves (replaced %s)" % (refine["tree_check"]["leaves"], walk)
            if refine.get("logistic_check", {}).get("kept"):
                # The logistic check put a regression in the walk's or tree's place.
                chosen = replaced = "logistic regression (replaced %s)" % replaced
            majority = refine.get("majority_check", {})
            if majority.get("constant"):
                # The majority check replaced the walk, tree or regression.
                chosen = "constant (replaced %s)" % replaced
            elif majority.get("regression", {}).get("kept") and not refine.get("logistic_check", {}).get("kept"):
                # It put the logistic check's regression in the constant's
                # place (where the regression was already the model, it
                # only kept it).
                chosen = "logistic regression (in the constant's place; replaced %s)" % replaced
        hard = lambda r: pct(run[r][0]["hard_accuracy"]) if run[r][0] else "-"
        forced = pct(ev["forced_exits"] / max(1, ev["rows"])) if ev else "-"
        for r in ["auto", "paper", "fast"]:
            if run[r][0]:
                means[r].append((name, run[r][0]["hard_accuracy"]))
        for k in ["cart", "xgboost", "logreg"]:
            if k in b:
                means[k].append((name, b[k]["accuracy"]))
        acc.append("| %s | %s | **%s** | %s | %s | %s | %s | %s |" % (
            name, pct(b.get("majority")), hard("auto"), hard("paper"), hard("fast"),
            "%s (%d)" % (pct(b["cart"]["accuracy"]), b["cart"]["max_leaf_nodes"]) if "cart" in b else "-",
            pct(b["xgboost"]["accuracy"]) if "xgboost" in b else "-", pct(b["logreg"]["accuracy"]) if "logreg" in b else "-"))
        auto.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, info.get("train_rows", "-"), info.get("features", "-"), info.get("classes", "-"),
            pct(ev["soft_accuracy"]) if ev else "-", pct(ev["fidelity"]) if ev else "-", forced, chosen,
            ", ".join(secs(run[r][1]) for r in ["auto", "paper", "fast"])))
        ns = cost.get(name)
        if ns:
            f = lambda k: "%.0f" % ns[k] if k in ns else "-"
            cols = len((m or {}).get("inputs", [])) or "-"
            costs.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                name, cols, (m or {}).get("features", "-"), f("Songc"), f("SongcInput"), f("CART"), f("XGBoost")))
    print("Test accuracy in percent (`bench/suite.sh`); songc's columns are the compiled classifier (the hard walk).")
    print()
    print("| set | majority | **auto** | `--preset paper` | `--preset fast` | CART (leaves) | XGBoost | logistic (scikit-learn) |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    print("\n".join(acc))
    # Means over the sets every column has, so that they compare.
    common = set.intersection(*[{n for n, _ in v} for v in means.values()]) if all(means.values()) else set()
    if common:
        mean = lambda k: 100 * sum(a for n, a in means[k] if n in common) / len(common)
        print("| **mean of the %d sets with every cell** | | **%.2f** | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            len(common), mean("auto"), mean("paper"), mean("fast"), mean("cart"), mean("xgboost"), mean("logreg")))
    print()
    print("The auto recipe's models: their soft accuracy and fidelity, the share of test rows that took a forced exit, what the search chose, and each recipe's whole `songc train` time.")
    print()
    print("| set | rows | one-hot features | classes | soft | fidelity | forced | chosen | time: auto, paper, fast |")
    print("|---|--:|--:|--:|--:|--:|--:|---|--:|")
    print("\n".join(auto))
    if costs:
        print()
        print("Nanoseconds per prediction on the shuffled test rows: songc's compiled classifier on a row encoded once (`Predict`) and on the record (`PredictInput`, encoding included), and the CART and XGBoost models exported to Go. *columns* counts the CSV file's fields besides the label, *songc features* the inputs songc's encoding makes of them (what `Predict` takes).")
        print()
        print("| set | columns | songc features | songc `Predict` | songc `PredictInput` | CART | XGBoost |")
        print("|---|--:|--:|--:|--:|--:|--:|")
        print("\n".join(costs))


def predict_cost(out):
    """ns per prediction per set and model, from go test -bench's lines."""
    cost = {}
    for name in SETS:
        try:
            lines = open(os.path.join(out, "predict", name + ".txt")).read().splitlines()
        except OSError:
            continue
        for l in lines:
            f = l.split()
            if len(f) >= 4 and f[0].startswith("Benchmark") and f[3] == "ns/op":
                cost.setdefault(name, {})[f[0][len("Benchmark"):].split("-")[0]] = float(f[2])
    return cost


if __name__ == "__main__":
    main()
