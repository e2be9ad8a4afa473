"""Times OpenBLAS's SGEMM through numpy: prints one JSON line with the
median GFLOP/s of a float32 n x n x n product on the threads and core type
given by OPENBLAS_NUM_THREADS and OPENBLAS_CORETYPE (set by bench/peak.sh).

    openblas.py N REPEATS
"""
import json
import os
import sys
import time

import numpy as np

n, reps = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(1)
a = rng.standard_normal((n, n), dtype=np.float32)
b = rng.standard_normal((n, n), dtype=np.float32)
c = np.empty((n, n), dtype=np.float32)
np.matmul(a, b, out=c)  # warm-up
times = []
for _ in range(reps):
    t0 = time.perf_counter()
    np.matmul(a, b, out=c)
    times.append(time.perf_counter() - t0)
times.sort()
print(json.dumps({
    "n": n,
    "threads": os.environ.get("OPENBLAS_NUM_THREADS", ""),
    "coretype": os.environ.get("OPENBLAS_CORETYPE", "(detected)"),
    "gflops": 2 * n**3 / times[len(times) // 2] / 1e9,
}))
