package infer

import (
	"context"
	"math"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// confidences generates the state after every stride-th golden prompt with a fresh
// sampler from mk and returns the results.
func confidences(t *testing.T, g *Generator, mk func() *Sampler, stride int) []Generated {
	t.Helper()
	_, tok := g.Model, g.Vocab.Tok
	all := goldenPrompts(t)
	s := mk()
	var out []Generated
	for i := 0; i < len(all); i += stride {
		p := all[i]
		prev := p.prev
		gen, err := g.Generate(context.Background(), tok.Encode(p.text), p.ctx, p.dir, &prev, s)
		if err != nil {
			t.Fatalf("prompt %d: %v", i, err)
		}
		out = append(out, gen)
	}
	return out
}

// TestConfidenceIsAProbability: every part's confidence lies in [0, 1], the whole
// state's is no larger than any part's (it is the product over all its tokens), there
// is one per local in the state's order, and a force-closed state has none.
func TestConfidenceIsAProbability(t *testing.T) {
	m, tok := loadTiny(t)
	g := NewGenerator(m, NewVocab(tok))
	g.Limits = Limits{MaxTokens: 96, MaxRepr: 40}
	var unsure, forced int
	for i, gen := range confidences(t, g, func() *Sampler { return NewSampler(0, 0, 1) }, 4) {
		c := gen.Confidence
		if c == nil {
			t.Fatalf("state %d: no confidence", i)
		}
		parts := map[string]float64{"event": c.Event, "line": c.Line, "locals": c.Locals, "value": c.Value}
		for _, v := range c.Vars {
			parts["var "+v.Name] = v.P
		}
		for name, p := range parts {
			if !(p >= 0 && p <= 1) {
				t.Errorf("state %d: %s confidence %v is not a probability", i, name, p)
			}
			if c.State > p+1e-12 {
				t.Errorf("state %d: whole state %v above its %s's %v", i, c.State, name, p)
			}
		}
		if len(c.Vars) != len(gen.State.Locals) {
			t.Fatalf("state %d: %d variable confidences for %d locals", i, len(c.Vars), len(gen.State.Locals))
		}
		for j, v := range c.Vars {
			if v.Name != gen.State.Locals[j].Name {
				t.Errorf("state %d: confidence %d is %q, the local %q", i, j, v.Name, gen.State.Locals[j].Name)
			}
		}
		if gen.Forced {
			forced++
			if c.State != 0 || c.Event != 0 {
				t.Errorf("state %d was closed by force but has confidence %v", i, c.State)
			}
		}
		if c.State < 0.5 {
			unsure++
		}
	}
	// The tiny model's weights are random: its states are far from certain.
	if unsure == 0 {
		t.Errorf("every state of a random model is over 50%% certain")
	}
	t.Logf("%d states under 50%%, %d force-closed", unsure, forced)
}

// TestConfidenceIsReproducible: the same seeded decode gives the same numbers twice,
// greedy and sampling, with or without the KV cache's reuse.
func TestConfidenceIsReproducible(t *testing.T) {
	m, tok := loadTiny(t)
	for _, temp := range []float64{0, 1.2} {
		g := NewGenerator(m, NewVocab(tok))
		g.Limits = Limits{MaxTokens: 64, MaxRepr: 40}
		mk := func() *Sampler { return NewSampler(temp, 0.95, 5) }
		a := confidences(t, g, mk, 12)
		g.Reset()
		g.NoReuse = true
		b := confidences(t, g, mk, 12)
		for i := range a {
			if a[i].Text != b[i].Text {
				t.Fatalf("temperature %v, state %d: %q then %q", temp, i, a[i].Text, b[i].Text)
			}
			if ca, cb := a[i].Confidence, b[i].Confidence; math.Abs(ca.State-cb.State) > 1e-4 || math.Abs(ca.Line-cb.Line) > 1e-4 {
				t.Errorf("temperature %v, state %d: confidence %v then %v", temp, i, *ca, *cb)
			}
		}
	}
}

// TestCalibrationTemperature: the temperatures change the confidences, never the
// text; a greedy choice is the most likely token, so a higher temperature makes every
// part less certain. The recorded distributions give back the decode's own numbers.
func TestCalibrationTemperature(t *testing.T) {
	m, tok := loadTiny(t)
	g := NewGenerator(m, NewVocab(tok))
	g.Limits = Limits{MaxTokens: 64, MaxRepr: 40}
	g.Record = true
	greedy := func() *Sampler { return NewSampler(0, 0, 1) }
	raw := confidences(t, g, greedy, 4)
	hot := &Calibration{Temperatures: map[string]float64{}}
	for k := TokenKind(0); k < NumKinds; k++ {
		hot.Temperatures[k.String()] = 2
	}
	g.Calibration = hot
	warm := confidences(t, g, greedy, 4)
	lower := 0
	for i := range raw {
		if raw[i].Text != warm[i].Text {
			t.Fatalf("state %d: temperature 2 wrote %q, 1 wrote %q", i, warm[i].Text, raw[i].Text)
		}
		r, w := raw[i].Confidence, warm[i].Confidence
		if w.State > r.State+1e-9 || w.Event > r.Event+1e-9 || w.Line > r.Line+1e-9 {
			t.Errorf("state %d: temperature 2 gives %v, above temperature 1's %v", i, *w, *r)
		}
		if w.State < r.State {
			lower++
		}
		again, ok := raw[i].ConfidenceAt(nil)
		if !ok {
			t.Fatalf("state %d: no recorded distributions", i)
		}
		if math.Abs(again.State-r.State) > 0.01*max(r.State, 1e-3) {
			t.Errorf("state %d: recomputed %v, decoded %v", i, again.State, r.State)
		}
		hotAgain, _ := raw[i].ConfidenceAt(hot)
		if math.Abs(hotAgain.State-w.State) > 0.01*max(w.State, 1e-3) {
			t.Errorf("state %d: recomputed at 2 %v, decoded at 2 %v", i, hotAgain.State, w.State)
		}
	}
	if lower == 0 {
		t.Errorf("temperature 2 lowered no state's confidence")
	}
}

// TestFitTemperatures: fitted on states that are all right, the temperatures go down
// (more confident); on states that are all wrong, up.
func TestFitTemperatures(t *testing.T) {
	m, tok := loadTiny(t)
	g := NewGenerator(m, NewVocab(tok))
	g.Limits = Limits{MaxTokens: 64, MaxRepr: 40}
	g.Record = true
	gens := confidences(t, g, func() *Sampler { return NewSampler(0, 0, 1) }, 4)
	ptrs := make([]*Generated, len(gens))
	for i := range gens {
		ptrs[i] = &gens[i]
	}
	bce := func(hit bool) func(int, *grammar.Confidence) float64 {
		return func(_ int, c *grammar.Confidence) float64 {
			p := min(max(c.State, 1e-6), 1-1e-6)
			if hit {
				return -math.Log(p)
			}
			return -math.Log(1 - p)
		}
	}
	right := FitTemperatures(ptrs, bce(true))
	wrong := FitTemperatures(ptrs, bce(false))
	if tr, tw := right.Temperature(KindLine), wrong.Temperature(KindLine); !(tr < 1 && tw > 1) {
		t.Errorf("line temperature: %v fitted on right states, %v on wrong ones", tr, tw)
	}
}
