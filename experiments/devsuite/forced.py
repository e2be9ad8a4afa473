#!/usr/bin/python3
"""Compares two ten-seed runs of the auto recipe (bench/seeds.sh's OUT
folders, A the baseline and B a variant) on the runs' test rows: per set,
the mean hard-walk accuracy of each and the runs whose accuracy or count
of forced exits changed (seed, A's and B's accuracy, A's and B's forced
exits), and the runs of each with more than 5% of test rows ending in a
forced exit.

With --threshold, it also simulates, from B's refine logs (which must
hold val_forced_exits: songc from 0131e57 on), choosing refining's pass by
validation accuracy among the passes whose validation rows end in a
forced exit at most 5% of the time, or no more often than pass 0's: where
that pass is the one A or B kept, the run scores as that one did; else
it is counted unknown.

usage: forced.py A B [--threshold]
"""
import glob, json, os, statistics as st, sys


def runs(a, b):
    out = {}
    for f in sorted(glob.glob(os.path.join(b, "*-auto-s*.eval.json"))):
        name = os.path.basename(f)[: -len(".eval.json")]
        g = os.path.join(a, name + ".eval.json")
        if os.path.exists(g):
            s, k = name.split("-auto-s")
            out.setdefault(s, []).append((int(k), name, json.load(open(g)), json.load(open(f))))
    return out


def refine_log(path):
    return json.load(open(path))["training"].get("refine") or {}


def pick(log, limit=0.05):
    lim = max(limit, log[0].get("val_forced_exits", 0))
    best, score = None, -1.0
    for i, p in enumerate(log):
        if p.get("val_forced_exits", 0) <= lim + 1e-12 and p.get("hard_val_accuracy", 0) > score:
            best, score = p.get("pass", i), p.get("hard_val_accuracy", 0)
    return best


def main():
    a, b = sys.argv[1], sys.argv[2]
    sets = runs(a, b)
    share = lambda e: e["forced_exits"] / e["rows"]
    ma, mb, over_a, over_b = [], [], 0, 0
    for s, rs in sets.items():
        accs_a = [100 * x[2]["hard_accuracy"] for x in rs]
        accs_b = [100 * x[3]["hard_accuracy"] for x in rs]
        ma.append(st.mean(accs_a)), mb.append(st.mean(accs_b))
        changed = [(k, round(100 * ea["hard_accuracy"], 2), round(100 * eb["hard_accuracy"], 2), ea["forced_exits"], eb["forced_exits"])
                   for k, _, ea, eb in sorted(rs) if ea["hard_accuracy"] != eb["hard_accuracy"] or ea["forced_exits"] != eb["forced_exits"]]
        over_a += sum(share(x[2]) > 0.05 for x in rs)
        over_b += sum(share(x[3]) > 0.05 for x in rs)
        print(f"{s:16s} {len(rs):2d} runs  A {st.mean(accs_a):6.2f}  B {st.mean(accs_b):6.2f}  changed (seed, A, B, forced A, forced B): {changed}")
    print(f"mean over the sets: A {st.mean(ma):.2f}, B {st.mean(mb):.2f}; runs with more than 5% forced exits: A {over_a}, B {over_b}")
    if "--threshold" not in sys.argv[3:]:
        return
    diffs, unknown = [], []
    for s, rs in sets.items():
        for k, name, ea, eb in rs:
            la, lb = refine_log(os.path.join(a, name + ".json")), refine_log(os.path.join(b, name + ".json"))
            if not lb.get("log"):
                diffs.append(0.0)
                continue
            p = pick(lb["log"])
            if p == la.get("selected_pass", 0):
                v = ea["hard_accuracy"]
            elif p == lb.get("selected_pass", 0):
                v = eb["hard_accuracy"]
            else:
                unknown.append(name)
                continue
            diffs.append(100 * (v - ea["hard_accuracy"]))
    se = st.stdev(diffs) / len(diffs) ** 0.5
    print(f"threshold rule minus A: {st.mean(diffs):+.3f} points (SE {se:.3f}, {len(diffs)} runs); unknown: {' '.join(unknown) or 'none'}")


if __name__ == "__main__":
    main()
