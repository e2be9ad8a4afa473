#!/usr/bin/env python3
"""How often the terms `songc predict --explain` shows for a node that weighs
several columns, read against its threshold, give the side the walk took.

    experiments/explain/agree.py SONGC MODEL TEST.csv[.gz]

For each decision of each row at a node whose test counts smaller terms,
it sums the shown terms over the row's fields (a missing number at its
centre) and compares with the printed threshold; it prints agreements over
decisions. Session 50 (a fast model per set, `songc train --data
$DATA/tabular/SET.train.csv.gz --preset fast`, scored on SET.test.csv.gz):
glass 141/158, hypothyroid 789/859, credit-g 190/289 with the centred
terms; 66/158, 730/859, 184/289 with the uncentred ones of cdabf7d.
"""
import csv, re, sys, subprocess, gzip
songc, model, data = sys.argv[1:4]
out = subprocess.run([songc, "predict", model, "--data", data, "--explain"], capture_output=True, text=True).stdout
rows = list(csv.reader(gzip.open(data, "rt") if data.endswith(".gz") else open(data)))
header, rows = rows[0], rows[1:]
col = {h.strip(): i for i, h in enumerate(header)}
term_re = re.compile(r'(^|\s[+-]\s|^-)([0-9.e+]+)\*(\((.+?) ([+-]) ([0-9.e+-]+)\)|\[(.+?) = "(.*?)"\]|\[(.+?) is missing\]|([^\s]+))')
agree = total = 0
line = None
for l in out.splitlines():
    if l.startswith("line "):
        line = int(l.split()[1].rstrip(":")) - 2
        continue
    m = re.match(r'  node \d+: (.*) (<=|>) ([-0-9.e+]+)(,.*)?$', l)
    if not m or "smaller term" not in m.group(1):
        continue
    lhs, op, th = m.group(1), m.group(2), float(m.group(3))
    lhs = lhs.split(" + ")
    s = 0.0
    ok = True
    body = m.group(1).rsplit(" + ", 1)[0]
    for t in term_re.finditer(body):
        sign = -1 if t.group(1).strip() == "-" else 1
        c = sign * float(t.group(2))
        row = rows[line]
        def val(name):
            f = row[col[name]].strip()
            return None if f in ("", "?", "NA") else float(f)
        if t.group(4):
            v = val(t.group(4)); mm = float(t.group(6)) * (1 if t.group(5) == "-" else -1)
            s += c * ((v if v is not None else mm) - mm)
        elif t.group(7):
            s += c * (1 if row[col[t.group(7)]].strip() == t.group(8) else 0)
        elif t.group(9):
            s += c * (1 if row[col[t.group(9)]].strip() in ("", "?", "NA") else 0)
        else:
            v = val(t.group(10)); s += c * (v or 0)
    total += 1
    agree += ((s > th) == (op == ">"))
print(f"{agree}/{total} = {100*agree/max(1,total):.1f}%")
