package trainer

import (
	"math"
	"math/rand/v2"
)

// rng streams, one per purpose, all from the user's seed.
const (
	streamInit = iota + 1
	streamSplit
	streamShuffle
	streamNoise
)

// graphStream is the stream of a per-graph purpose (initialisation, batch
// order, noise) for graph restart: restart 0 is the stream itself, so that
// a single run's model bytes do not depend on the feature.
func graphStream(stream uint64, restart int) uint64 { return stream | uint64(restart)<<8 }

func newRand(seed uint64, stream uint64) (*rand.Rand, *rand.PCG) {
	src := rand.NewPCG(seed, 0x5043475f736f6e67^stream)
	return rand.New(src), src
}

// gumbel fills dst with standard Gumbel noise, -log(E) with E ~ Exp(1).
//
// ExpFloat64 returns exactly 0 once in about 2^32 draws (its ziggurat
// scales a uint32 that can be 0), and -log(0) is +Inf, which makes the
// column softmax NaN. Connect-4 255/10 draws 2^32 values in about 40
// epochs (2 (n+c) n per noisy batch), so a zero is drawn again: the stream is unchanged whenever no
// zero occurs.
func gumbel(dst []float64, rng *rand.Rand) {
	for i := range dst {
		e := rng.ExpFloat64()
		for e == 0 {
			e = rng.ExpFloat64()
		}
		dst[i] = -math.Log(e)
	}
}
