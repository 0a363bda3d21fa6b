package infer

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
)

// BenchmarkTokenConfidence is what the confidence adds to one chosen token of the
// bundled model's vocabulary (4,096 tokens): the grammar's mask when the greedy pick
// did not build it, and the constrained softmax of the chosen token; inside a value
// string (most of the vocabulary allowed) and in SRC (a few tokens). Compare with the
// step latency of docs/results.md (tens of milliseconds per predicted state).
func BenchmarkTokenConfidence(b *testing.B) {
	tok, err := tokenizer.LoadFile(filepath.Join("..", "models", "default", TokenizerFile))
	if err != nil {
		b.Skip("no bundled tokenizer:", err)
	}
	v := NewVocab(tok)
	rng := rand.New(rand.NewPCG(1, 2))
	logits := make([]float32, tok.VocabSize())
	for i := range logits {
		logits[i] = float32(rng.NormFloat64() * 3)
	}
	ctx := grammar.NewContext("", "def f(x):\n    y = x + 1\n    return y\n")
	prev := grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{{Name: "x", Repr: "1"}}}
	for _, c := range []struct{ name, text string }{
		{"value", grammar.TokenLineSep + `{"x": "12`},
		{"src", grammar.TokenLineSep + `{"x": "1"}` + grammar.TokenSrcSep + "  2|"},
	} {
		b.Run(c.name, func(b *testing.B) {
			a := newAutomaton(srcTrie(ctx), exitTrie, grammar.Forward, &prev, Limits{})
			for _, id := range tok.Encode(c.text) {
				if !v.feed(&a, id) {
					b.Fatalf("%q does not fit the grammar", c.text)
				}
			}
			a.reserve(v.tokenMax + 1)
			mask := make([]bool, tok.VocabSize())
			var top []int
			id := v.greedyPick(&a, logits, &top)
			if id < 0 {
				v.allowed(&a, mask)
				id = NewSampler(0, 0, 1).Sample(logits, mask)
			}
			b.Run("mask+softmax", func(b *testing.B) {
				var lp float64
				for i := 0; i < b.N; i++ {
					v.allowed(&a, mask)
					lp += maskedLogProb(logits, mask, id, 1)
				}
				if lp > 0 {
					b.Fatal("a log-probability above 0")
				}
			})
			b.Run("softmax", func(b *testing.B) {
				v.allowed(&a, mask)
				for i := 0; i < b.N; i++ {
					maskedLogProb(logits, mask, id, 1)
				}
			})
		})
	}
}

// BenchmarkConfidenceCost decodes golden prompts greedily with the bundled model,
// with and without the confidences, and reports µs per generated token of each: the
// difference is what the confidences cost (the mask the greedy pick skips, and one
// softmax over the allowed tokens per chosen token).
func BenchmarkConfidenceCost(b *testing.B) {
	dir := filepath.Join("..", "models", "default")
	m, err := Load(dir, gotch.CPU)
	if err != nil {
		b.Skip("no bundled model:", err)
	}
	defer m.Close()
	tok, err := tokenizer.LoadFile(filepath.Join(dir, TokenizerFile))
	if err != nil {
		b.Fatal(err)
	}
	v := NewVocab(tok)
	all := goldenPrompts(b)
	var prompts []prompt
	for i := 0; i < len(all); i += 23 {
		prompts = append(prompts, all[i])
	}
	var elapsed [2]time.Duration
	var toks [2]int
	for i := 0; i < b.N; i++ {
		for k, p := range prompts {
			for _, off := range []bool{k%2 == 0, k%2 != 0} { // alternate which goes first
				g := NewGenerator(m, v)
				g.Limits = Limits{MaxTokens: 128}
				g.noConfidence = off
				ids := tok.Encode(p.text)
				if _, err := g.prefill(ids); err != nil {
					b.Fatal(err)
				}
				prev := p.prev
				t0 := time.Now()
				gen, err := g.Generate(context.Background(), ids, p.ctx, p.dir, &prev, NewSampler(0, 0, 1))
				if err != nil {
					b.Fatal(err)
				}
				j := 0
				if off {
					j = 1
				}
				elapsed[j] += time.Since(t0)
				toks[j] += len(gen.Tokens)
			}
		}
	}
	b.ReportMetric(float64(elapsed[0].Microseconds())/float64(toks[0]), "µs/token-with")
	b.ReportMetric(float64(elapsed[1].Microseconds())/float64(toks[1]), "µs/token-without")
	b.ReportMetric(0, "ns/op")
}
