#!/usr/bin/env python3
# Simulates the rule "keep the walk or tree only where it beats the logistic
# regression by a one-sided sign test at ALPHA on the validation rows" from
# the JSON lines TestZZSim writes (FILES, space-separated), each run's eval
# file found by PATTERN ({s} set, {seed}, {c} carving): lrsim.py PATTERN ALPHA...
import json, math, sys, os, re, statistics as st
from collections import defaultdict
def lf(x): return math.lgamma(x+1)
def sign(a,b):
    n=a+b
    return min(1,sum(math.exp(lf(n)-lf(i)-lf(n-i)-n*math.log(2)) for i in range(a,n+1))) if n else 1.0
pat=sys.argv[1]; alphas=[float(a) for a in sys.argv[2:]]
runs=[]
for f in os.environ["FILES"].split():
    m=re.search(r"-(\d)-(\d)\.jsonl$",f); c=m.group(1) if m else ""
    for l in open(f):
        r=json.loads(l); r["c"]=c; runs.append(r)
acc=lambda p,y: 100*sum(a==b for a,b in zip(p,y))/len(y)
for a in alphas:
    diffs=defaultdict(list); n=up=down=0; kinds=defaultdict(int)
    for r in runs:
        o=r["o"]; ref=r["training"]["refine"]; s=r["set"]
        ev=json.load(open(pat.format(s=s,seed=r["seed"],c=r["c"])))["hard_accuracy"]*100
        kind="walk"
        if (ref.get("tree_check") or {}).get("kept"): kind="tree"
        if (ref.get("logistic_check") or {}).get("kept"): kind="lr"
        mc=ref.get("majority_check") or {}
        if mc.get("constant"): kind="const"
        if (mc.get("regression") or {}).get("kept"): kind="lrfb"
        if kind in("walk","tree") and abs(acc(o["RivalTest"],o["TestY"])-ev)>1e-6: print("MISMATCH",s,r["seed"],r["c"])
        v=ev
        if kind in ("walk","tree"):
            y=o["ValY"]; A=sum(p==t!=q for p,q,t in zip(o["RivalVal"],o["LRVal"],y)); B=sum(q==t!=p for p,q,t in zip(o["RivalVal"],o["LRVal"],y))
            if not sign(A,B)<a:
                v=acc(o["LRTest"],o["TestY"]); n+=1; kinds[s]+=1
                up+=v>ev; down+=v<ev
        diffs[s].append(v-ev)
    alld=[d for s in diffs for d in diffs[s]]
    print(f"alpha {a}: LR on {n} of {len(alld)} runs (up {up}, down {down}); mean diff {st.mean(alld):+.2f} (SE {st.stdev(alld)/len(alld)**.5:.2f})")
    print("   "+", ".join(f"{s} {st.mean(d):+.2f} ({kinds[s]})" for s,d in diffs.items()))
