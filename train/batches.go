package train

import (
	"fmt"
	"math/rand/v2"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/train/corpus"
)

// tokenStream is a split's token ids with what packing needs: where each trajectory
// starts, and which ids belong to a source context (not trained on by default).
type tokenStream struct {
	ids       []int32
	starts    []int  // index of each trajectory's <|trace_context_start|>
	inContext []bool // the id is part of a context (from the start token to the direction token)
	// byLevel holds the starts of the function-level and the repository-level
	// trajectories, when the corpus says which is which (setLevels).
	byLevel [2][]int
	leveled bool
}

// setLevels records each trajectory's level (corpus.ReadLevels, one per start).
func (s *tokenStream) setLevels(levels []byte) error {
	if len(levels) != len(s.starts) {
		return fmt.Errorf("%d levels for %d trajectories", len(levels), len(s.starts))
	}
	for i, l := range levels {
		k := 0
		if l == corpus.LevelRepository {
			k = 1
		}
		s.byLevel[k] = append(s.byLevel[k], s.starts[i])
	}
	s.leveled = true
	return nil
}

// pickStart draws a trajectory start: uniformly over all trajectories when
// functionShare is 0 (or the levels are unknown), else a function-level one with
// probability functionShare and a repository-level one otherwise (the other level
// when one is empty).
func (s *tokenStream) pickStart(rng *rand.Rand, functionShare float64) int {
	if functionShare <= 0 || !s.leveled {
		return s.starts[rng.IntN(len(s.starts))]
	}
	k := 1
	if rng.Float64() < functionShare {
		k = 0
	}
	if len(s.byLevel[k]) == 0 {
		k = 1 - k
	}
	return s.byLevel[k][rng.IntN(len(s.byLevel[k]))]
}

// newTokenStream indexes ids read from a token shard.
func newTokenStream(ids []int32, tok *tokenizer.Tokenizer) (*tokenStream, error) {
	start, ok1 := tok.TokenID(grammar.TokenTraceContextStart)
	fwd, ok2 := tok.TokenID(grammar.TokenForward)
	inv, ok3 := tok.TokenID(grammar.TokenInverse)
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("the tokenizer lacks the grammar's special tokens")
	}
	s := &tokenStream{ids: ids, inContext: make([]bool, len(ids))}
	ctx := false
	for i, id := range ids {
		if int(id) == start {
			s.starts = append(s.starts, i)
			ctx = true
		}
		s.inContext[i] = ctx
		if int(id) == fwd || int(id) == inv {
			ctx = false
		}
	}
	if len(s.starts) == 0 {
		return nil, fmt.Errorf("no trajectory in the token stream")
	}
	return s, nil
}

// batch is one training batch: inputs and targets [B, T] flattened row by row.
type batch struct {
	inputs, targets []int64
	b, t            int
	trained         int // targets that count in the loss
}

// sample draws a batch of packed windows of T+1 ids, each starting at a trajectory's
// first token (drawn by pickStart) (so every window sees a source context first) and running on into the
// next trajectories. Targets inside a context are ignored unless contextLoss is set;
// a window that would train on nothing (a context longer than T) is drawn again.
func (s *tokenStream) sample(rng *rand.Rand, b, t int, contextLoss bool, functionShare float64) batch {
	out := batch{inputs: make([]int64, 0, b*t), targets: make([]int64, 0, b*t), b: b, t: t}
	for r := 0; r < b; r++ {
		at := s.pickStart(rng, functionShare)
		for try := 0; try < 16 && !contextLoss && s.inContext[(at+t)%len(s.ids)]; try++ {
			at = s.pickStart(rng, functionShare)
		}
		for k := 0; k < t; k++ {
			i := (at + k) % len(s.ids)
			j := (i + 1) % len(s.ids)
			out.inputs = append(out.inputs, int64(s.ids[i]))
			if !contextLoss && s.inContext[j] {
				out.targets = append(out.targets, infer.IgnoreIndex)
				continue
			}
			out.targets = append(out.targets, int64(s.ids[j]))
			out.trained++
		}
	}
	return out
}
