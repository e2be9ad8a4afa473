#!/usr/bin/python3
"""Prints the suite's results table (Markdown) from bench/suite.sh's files.

usage: table.py OUT

Reads OUT/data/NAME.json, OUT/baselines.json, per set and recipe
OUT/runs/NAME-RECIPE.{eval.json,time,json}, and the prediction benchmarks'
output OUT/predict/NAME.txt (ns per prediction, test rows shuffled; the
CART and XGBoost models exported to Go and checked equal to Python). Accuracies are on the test
rows, in percent; "compiled" is the hard walk, what songc compile emits.
A run that has not finished shows "-".
"""
import json, os, sys

SETS = ["credit-g", "vote", "hypothyroid", "soybean", "abalone", "ionosphere", "sonar", "glass",
        "ecoli", "seeds", "winequality-red", "haberman", "letter", "connect4", "mnist"]


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main():
    out = sys.argv[1]
    base = load(os.path.join(out, "baselines.json")) or {}
    rows, means = [], {k: [] for k in ["auto", "paper", "fast", "cart", "xgboost", "logreg"]}
    cost = predict_cost(out)
    print("| set | rows | features | classes | majority | **auto** compiled | soft | fidelity | forced | time | chosen | `--preset paper` | fast | CART (leaves) | XGBoost | logistic | ns / prediction: songc, CART, XGBoost |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|")
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
        pct = lambda v: "%.2f" % (100 * v) if v is not None else "-"
        secs = lambda t: ("%.0f s" % t if t < 120 else "%.1f min" % (t / 60)) if t is not None else "-"
        ev, t, m = run["auto"]
        chosen = "-"
        if m:
            meta = m.get("training", {})
            chosen = "%d/%d, %d ep" % (m["nodes"], m["steps"], meta.get("epochs", 0))
            if meta.get("refine", {}).get("majority_check", {}).get("constant"):
                # The majority check replaced the walk: name what it replaced.
                c = meta["search"]["candidates"][meta["search"]["chosen"]]
                chosen = "constant (replaced %d/%d, %d ep)" % (c["nodes"], c["steps"], meta.get("epochs", 0))
        cell = lambda r: ("%s (%s)" % (pct(run[r][0]["hard_accuracy"]), secs(run[r][1]))) if run[r][0] else "-"
        forced = pct(ev["forced_exits"] / max(1, ev["rows"])) if ev else "-"
        for r in ["auto", "paper", "fast"]:
            if run[r][0]:
                means[r].append((name, run[r][0]["hard_accuracy"]))
        for k in ["cart", "xgboost", "logreg"]:
            if k in b:
                means[k].append((name, b[k]["accuracy"]))
        ns = cost.get(name, {})
        ns = ", ".join("%.0f" % ns[k] if k in ns else "-" for k in ["Songc", "CART", "XGBoost"]) if ns else "-"
        print("| %s | %s | %s | %s | %s | **%s** | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, info.get("train_rows", "-"), info.get("features", "-"), info.get("classes", "-"), pct(b.get("majority")),
            pct(ev["hard_accuracy"]) if ev else "-", pct(ev["soft_accuracy"]) if ev else "-", pct(ev["fidelity"]) if ev else "-",
            forced, secs(t), chosen, cell("paper"), cell("fast"),
            "%s (%d)" % (pct(b["cart"]["accuracy"]), b["cart"]["max_leaf_nodes"]) if "cart" in b else "-",
            pct(b["xgboost"]["accuracy"]) if "xgboost" in b else "-", pct(b["logreg"]["accuracy"]) if "logreg" in b else "-", ns))
    # Means over the sets every column has, so that they compare.
    common = set.intersection(*[{n for n, _ in v} for v in means.values()]) if all(means.values()) else set()
    if common:
        mean = lambda k: 100 * sum(a for n, a in means[k] if n in common) / len(common)
        print("| **mean of the %d sets with every cell** | | | | | **%.2f** | | | | | | %.2f | %.2f | %.2f | %.2f | %.2f | |" % (
            len(common), mean("auto"), mean("paper"), mean("fast"), mean("cart"), mean("xgboost"), mean("logreg")))
    # Records against vectors, where the classifier takes records.
    rec = [(n, c) for n, c in ((n, cost.get(n, {})) for n in SETS) if "SongcInput" in c and "Songc" in c]
    if rec:
        print()
        print("songc's compiled classifier on the raw test rows, ns per prediction: `Predict` on a row encoded once, `PredictInput` on the record (encoding included).")
        print()
        print("| set | columns | features | Predict | PredictInput |")
        print("|---|--:|--:|--:|--:|")
        for n, c in rec:
            m = load(os.path.join(out, "runs", n + "-auto.json")) or {}
            cols = len(m.get("inputs", [])) or "-"
            print("| %s | %s | %s | %.0f | %.0f |" % (n, cols, m.get("features", "-"), c["Songc"], c["SongcInput"]))


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
