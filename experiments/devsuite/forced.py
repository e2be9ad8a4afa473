#!/usr/bin/python3
"""Compares two sets of runs of the auto recipe on their measured rows
(A the baseline, B a variant): per set, the mean hard-walk accuracy of each
and the runs whose accuracy or count of forced exits changed (run, A's
and B's accuracy, A's and B's forced exits), and the runs of each with
more than 5% of their measured rows ending in a forced exit.

    forced.py A B [--threshold]        # bench/seeds.sh's OUT folders, the test rows
    forced.py dev A B [--threshold]    # run.sh's folders A-dataC-sS and B's, the dev rows

With --threshold, it also simulates choosing refining's pass by
validation accuracy among the passes whose validation rows end in a
forced exit at most 5% of the time, or no more often than pass 0's, from
the refine logs of whichever of A and B hold val_forced_exits (songc from
0131e57 on): where that pass is the one A or B kept, the run scores as
that one did; else it is counted unknown.
"""
import glob, json, os, statistics as st, sys

from compare import SETS  # run.sh's sets, from the script beside this one


def runs(a, b, dev=False):
    """Per set, the runs both hold: (key, A's model, B's model, A's eval, B's eval)."""
    out = {}
    if dev:
        for c in (1, 2, 3):
            for k in (1, 2, 3):
                for s in SETS:
                    fa, fb = f"{a}-data{c}-s{k}/{s}", f"{b}-data{c}-s{k}/{s}"
                    if os.path.exists(fa + ".eval.json") and os.path.exists(fb + ".eval.json"):
                        out.setdefault(s, []).append((f"c{c}s{k}", fa + ".json", fb + ".json",
                                                      json.load(open(fa + ".eval.json")), json.load(open(fb + ".eval.json"))))
        return out
    for f in sorted(glob.glob(os.path.join(b, "*-auto-s*.eval.json"))):
        name = os.path.basename(f)[: -len(".eval.json")]
        g = os.path.join(a, name + ".eval.json")
        if os.path.exists(g):
            s, k = name.split("-auto-s")
            out.setdefault(s, []).append((f"s{int(k):02d}", os.path.join(a, name + ".json"), os.path.join(b, name + ".json"),
                                          json.load(open(g)), json.load(open(f))))
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


def logs_share(log):
    return any("val_forced_exits" in p for p in log)


def main():
    args = [x for x in sys.argv[1:] if x != "--threshold"]
    dev = args[0] == "dev"
    a, b = args[1:3] if dev else args[:2]
    sets = runs(a, b, dev)
    share = lambda e: e["forced_exits"] / e["rows"]
    ma, mb, over_a, over_b = [], [], 0, 0
    for s, rs in sets.items():
        accs_a = [100 * x[3]["hard_accuracy"] for x in rs]
        accs_b = [100 * x[4]["hard_accuracy"] for x in rs]
        ma.append(st.mean(accs_a)), mb.append(st.mean(accs_b))
        changed = [(k, round(100 * ea["hard_accuracy"], 2), round(100 * eb["hard_accuracy"], 2), ea["forced_exits"], eb["forced_exits"])
                   for k, _, _, ea, eb in sorted(rs, key=lambda x: x[0]) if ea["hard_accuracy"] != eb["hard_accuracy"] or ea["forced_exits"] != eb["forced_exits"]]
        over_a += sum(share(x[3]) > 0.05 for x in rs)
        over_b += sum(share(x[4]) > 0.05 for x in rs)
        print(f"{s:16s} {len(rs):2d} runs  A {st.mean(accs_a):6.2f}  B {st.mean(accs_b):6.2f}  changed (run, A, B, forced A, forced B): {changed}")
    print(f"mean over the sets: A {st.mean(ma):.2f}, B {st.mean(mb):.2f}; runs with more than 5% forced exits: A {over_a}, B {over_b}")
    if "--threshold" not in sys.argv[1:]:
        return
    diffs, unknown, moved = [], [], []
    for s, rs in sets.items():
        for k, pa, pb, ea, eb in rs:
            la, lb = refine_log(pa), refine_log(pb)
            log = la.get("log") if logs_share(la.get("log") or []) else lb.get("log")
            if not log:
                diffs.append(0.0)
                continue
            p = pick(log)
            if p == la.get("selected_pass", 0):
                v = ea["hard_accuracy"]
            elif p == lb.get("selected_pass", 0):
                v = eb["hard_accuracy"]
            else:
                unknown.append(f"{s} {k}")
                continue
            diffs.append(100 * (v - ea["hard_accuracy"]))
            if v != ea["hard_accuracy"]:
                moved.append(f"{s} {k} {100 * (v - ea['hard_accuracy']):+.2f}")
    se = st.stdev(diffs) / len(diffs) ** 0.5
    print(f"threshold rule minus A: {st.mean(diffs):+.3f} points (SE {se:.3f}, {len(diffs)} runs); moved: {', '.join(moved) or 'none'}; unknown: {', '.join(unknown) or 'none'}")


if __name__ == "__main__":
    main()
