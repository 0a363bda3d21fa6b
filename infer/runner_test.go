package infer

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
)

// runnerPrompts are four sequences of golden prompts (one per session): each is a
// trajectory cut after each of its actions, so consecutive prompts share prefixes.
func runnerPrompts(t *testing.T) [][]prompt {
	all := goldenPrompts(t)
	if len(all) < 16 {
		t.Skip("too few golden prompts")
	}
	seqs := make([][]prompt, 4)
	for i, p := range all[:48] {
		seqs[i%4] = append(seqs[i%4], p)
	}
	return seqs
}

// decode runs g over prompts (greedy), Begin and End around each prediction when r
// is set, and returns the texts.
func decode(t *testing.T, g *Generator, r *Runner, prompts []prompt) ([]string, error) {
	var out []string
	s := NewSampler(0, 0, 1)
	for _, p := range prompts {
		prev := p.prev
		if r != nil {
			r.Begin(g.Model)
		}
		gen, err := g.Generate(context.Background(), g.Vocab.Tok.Encode(p.text), p.ctx, p.dir, &prev, s)
		if r != nil {
			r.End(g.Model)
		}
		if err != nil {
			return out, err
		}
		out = append(out, gen.Text)
	}
	return out, nil
}

// alone is what each sequence decodes to in process, one generator each.
func alone(t *testing.T, m *Model, v *Vocab, seqs [][]prompt) [][]string {
	var want [][]string
	for _, seq := range seqs {
		s := m.Share()
		g := NewGenerator(s, v)
		g.Limits = Limits{MaxTokens: 64, MaxRepr: 40}
		texts, err := decode(t, g, nil, seq)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, texts)
		s.Close()
	}
	return want
}

// concurrently decodes each sequence on its own share of r, all at once.
func concurrently(t *testing.T, r *Runner, m *Model, v *Vocab, seqs [][]prompt) [][]string {
	got := make([][]string, len(seqs))
	var wg sync.WaitGroup
	for i, seq := range seqs {
		g := NewGenerator(r.Share(m, 0), v)
		g.Limits = Limits{MaxTokens: 64, MaxRepr: 40}
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts, err := decode(t, g, r, seq)
			if err != nil {
				t.Error(err)
			}
			got[i] = texts
		}()
		t.Cleanup(func() { r.Exclusive(g.Model.Close) })
	}
	wg.Wait()
	return got
}

func sameTexts(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	for i := range want {
		for j := range want[i] {
			if j >= len(got[i]) || got[i][j] != want[i][j] {
				t.Fatalf("%s: session %d, prompt %d differs from the session alone", what, i, j)
			}
		}
	}
}

// Four sessions predicting at the same time are run as packed forward passes, and
// each gets the states it gets alone (greedy).
func TestRunnerBatchesAndMatchesAlone(t *testing.T) {
	m, tok := loadTiny(t)
	v := NewVocab(tok)
	seqs := runnerPrompts(t)
	want := alone(t, m, v, seqs)
	r := NewRunner(RunnerOptions{})
	got := concurrently(t, r, m, v, seqs)
	sameTexts(t, "batched", got, want)
	st := r.Stats()
	t.Logf("%+v", st)
	if st.Batches == 0 || st.Batched < 2*st.Batches {
		t.Errorf("no pass was batched: %+v", st)
	}
}

// A packed pass gives each sequence the logits it gets alone (to float rounding).
func TestPackedLogitsMatchAlone(t *testing.T) {
	m, tok := loadTiny(t)
	r := NewRunner(RunnerOptions{})
	texts := []string{"<|ctx|>def f(x):", "x = 1\ny = 2", "return"}
	var want [][]float32
	for _, s := range texts {
		rows, err := m.Share().ForwardAll(tok.Encode(s), 0)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, rows[len(rows)-1])
	}
	shares := make([]*Model, len(texts))
	for i := range shares {
		shares[i] = r.Share(m, 0)
		r.Begin(shares[i])
	}
	got := make([][]float32, len(texts))
	var wg sync.WaitGroup
	for i, s := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer r.End(shares[i])
			rows, err := shares[i].Forward(tok.Encode(s), 0)
			if err != nil {
				t.Error(err)
			}
			got[i] = rows
		}()
	}
	wg.Wait()
	if st := r.Stats(); st.Batches != 1 || st.Batched != 3 {
		t.Errorf("three passes waiting together: %+v", st)
	}
	for i := range want {
		for j := range want[i] {
			if d := math.Abs(float64(got[i][j] - want[i][j])); d > 1e-4 {
				t.Fatalf("text %d, logit %d: %v packed, %v alone", i, j, got[i][j], want[i][j])
			}
		}
	}
}

// With a total bound that holds the larger of two sessions' caches, the sessions
// taking turns evict each other's caches, and still get the states they get alone:
// the evicted one's prompt runs again from its first token.
func TestRunnerEvictsIdleCaches(t *testing.T) {
	m, tok := loadTiny(t)
	v := NewVocab(tok)
	seqs := runnerPrompts(t)[:2]
	want := alone(t, m, v, seqs)
	var bound int64
	for _, seq := range seqs { // the cache each one grows alone
		r := NewRunner(RunnerOptions{})
		g := NewGenerator(r.Share(m, 0), v)
		g.Limits = Limits{MaxTokens: 64, MaxRepr: 40}
		if _, err := decode(t, g, r, seq); err != nil {
			t.Fatal(err)
		}
		bound = max(bound, r.Stats().CacheBytes)
		r.Exclusive(g.Model.Close)
	}
	r := NewRunner(RunnerOptions{TotalCacheBytes: bound})
	gens := make([]*Generator, len(seqs))
	for i := range gens {
		gens[i] = NewGenerator(r.Share(m, 0), v)
		gens[i].Limits = Limits{MaxTokens: 64, MaxRepr: 40}
	}
	got := make([][]string, len(seqs))
	for j := range seqs[0] { // in turn: each one's cache is the least recently used
		for i, g := range gens {
			texts, err := decode(t, g, r, seqs[i][j:j+1])
			if err != nil {
				t.Fatal(err)
			}
			got[i] = append(got[i], texts...)
		}
	}
	sameTexts(t, "evicted", got, want)
	st := r.Stats()
	t.Logf("%+v", st)
	if st.Evictions == 0 || st.CacheBytes > bound {
		t.Errorf("a bound of %d bytes: %+v", bound, st)
	}
}

// A share's context (its cache limit) bounds its prompts: a longer one is a
// ContextError, and the share serves shorter ones afterwards.
func TestRunnerCacheLimit(t *testing.T) {
	m, tok := loadTiny(t)
	r := NewRunner(RunnerOptions{})
	s := r.Share(m, 64)
	defer r.Exclusive(s.Close)
	g := NewGenerator(s, NewVocab(tok))
	long := make([]int, 100)
	_, err := g.prefill(long)
	var ce *ContextError
	if !errors.As(err, &ce) || ce.Context != 64 {
		t.Fatalf("a prompt of 100 tokens on a share of 64 positions: %v", err)
	}
	if _, err := s.Forward(make([]int, 10), 0); err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.CacheBytes != 64*bytesPerPosition(m.Config) {
		t.Errorf("a cache of 10 positions holds %d bytes, want one step of 64 positions", st.CacheBytes)
	}
}
