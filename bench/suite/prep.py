#!/usr/bin/python3
"""Writes the development suite as numeric CSVs for bench/suite.sh.

usage: prep.py SHARED OUT [SET ...]

For each set: OUT/NAME.train.csv and OUT/NAME.test.csv, a header row,
features then the label (column "class"), and OUT/NAME.json describing
the set (rows, features before and after encoding, classes).

The encoding is the documented one-hot step that songc users must do by
hand until songc reads categorical columns itself:
  - a column is categorical when its training values are not all numbers
    (missing ones aside);
  - a categorical column becomes one 0/1 column per level seen in the
    training rows, sorted; a missing value is a level of its own ("?");
    a level seen only in the test rows sets none of them;
  - a missing numeric value becomes the column's training median.
The same files feed songc and the scikit-learn/XGBoost baselines, so all
see the same splits and the same inputs. The sets are those named, or
all of sets.txt's;
Letter and Connect-4 are numeric already; MNIST stays in its IDX files
(songc reads them directly).
"""
import csv, gzip, json, os, statistics, sys

MISSING = {"", "NA", "N/A", "n/a", "?", "NaN", "nan", "-nan", "NULL", "null", "None", "<NA>", "#N/A"}  # songc's default tokens


def suite(kinds=("tabular", "own", "idx")):
    """The names of the suite's sets (sets.txt, beside this file) of kinds, in its order."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "sets.txt")) as f:
        lines = [l.split() for l in f if l.strip() and not l.startswith("#")]
    return [name for name, kind in lines if kind in kinds]


def read(path, header):
    with gzip.open(path, "rt", newline="") as f:
        rows = list(csv.reader(f))
    if header:
        return rows[0], rows[1:]
    return ["x%d" % (i + 1) for i in range(len(rows[0]) - 1)] + ["class"], rows


def isnum(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


def encode(names, train, test):
    d = len(names) - 1
    cols = []  # (name, function row -> list of values)
    for j in range(d):
        vals = [r[j] for r in train if r[j] not in MISSING]
        if all(isnum(v) for v in vals):
            med = statistics.median(float(v) for v in vals) if vals else 0.0
            cols.append(([names[j]], lambda r, j=j, med=med: [float(r[j]) if r[j] not in MISSING else med]))
        else:
            levels = sorted({("?" if r[j] in MISSING else r[j]) for r in train})
            index = {v: i for i, v in enumerate(levels)}

            def onehot(r, j=j, index=index, k=len(levels)):
                out = [0] * k
                i = index.get("?" if r[j] in MISSING else r[j])
                if i is not None:
                    out[i] = 1
                return out
            cols.append(([names[j] + "=" + v for v in levels], onehot))
    header = [n for c in cols for n in c[0]] + ["class"]

    def rows(data):
        return [[v for c in cols for v in c[1](r)] + [r[d]] for r in data]
    return header, rows(train), rows(test), sum(len(c[0]) > 1 or c[0][0] != names[i] for i, c in enumerate(cols))


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def main():
    shared, out, only = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    os.makedirs(out, exist_ok=True)
    sets = [(n, os.path.join(shared, "tabular", n + ".%s.csv.gz"), True) for n in suite(["tabular"])]
    sets += [(n, os.path.join(shared, n, "%s.csv.gz"), False) for n in suite(["own"])]
    if only:
        unknown = only - {n for n, _, _ in sets}
        if unknown:
            sys.exit("prep.py: not in sets.txt's tabular or own sets: " + " ".join(sorted(unknown)))
        sets = [s for s in sets if s[0] in only]
    for name, pattern, header in sets:
        names, train = read(pattern % "train", header)
        _, test = read(pattern % "test", header)
        h, tr, te, ncat = encode(names, train, test)
        write(os.path.join(out, name + ".train.csv"), h, tr)
        write(os.path.join(out, name + ".test.csv"), h, te)
        info = {"name": name, "train_rows": len(tr), "test_rows": len(te), "columns": len(names) - 1,
                "categorical": ncat, "features": len(h) - 1, "classes": len({r[-1] for r in train})}
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(info, f)
        print(json.dumps(info))


if __name__ == "__main__":
    main()
