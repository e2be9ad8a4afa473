#!/usr/bin/env bash
# Training speed on this machine: songc bench for the paper's graph shapes
# with the default kernel and, for comparison, gonum's, and the peak of the
# same GEMM kernel measured in the same run (--peak), for docs/performance.md
# ("The paper's graph shapes, one training step"); and one-epoch training
# runs of the paper's large models, for docs/RESULTS.md ("Training speed"). Results go to bench/runs/speed/ (ignored by git): one JSON
# file per songc bench; per training run, its wall time (.time) and its
# log, whose "seconds" is the epoch's own time.
#
#   bench/speed.sh          # DATA: the data sets' folder (default ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${DATA:-../shared/data}
out=bench/runs/speed
mkdir -p "$out"
go build -o "$out/songc" ./cmd/songc
s="$out/songc"
$s bench --nodes 511 --steps 50 --batch 128 --features 16 --classes 26 --batches 5 --peak --json >"$out/letter-511-50.json"
$s bench --nodes 64 --steps 20 --batch 128 --features 16 --classes 26 --batches 30 --json >"$out/letter-64-20.json"
$s bench --nodes 255 --steps 50 --batch 128 --features 784 --classes 10 --batches 5 --json >"$out/mnist-255-50.json"
$s bench --nodes 16 --steps 8 --batch 128 --features 64 --classes 10 --batches 50 --json >"$out/small-16-8.json"
$s bench --nodes 255 --steps 10 --batch 128 --features 126 --classes 3 --batches 10 --json >"$out/connect4-255-10.json"
$s bench --nodes 64 --steps 20 --batch 128 --features 16 --classes 26 --batches 10 --kernel gonum --json >"$out/letter-64-20-gonum.json"
$s bench --nodes 511 --steps 50 --batch 128 --features 16 --classes 26 --batches 2 --kernel gonum --json >"$out/letter-511-50-gonum.json"
epoch() { # name, then songc train flags
  local name=$1
  shift
  /usr/bin/time -f "%e" -o "$out/$name-epoch.time" $s train --preset paper --epochs 1 -q -o "$out/$name-epoch.json" "$@" >/dev/null
}
epoch letter-511-50 --data "$shared/letter/train.csv.gz" --nodes 511 --steps 50
epoch connect4-255-10 --data "$shared/connect4/train.csv.gz" --nodes 255 --steps 10
epoch mnist-255-50 --data "$shared/mnist/train-images-idx3-ubyte.gz" --nodes 255 --steps 50
for f in "$out"/*-epoch.time; do
  log=${f%.time}.log.jsonl
  echo "$(basename "$f" .time): epoch $(grep -o '"seconds":[0-9.]*' "$log" | head -1 | cut -d: -f2) s, whole run $(cat "$f") s"
done
echo "date $(date -u +%F), commit $(git rev-parse --short HEAD), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
