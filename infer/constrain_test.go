package infer

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/internal/golden"
)

// prompt is a trajectory cut right after an action.
type prompt struct {
	ctx  grammar.Context
	dir  grammar.Direction
	prev grammar.State
	text string
}

// goldenPrompts cuts every golden trajectory after each of its actions.
func goldenPrompts(t testing.TB) []prompt {
	var out []prompt
	for _, a := range goldenAnswers(t) {
		out = append(out, a.prompt)
	}
	return out
}

// goldenAnswers is goldenPrompts with each prompt's recorded answer.
func goldenAnswers(t testing.TB) []answer {
	var out []answer
	for _, tr := range goldenTrajectories(t) {
		out = append(out, trajectoryAnswers(t, tr)...)
	}
	return out
}

// goldenTrajectories reads every trajectory of testdata/golden.
func goldenTrajectories(t testing.TB) []grammar.Trajectory {
	trs, err := golden.Trajectories("../testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	return trs
}

// answer is a prompt and the state text the trajectory went on with.
type answer struct {
	prompt
	answer string
}

// trajectoryAnswers re-encodes tr and cuts it after each action, with the text of
// the state (or exit) that followed.
func trajectoryAnswers(t testing.TB, tr grammar.Trajectory) []answer {
	e := grammar.NewEncoder(tr.Context, tr.Direction)
	text, err := e.Start(tr.Start)
	if err != nil {
		t.Fatal(err)
	}
	var out []answer
	prev := tr.Start
	for _, st := range tr.Steps {
		a, err := e.Action(st.Action)
		if err != nil {
			t.Fatal(err)
		}
		text += a
		var s string
		if st.Exit != "" {
			s, err = e.Exit(st.Exit)
		} else {
			s, err = e.State(st.State)
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, answer{prompt{ctx: tr.Context, dir: tr.Direction, prev: prev, text: text}, s})
		if st.Exit != "" {
			break
		}
		text += s
		prev = st.State
	}
	return out
}

// loadTiny loads testdata/tinymodel (random weights, a small tokenizer).
func loadTiny(t testing.TB) (*Model, *tokenizer.Tokenizer) {
	dir := "../testdata/tinymodel"
	m, err := Load(dir, gotch.CPU)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	tok, err := tokenizer.LoadFile(filepath.Join(dir, TokenizerFile))
	if err != nil {
		t.Fatal(err)
	}
	return m, tok
}

func TestConstrainedDecodingAlwaysDecodes(t *testing.T) {
	m, tok := loadTiny(t)
	g := NewGenerator(m, NewVocab(tok))
	g.Limits = Limits{MaxTokens: 96, MaxRepr: 40}
	all := goldenPrompts(t)
	var prompts []prompt
	for i := 0; i < len(all); i += 2 {
		prompts = append(prompts, all[i])
	}
	if len(prompts) < 200 {
		t.Fatalf("only %d prompts", len(prompts))
	}
	samplers := []*Sampler{NewSampler(0, 0, 1), NewSampler(1.5, 0.95, 2), NewSampler(5, 1, 3)}
	ok, forced := 0, 0
	for i, p := range prompts {
		prev := p.prev
		gen, err := g.Generate(context.Background(), tok.Encode(p.text), p.ctx, p.dir, &prev, samplers[i%len(samplers)])
		if err != nil {
			t.Errorf("prompt %d: %v", i, err)
			continue
		}
		ok++
		if gen.Forced {
			forced++
		}
	}
	t.Logf("%d/%d prompts decoded (%d force-closed)", ok, len(prompts), forced)
}

// TestForceClose gives every state a budget of a few tokens, so that generation
// stops in every part of the grammar and the structure is closed by force.
func TestForceClose(t *testing.T) {
	m, tok := loadTiny(t)
	g := NewGenerator(m, NewVocab(tok))
	prompts := goldenPrompts(t)
	s := NewSampler(3, 1, 7)
	for i := 0; i < 60; i++ {
		p := prompts[(i*7)%len(prompts)]
		g.Limits = Limits{MaxTokens: 1 + i%12, MaxRepr: 4}
		prev := p.prev
		gen, err := g.Generate(context.Background(), tok.Encode(p.text), p.ctx, p.dir, &prev, s)
		if err != nil {
			t.Fatalf("prompt %d: %v", i, err)
		}
		if !gen.Forced && !strings.Contains(gen.Text, grammar.TokenExitSep) && len(gen.Tokens) > 12 {
			t.Errorf("prompt %d: %d tokens without force", i, len(gen.Tokens))
		}
	}
}

// TestAutomatonAcceptsGolden feeds every golden state, token by token, to the
// automaton: the grammar must not forbid anything real.
func TestAutomatonAcceptsGolden(t *testing.T) {
	_, tok := loadTiny(t)
	v := NewVocab(tok)
	prompts := goldenPrompts(t)
	for i, p := range prompts {
		next := ""
		if i+1 < len(prompts) && strings.HasPrefix(prompts[i+1].text, p.text) {
			rest := prompts[i+1].text[len(p.text):]
			j := strings.Index(rest, grammar.TokenActionSep)
			next = rest[:j]
		}
		if next == "" {
			continue
		}
		prev := p.prev
		a := grammar.NewAutomaton(p.ctx, p.dir, &prev, 0, nil, Limits{MaxRepr: 1 << 20, MaxVars: 1 << 10})
		for _, id := range tok.Encode(next) {
			ok := false
			if sp := v.special[id]; sp != "" {
				ok = a.FeedSpecial(sp)
			} else {
				ok = a.FeedBytes(v.bytes[id])
			}
			if !ok {
				t.Fatalf("prompt %d: the automaton rejects token %q of %q", i, v.bytes[id], next)
			}
		}
		if !a.Done() {
			t.Fatalf("prompt %d: %q does not complete the state", i, next)
		}
	}
}

func TestSampler(t *testing.T) {
	logits := []float32{1, 5, 3, 5}
	if id := NewSampler(0, 0, 1).Sample(logits, nil); id != 1 {
		t.Errorf("greedy took %d, want 1", id)
	}
	if id := NewSampler(0, 0, 1).Sample(logits, []bool{true, false, true, false}); id != 2 {
		t.Errorf("greedy masked took %d, want 2", id)
	}
	if id := NewSampler(1, 0.9, 1).Sample(logits, []bool{false, false, false, false}); id != -1 {
		t.Errorf("nothing allowed gave %d", id)
	}
	a, b := NewSampler(1, 0.9, 42), NewSampler(1, 0.9, 42)
	counts := map[int]int{}
	for i := 0; i < 200; i++ {
		x, y := a.Sample(logits, nil), b.Sample(logits, nil)
		if x != y {
			t.Fatal("same seed, different draws")
		}
		counts[x]++
	}
	if counts[0] != 0 || counts[1] == 0 || counts[3] == 0 {
		t.Errorf("top-p 0.9 draws %v: want 1 and 3, never 0", counts)
	}
}
