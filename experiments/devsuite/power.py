#!/usr/bin/python3
"""Writes a copy of a folder of numeric CSV pairs with Yeo-Johnson's power
transform applied to each numeric column of more than two values.

usage: power.py SRC DST FIT TEST [--skewed]

For every SRC/NAME.FIT.csv (and its SRC/NAME.TEST.csv) it writes DST/NAME.FIT.csv
and DST/NAME.TEST.csv. A column is first standardised by the mean and
standard deviation of its FIT rows (so that the transform does not depend on
the column's unit), then mapped by Yeo-Johnson with the lambda that
maximises the normal likelihood of the FIT rows (scipy.stats.yeojohnson).
With --skewed only the columns whose FIT rows' skewness exceeds 1 in size
are transformed. Columns of two values (one-hot) and the label are copied.
"""
import csv, os, sys

import numpy as np
from scipy import stats

src, dst, fit_suffix, test_suffix = sys.argv[1:5]
skewed = "--skewed" in sys.argv[5:]
os.makedirs(dst, exist_ok=True)
for fn in sorted(os.listdir(src)):
    if not fn.endswith("." + fit_suffix + ".csv"):
        continue
    name = fn[: -len(fit_suffix) - 5]
    with open(os.path.join(src, fn), newline="") as f:
        fit = list(csv.reader(f))
    with open(os.path.join(src, name + "." + test_suffix + ".csv"), newline="") as f:
        test = list(csv.reader(f))
    head, rows_fit, rows_test = fit[0], fit[1:], test[1:]
    params = {}  # column: (mean, sd, lambda)
    for j in range(len(head) - 1):
        v = np.array([float(r[j]) for r in rows_fit])
        if len(set(v.tolist())) <= 2 or v.std() == 0:
            continue
        if skewed and abs(stats.skew(v)) <= 1:
            continue
        mu, sd = v.mean(), v.std()
        _, lam = stats.yeojohnson((v - mu) / sd)
        params[j] = (mu, sd, lam)

    def transform(rows):
        out = []
        for r in rows:
            r = list(r)
            for j, (mu, sd, lam) in params.items():
                r[j] = repr(float(stats.yeojohnson(np.array([(float(r[j]) - mu) / sd]), lmbda=lam)[0]))
            out.append(r)
        return out

    for suffix, rows in ((fit_suffix, rows_fit), (test_suffix, rows_test)):
        with open(os.path.join(dst, name + "." + suffix + ".csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(transform(rows))
    print(name, len(params), "columns transformed")
