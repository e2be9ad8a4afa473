// Package runlog holds what a training run records: the recipe that
// determines it (Config), the "training" metadata a model file carries
// (Metadata, with the refine report when the hard walk was refined), and
// the per-epoch log written beside the model (EpochRecord, as JSON lines).
//
// It imports only the standard library, so that every reader of models
// and logs (analysis, the CLI, the bench tools) shares one definition of
// each field without importing the trainer, its BLAS or its kernels.
//
// # Compatibility
//
// The JSON names are the model format's (docs/model-format.md). Fields are
// only ever added; readers ignore fields they do not know, so a model
// written by an older songc still reads.
package runlog
