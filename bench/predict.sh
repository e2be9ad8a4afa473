#!/usr/bin/env bash
# Cost of one prediction (docs/RESULTS.md, "Prediction cost"): Go
# benchmarks of the soft model and of the hard walk in songc's runtime, and
# of the classifier songc compile generates for the model (--emit-tests
# writes its benchmark), on the rows of DATA.
#
#   bench/predict.sh MODEL DATA
set -euo pipefail
cd "$(dirname "$0")/.."
model=$(realpath "${1:?usage: bench/predict.sh MODEL DATA}")
data=$(realpath "${2:?usage: bench/predict.sh MODEL DATA}")
echo "== runtime (soft model, hard walk)"
SONGC_BENCH_MODEL=$model SONGC_BENCH_DATA=$data go test -run XXX -bench Model -benchtime 2s ./runtime | grep -E '^Benchmark|^cpu'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/gen"
printf 'module example.com/bench\n\ngo 1.22\n' >"$tmp/go.mod"
go run ./cmd/songc compile "$model" -o "$tmp/gen/gen.go" --package gen --data "$data" --emit-tests
echo "== generated classifier"
(cd "$tmp" && go test -bench Predict -benchtime 2s ./gen | grep -E '^Benchmark|^ok')
