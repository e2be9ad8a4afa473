#!/usr/bin/env bash
# The machine's width, measured in one run (docs/performance.md, "The
# machine's width: AVX-512 against AVX2 and OpenBLAS"): OpenBLAS's SGEMM (Debian's, through numpy) on 2 threads
# with its detected core type and told the real one (SkylakeX: AVX-512,
# Haswell: AVX2), songc's packed kernels on the same 1024^3 and 2048^3
# products, and songc bench on the paper's largest Letter graph (511 nodes,
# 50 steps) with each kernel. Results go to bench/runs/peak/ (ignored by
# git) and a table to stdout.
#
#   bench/peak.sh
#
# Needs /usr/bin/python3 with numpy on OpenBLAS (Debian's python3-numpy and
# libopenblas0-pthread, installed when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/runs/peak
mkdir -p "$out"
PY=/usr/bin/python3
if ! $PY -c 'import numpy' 2>/dev/null || ! ls /usr/lib/x86_64-linux-gnu/libopenblas*.so* >/dev/null 2>&1; then
  apt-get install -y python3-numpy libopenblas0-pthread
fi
go build -o "$out/songc" ./cmd/songc
s=$out/songc
OPENBLAS_NUM_THREADS=2 $PY bench/peak/openblas.py 1024 7 >"$out/openblas-detected.json"
for core in Haswell SkylakeX; do
  OPENBLAS_NUM_THREADS=2 OPENBLAS_CORETYPE=$core $PY bench/peak/openblas.py 1024 7 >"$out/openblas-$core.json"
done
for k in avx512 avx2; do
  if GOMAXPROCS=2 $s bench --nodes 511 --steps 50 --batch 128 --features 16 --classes 26 --batches 5 --peak --kernel "$k" --json >"$out/songc-511-50-$k.json" 2>"$out/songc-511-50-$k.err"; then :; else
    echo "songc --kernel $k does not run here: $(cat "$out/songc-511-50-$k.err")" >&2
    rm -f "$out/songc-511-50-$k.json"
  fi
done
(cd trainer/internal/sgemm && go test -run XXX -bench 'Gemm1024Square2Threads' -benchtime 7x -count 1 .) >"$out/sgemm-1024.txt"
$PY - "$out" <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
print("| what | kernel | GFLOP/s |")
print("|---|---|--:|")
for name in ["detected", "Haswell", "SkylakeX"]:
    r = json.load(open(os.path.join(out, f"openblas-{name}.json")))
    print(f"| OpenBLAS SGEMM 1024^3, 2 threads | core type {r['coretype']} | {r['gflops']:.1f} |")
for line in open(os.path.join(out, "sgemm-1024.txt")):
    m = re.match(r"BenchmarkGemm1024Square2Threads/(\w+)-\d+\s+\d+\s+\d+ ns/op\s+([\d.]+) GFLOP/s", line)
    if m:
        print(f"| songc SGEMM 1024^3, 2 threads | {m.group(1)} | {float(m.group(2)):.1f} |")
theory = None
for k in ["avx512", "avx2"]:
    p = os.path.join(out, f"songc-511-50-{k}.json")
    if not os.path.exists(p):
        continue
    r = json.load(open(p))
    print(f"| songc SGEMM 2048^3, 2 threads (bench --peak) | {k} | {r['peak_gflops']:.1f} |")
    print(f"| songc training 511/50, batch 128 (bench) | {k} | {r['gflops']:.1f} |")
    theory = theory or r
if theory and theory.get("theoretical_gflops"):
    print(f"| theoretical peak ({theory['theoretical']}) | | {theory['theoretical_gflops']:.1f} |")
PY
echo "date $(date -u +%F), commit $(git rev-parse --short HEAD), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
