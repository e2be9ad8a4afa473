#!/usr/bin/env python3
"""Paired comparison of two variants' runs on the dev rows or held-out sets.

    compare.py dev A B        # A-dataC-sS/SET.eval.json against B's, carvings and seeds 1 to 3
    compare.py sets A B       # every NAME.eval.json of folder A against folder B's

For example, the default's runs against a variant's, run.sh's OUT named
/tmp/dev/x-head-dataC-sS and /tmp/dev/x-v-dataC-sS:

    compare.py dev /tmp/dev/x-head /tmp/dev/x-v

Prints the number of pairs, the means (dev), the mean paired difference of
B minus A in points of hard-walk accuracy, its sd (the population standard
deviation of the differences, as this folder's README quotes it) and its
standard error (the sample standard deviation over the square root of the
pairs), then per set the mean difference and how many pairs went up and
down. Pairs missing either side are skipped.
"""
import glob, json, os, statistics as st, sys

SETS = "haberman seeds glass sonar ecoli ionosphere vote soybean credit-g winequality-red abalone hypothyroid".split()


def load(path):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    return 100 * json.load(open(path))["hard_accuracy"]


def report(pairs):
    """pairs: (set, a, b) in points."""
    if not pairs:
        print("no pairs")
        return
    d = [b - a for _, a, b in pairs]
    se = st.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0
    print(f"pairs {len(d)}: mean A {st.mean(a for _, a, _ in pairs):.2f}, B {st.mean(b for _, _, b in pairs):.2f}; "
          f"difference {st.mean(d):+.2f} (sd {st.pstdev(d):.2f}, SE {se:.2f})")
    per = {}
    for name, a, b in pairs:
        per.setdefault(name, []).append(b - a)
    for name, v in per.items():
        print(f"  {name:22s} {st.mean(v):+6.2f}  up {sum(x > 0 for x in v)}, down {sum(x < 0 for x in v)} of {len(v)}")


def main(argv):
    if len(argv) == 4 and argv[1] == "dev":
        a, b = argv[2:]
        pairs = []
        for c in (1, 2, 3):
            for s in (1, 2, 3):
                for name in SETS:
                    x = load(f"{a}-data{c}-s{s}/{name}.eval.json")
                    y = load(f"{b}-data{c}-s{s}/{name}.eval.json")
                    if x is not None and y is not None:
                        pairs.append((name, x, y))
        report(pairs)
    elif len(argv) == 4 and argv[1] == "sets":
        pairs = []
        for pa in sorted(glob.glob(os.path.join(argv[2], "*.eval.json"))):
            x, y = load(pa), load(os.path.join(argv[3], os.path.basename(pa)))
            if x is not None and y is not None:
                pairs.append((os.path.basename(pa)[:-len(".eval.json")].rsplit("-s", 1)[0], x, y))
        report(pairs)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
