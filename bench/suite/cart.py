#!/usr/bin/python3
"""The validation-tuned CART tree over several seeds, for bench/seeds.sh.

usage: cart.py DATA OUT "SEED..." NAME...

DATA holds prep.py's NAME.train.csv and NAME.test.csv. For each set and
seed, the tree of baselines.py's fit_cart, its validation split drawn with
that seed, is scored on the test rows; OUT/NAME-cart-sSEED.eval.json gets
its test accuracy as hard_accuracy (the field songc eval --json names it),
and max_leaf_nodes. Files already there are kept.
"""
import json, os, sys

from sklearn.metrics import accuracy_score

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
from baselines import fit_cart, load_set  # noqa: E402


def main():
    data, out, seeds, names = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
    for name in names:
        todo = [k for k in seeds if not os.path.exists(os.path.join(out, "%s-cart-s%s.eval.json" % (name, k)))]
        if not todo:
            continue
        xtr, ytr_i, xte, yte_i, _ = load_set(data, name)
        for k in todo:
            cart, leaves, _ = fit_cart(xtr, ytr_i, int(k))
            path = os.path.join(out, "%s-cart-s%s.eval.json" % (name, k))
            with open(path + ".tmp", "w") as f:
                json.dump({"hard_accuracy": float(accuracy_score(yte_i, cart.predict(xte))), "max_leaf_nodes": leaves}, f)
            os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
