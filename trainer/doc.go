// Package trainer learns Self-Organizing Neural Graphs (SONG, Struski et al.,
// WACV 2023) exactly as the authors' code defines them: the forward pass,
// the loss, a hand-written backward pass, Adam, Gumbel-softmax with the
// "dirty tau" schedule and the authors' initialisation. The specification is
// ../shared/docs/song-spec.md (sections 1-3); the float64 forward, loss and
// gradients match the authors' reference cases to 1e-10 relative.
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
// PresetConfig names the recipes: "paper" (the authors' defaults above),
// "fast" (standardised inputs, batch 64, Adam on a cosine schedule, an
// annealed end and selection by the hard walk; it reaches the paper's
// accuracies in fewer epochs, docs/RESULTS.md) and "quick" (fast in 60
// epochs). Options beyond the authors' objective, all off in "paper":
// Config.Anneal (temperature annealing toward hard decisions),
// Config.Sharpen (a penalty on soft decisions, LossParts.Sharp),
// Config.WeightDecay (AdamW's decoupled decay of the node filters),
// Config.StraightThrough (the last epochs train the hard walk itself with
// the straight-through estimator, Engine.SetStraightThrough),
// Config.LRSchedule, Config.Gumbel and Config.Init.
//
// # Refining the hard walk
//
// Refine is a hard-routing fine-tune of a trained model, songc's addition:
// it optimises the classifier that compiles (the hard walk) directly, by
// alternating optimisation over its nodes in the manner of TAO
// (Carreira-Perpiñán and Tavallali, NeurIPS 2018), with child, exit and
// growth moves for SONG's graph. Every move raises the walk's accuracy on
// the training rows; the pass kept is the one with the best validation
// accuracy. See Refine for the algorithm.
//
// # Several graphs, one kept
//
// The authors train five graphs and report the best on the test set.
// Config.Restart trains graph r of a seed: other initial parameters, batch
// order and noise, the same validation split. Select measures graphs of
// one seed on that split and returns the best, which is the authors'
// protocol with the choice made on validation rows.
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
// Config.Restart for all but the split); checkpoints save
// the stream states, so a resumed run equals an uninterrupted one bit for
// bit. gonum's GEMMs partition work by output block, so results do not
// depend on goroutine scheduling.
//
// # Errors
//
// Shape mismatches are programmer errors and panic with a "trainer:" prefix;
// everything the data or the flags can cause is returned as an error.
package trainer
