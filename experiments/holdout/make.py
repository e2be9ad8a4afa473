#!/usr/bin/python3
"""Writes the held-out sets: data sets no songc recipe was ever chosen on.

usage: make.py MLBENCH OUT

The sets: those scikit-learn ships (iris, wine, breast_cancer, digits) and
mlbench.R's CSV files in MLBENCH. Each is split 75/25, stratified, seed 1,
and written twice:
  - OUT/raw/NAME.{train,test}.csv: the columns as they are (categories as
    text, missing values empty), which songc reads;
  - OUT/num/NAME.{train,test}.csv: bench/suite/prep.py's one-hot encoding,
    which bench/suite/baselines.py reads.
"""
import csv, os, sys

from sklearn import datasets
from sklearn.model_selection import train_test_split

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "suite"))
import prep  # noqa: E402


def sklearn_set(name):
    d = getattr(datasets, "load_" + name)()
    names = [n.replace(" ", "_") for n in getattr(d, "feature_names", [])]
    if len(names) != d.data.shape[1]:
        names = ["f%d" % i for i in range(d.data.shape[1])]
    rows = [[repr(float(v)) for v in x] + [str(d.target_names[t]) if name != "digits" else str(t)] for x, t in zip(d.data, d.target)]
    return names + ["class"], rows


def csv_set(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def main():
    mlbench, out = sys.argv[1], sys.argv[2]
    sets = [(n, sklearn_set(n)) for n in ["iris", "wine", "breast_cancer", "digits"]]
    sets += [(f[:-4], csv_set(os.path.join(mlbench, f))) for f in sorted(os.listdir(mlbench)) if f.endswith(".csv")]
    for sub in ["raw", "num"]:
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    for name, (header, rows) in sets:
        train, test = train_test_split(rows, test_size=0.25, stratify=[r[-1] for r in rows], random_state=1)
        prep.write(os.path.join(out, "raw", name + ".train.csv"), header, train)
        prep.write(os.path.join(out, "raw", name + ".test.csv"), header, test)
        h, tr, te, ncat = prep.encode(header, train, test)
        prep.write(os.path.join(out, "num", name + ".train.csv"), h, tr)
        prep.write(os.path.join(out, "num", name + ".test.csv"), h, te)
        print(name, len(train), "train rows,", len(test), "test rows,", len(header) - 1, "columns,", len(h) - 1,
              "features,", len({r[-1] for r in rows}), "classes")


if __name__ == "__main__":
    main()
