# Sourced by the experiment scripts: the data and graph of each of issue 6's
# experiments, and what the scripts that work on finished runs share.
#
#   experiment NAME   # sets data, test and flags, or exits 2
#   run_folder RUN    # sets run (the folder's name) and out (experiments/runs/RUN)
#   run_experiment    # experiment of $run: letter-64-20-fastlr10-s1 -> letter-64-20
#   build_songc       # builds songc into a temporary folder, sets bin
#   fast_run NAME TAG SEED [flags]
#                     # experiments/paper.sh NAME --preset fast --refine 0 [flags]
#                     # with TAG and SEED, unless the run has finished

experiment() {
  local shared=${SHARED:-../shared/data}
  case $1 in
  letter-64-20) data=$shared/letter/train.csv.gz test=$shared/letter/test.csv.gz flags="--nodes 64 --steps 20" ;;
  letter-128-30) data=$shared/letter/train.csv.gz test=$shared/letter/test.csv.gz flags="--nodes 128 --steps 30" ;;
  letter-511-50) data=$shared/letter/train.csv.gz test=$shared/letter/test.csv.gz flags="--nodes 511 --steps 50" ;;
  connect4-8-10) data=$shared/connect4/train.csv.gz test=$shared/connect4/test.csv.gz flags="--nodes 8 --steps 10" ;;
  connect4-255-10) data=$shared/connect4/train.csv.gz test=$shared/connect4/test.csv.gz flags="--nodes 255 --steps 10" ;;
  mnist-64-20) data=$shared/mnist/train-images-idx3-ubyte.gz test=$shared/mnist/t10k-images-idx3-ubyte.gz flags="--nodes 64 --steps 20" ;;
  mnist-255-50) data=$shared/mnist/train-images-idx3-ubyte.gz test=$shared/mnist/t10k-images-idx3-ubyte.gz flags="--nodes 255 --steps 50" ;;
  mnistcnn-16-8) data=$shared/mnist-cnn50/train.csv.gz test=$shared/mnist-cnn50/test.csv.gz flags="--nodes 16 --steps 8" ;;
  *) echo "unknown experiment $1" >&2; exit 2 ;;
  esac
}

run_folder() {
  run=${1%/}
  run=${run##*/}
  out=experiments/runs/$run
}

run_experiment() {
  experiment "$(echo "$run" | cut -d- -f1-3)"
}

build_songc() {
  bin=$(mktemp -d)/songc
  go build -o "$bin" ./cmd/songc
}

fast_run() {
  local name=$1 tag=$2 seed=$3
  shift 3
  if [ -f "experiments/runs/$name-$tag-s$seed/eval.json" ]; then
    echo "skip $name-$tag-s$seed (done)"
    return
  fi
  # --refine 0: the model as trained; experiments/refine.sh refines it into
  # refined.json, which is what --preset fast alone writes (cmd/songc's
  # TestRefine), so that the tables can show both.
  mkdir -p experiments/runs
  TAG=$tag SEED=$seed experiments/paper.sh "$name" --preset fast --refine 0 "$@" >"experiments/runs-$name-$tag-s$seed.out" 2>&1
  # The summary line; a missing output file (deleted by hand) is no reason
  # to stop the lane.
  tail -n 2 "experiments/runs-$name-$tag-s$seed.out" 2>/dev/null | head -n 1 || true
}
