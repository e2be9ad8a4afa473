// Command fork saves a copy of a songc training checkpoint with another
// --straight-through-lr, so that a run forked where its straight-through
// epochs begin resumes as a run with that rate from the start would
// (trainer's TestForkAtStraightThrough). experiments/stlrfork.sh uses it.
//
//	go run ./fork -in RUN.ckpt -epoch 288 -straight-through-lr 0.003 -out FORK.ckpt
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/songc/songc/trainer"
)

func main() {
	in := flag.String("in", "", "checkpoint to fork")
	out := flag.String("out", "", "where to write the fork")
	epoch := flag.Int("epoch", -1, "the epochs the checkpoint must hold: where the straight-through epochs begin")
	lr := flag.Float64("straight-through-lr", 0, "the fork's --straight-through-lr")
	flag.Parse()
	if err := fork(*in, *out, *epoch, *lr); err != nil {
		fmt.Fprintln(os.Stderr, "fork:", err)
		os.Exit(1)
	}
}

func fork(in, out string, epoch int, lr float64) error {
	if in == "" || out == "" || epoch < 0 {
		return fmt.Errorf("-in, -out and -epoch are required")
	}
	c, err := trainer.LoadCheckpoint(in)
	if err != nil {
		return err
	}
	if got := c.EpochsDone(); got != epoch {
		return fmt.Errorf("%s holds %d epochs, want %d", in, got, epoch)
	}
	if c.Config.StraightThrough == 0 {
		return fmt.Errorf("%s: the run has no straight-through epochs", in)
	}
	if start := c.Config.Epochs - c.Config.StraightEpochs(); start != epoch {
		return fmt.Errorf("%s: the straight-through epochs begin after epoch %d, not %d", in, start, epoch)
	}
	c.Config.StraightLR = lr
	return c.Save(out)
}
