package infer

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestScoreAfterReplaysTheDecoder scores the model's own greedy answers: where the
// answer's tokens are the ones ScoreAfter writes, every token's log-probability and
// the confidences must come out as the decoder computed them one token at a time.
func TestScoreAfterReplaysTheDecoder(t *testing.T) {
	m, tok := loadTiny(t)
	g := NewGenerator(m, NewVocab(tok))
	g.Limits = Limits{MaxTokens: 96, MaxRepr: 40}
	prompts := goldenPrompts(t)
	same, compared := 0, 0
	for i := 0; i < len(prompts); i += 5 {
		p := prompts[i]
		prev := p.prev
		ids := tok.Encode(p.text)
		gen, err := g.Generate(context.Background(), ids, p.ctx, p.dir, &prev, NewSampler(0, 0, 1))
		if err != nil {
			t.Fatalf("prompt %d: %v", i, err)
		}
		if gen.Forced {
			continue
		}
		compared++
		sc, err := g.ScoreAfter(context.Background(), ids, p.ctx, p.dir, &prev, 0, gen.Text)
		if err != nil {
			t.Fatalf("prompt %d: scoring the model's own answer %q: %v", i, gen.Text, err)
		}
		if !sc.State.Equal(gen.State) || sc.Exit != gen.Exit {
			t.Fatalf("prompt %d: scored %+v, generated %+v", i, sc.State, gen.State)
		}
		if !slices.Equal(sc.Tokens, gen.Tokens) {
			continue // the model spelled it in other tokens than the canonical ones
		}
		same++
		if len(sc.Scores) != len(gen.Scores) {
			t.Fatalf("prompt %d: %d scored tokens, the decoder chose %d", i, len(sc.Scores), len(gen.Scores))
		}
		for j := range sc.Scores {
			a, b := sc.Scores[j], gen.Scores[j]
			if a.Kind != b.Kind || a.Entry != b.Entry || math.Abs(a.LogP-b.LogP) > 1e-4 {
				t.Fatalf("prompt %d token %d: scored %+v, decoded %+v", i, j, a, b)
			}
		}
		if math.Abs(sc.Confidence.State-gen.Confidence.State) > 1e-4 {
			t.Fatalf("prompt %d: confidence %v, decoded %v", i, sc.Confidence.State, gen.Confidence.State)
		}
	}
	t.Logf("%d of %d answers in canonical tokens, compared token by token", same, compared)
	if same < compared/4 || same == 0 {
		t.Fatalf("only %d of %d answers compared: the test checks too little", same, compared)
	}
}

// TestScoreAfterTheRecordedStates scores the states the golden trajectories recorded
// (what the grammar must allow) and rejects texts the grammar does not allow.
func TestScoreAfterTheRecordedStates(t *testing.T) {
	m, tok := loadTiny(t)
	g := NewGenerator(m, NewVocab(tok))
	g.Limits = Limits{MaxTokens: 400, MaxRepr: 1000}
	scored := 0
	for i, p := range goldenAnswers(t) {
		if i%3 != 0 {
			continue
		}
		prev := p.prev
		ids := tok.Encode(p.text)
		sc, err := g.ScoreAfter(context.Background(), ids, p.ctx, p.dir, &prev, 0, p.answer)
		if err != nil {
			t.Fatalf("answer %d %q: %v", i, p.answer, err)
		}
		if sc.Text != p.answer || logProbOf(sc) > 0 {
			t.Fatalf("answer %d: text %q, log-probability %v", i, sc.Text, logProbOf(sc))
		}
		scored++
		for _, bad := range []string{p.answer[:len(p.answer)-1], p.answer + grammar.TokenFrameSep, "garbage" + p.answer} {
			if _, err := g.ScoreAfter(context.Background(), ids, p.ctx, p.dir, &prev, 0, bad); !errors.Is(err, ErrTextNotAllowed) {
				t.Fatalf("answer %d: %q scored: %v", i, bad, err)
			}
		}
	}
	if scored < 50 {
		t.Fatalf("only %d answers scored", scored)
	}
}

func logProbOf(g Generated) float64 {
	var s float64
	for _, sc := range g.Scores {
		s += sc.LogP
	}
	return s
}
