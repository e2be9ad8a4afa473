// Package trainer learns Self-Organizing Neural Graphs (SONG, Struski et al.,
// WACV 2023) as the authors' code defines them: the forward pass, the loss,
// a hand-written backward pass, Adam, Gumbel-softmax with the "dirty tau"
// schedule and the authors' initialisation. docs/model.md describes the
// model; the float64 forward, loss and gradients match the authors'
// reference cases to 1e-10 relative (reference_test.go).
//
// # Files
//
// The engine, which does the numbers:
//
//   - kernel.go: Kernel[T], the dense GEMM the CPU engine is written against
//     (gonum in pure Go, or the AVX2/FMA kernel of internal/sgemm).
//   - params.go: Shape and the flat parameter vector (L0, L1, W, b).
//   - engine.go, forward.go, backward.go: Engine and its CPU implementation:
//     transitions, forward pass, loss, gradients and the Adam step.
//
// The training loop, which decides what the engine runs:
//
//   - config.go: Config (declared in runlog, beside the metadata that
//     records it), the named recipes (PresetConfig) and CheckConfig.
//   - task.go: the data of a run, its validation split and standardisation.
//   - streams.go: the seeded random streams.
//   - run.go: Run, the epoch loop, evaluation, selection of the best epoch.
//   - schedule.go: learning rate, temperature and straight-through epochs.
//   - model.go: the model file of the chosen epoch, with its metadata.
//   - checkpoint.go: saving and resuming a run bit for bit.
//   - select.go: choosing among graphs trained on the same split.
//   - search.go: the auto recipe's search (Search, DefaultSearch):
//     successive halving over graph sizes, rates and decays, each run
//     stopped by its patience; its checkpoints are in checkpoint.go.
//   - memory.go: the memory a shape needs, checked before allocating.
//
// Refining the hard walk after training lives in trainer/refine.
//
// # Layers
//
//   - Kernel[T] is the dense linear algebra (row-major GEMM on sub-blocks of
//     larger buffers). Gonum32 and Gonum64 implement it in pure Go on gonum;
//     a faster CPU kernel implements the same interface and slots into
//     NewCPU without touching anything else.
//   - Engine is what the training loop talks to: it owns parameters, Adam
//     state and workspaces, and runs a whole batch (forward, loss, backward,
//     update) per call. CPU[T] is the engine over a Kernel; a GPU engine
//     would implement Engine and keep everything resident on the device,
//     exchanging only the batch, the Gumbel noise and the loss parts.
//   - Run is the training loop: stratified validation split, shuffling, the
//     noise schedule, per-epoch evaluation, model selection on the
//     validation split only, checkpoints and resumption.
//
// # Recipes
//
// PresetConfig names the recipes: "auto" (each candidate of the default
// search: the fast recipe at a constant rate until the hard walk's
// validation accuracy stalls, then a decay; Config.Patience), "paper"
// (the authors' defaults above), "fast" (standardised inputs, batch 64,
// Adam on a cosine schedule, an annealed end and selection by the hard
// walk; it reaches the paper's accuracies in fewer epochs;
// docs/RESULTS.md) and "quick" (fast in 60 epochs). Options beyond the
// authors' objective, all off in "paper":
// Config.Anneal (temperature annealing toward hard decisions),
// Config.WeightDecay (AdamW's decoupled decay of the node filters),
// Config.StraightThrough (the last epochs train the hard walk itself with
// the straight-through estimator, Engine.SetStraightThrough),
// Config.LRSchedule, Config.Gumbel and Config.Init.
//
// # Several graphs, one kept
//
// The authors train five graphs and report the best on the test set.
// Config.Restart trains graph r of a seed: other initial parameters and
// noise, the same validation split and batch order. Select measures graphs
// of one seed on that split and returns the best, which is the authors'
// protocol with the choice made on validation rows.
//
// # Several graphs, one pass
//
// TrainTogether trains runs that see the same batches (the same task,
// seed, validation share, preprocessing and batch size, at the same epoch;
// any sizes, rates and regularisation) in one pass per batch: the
// rows are gathered once, and the runs' steps, noise draws and
// end-of-epoch validation are spread over the cores, each run's packed
// kernel getting a share of them. Every run ends with the bits it has
// alone. (The auto recipe's search trains its candidates on goroutines of
// their own instead, a candidate an epoch at a time.) Graphs is the same
// at the engine level, one step at a time: the harness songc bench
// times.
//
// # The step
//
// With S = n+c states and a batch of B rows, one step is
//
//	next = [M1 | M0] · [s∘p ; (1-s)∘p]      (S x 2n) · (2n x B)
//
// computed as two GEMMs into p_{t+1} (internal rows) and the accumulated
// leaf mass q (leaf rows); no per-sample (n+c)² matrix is ever formed. The
// inputs of every step are kept side by side in one 2n x (N B) matrix, so
// the gradient of [M1 | M0] over all steps is a single GEMM.
//
// # Determinism
//
// Every random stream (initialisation, split, shuffling, noise) is a PCG
// seeded from Config.Seed with its own stream constant (mixed with
// Config.Restart for the initialisation and the noise); checkpoints save
// the stream states, so a resumed run equals an uninterrupted one bit for
// bit. gonum's GEMMs partition work by output block, so results do not
// depend on goroutine scheduling.
//
// # Errors
//
// Shape mismatches are programmer errors and panic with a "trainer:" prefix;
// everything the data or the flags can cause is returned as an error.
package trainer
