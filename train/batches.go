package train

import (
	"fmt"
	"math/rand/v2"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
)

// tokenStream is a split's token ids with what packing needs: where each trajectory
// starts, and which ids belong to a source context (not trained on by default).
type tokenStream struct {
	ids       []int32
	starts    []int  // index of each trajectory's <|trace_context_start|>
	inContext []bool // the id is part of a context (from the start token to the direction token)
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
// first token (so every window sees a source context first) and running on into the
// next trajectories. Targets inside a context are ignored unless contextLoss is set;
// a window that would train on nothing (a context longer than T) is drawn again.
func (s *tokenStream) sample(rng *rand.Rand, b, t int, contextLoss bool) batch {
	out := batch{inputs: make([]int64, 0, b*t), targets: make([]int64, 0, b*t), b: b, t: t}
	for r := 0; r < b; r++ {
		at := s.starts[rng.IntN(len(s.starts))]
		for try := 0; try < 16 && !contextLoss && s.inContext[(at+t)%len(s.ids)]; try++ {
			at = s.starts[rng.IntN(len(s.starts))]
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
