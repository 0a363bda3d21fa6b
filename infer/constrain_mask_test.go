package infer

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
)

// cloneAutomaton copies a with slices of its own, so that states collected along one
// walk do not write into each other's keys and names when fed later.
func cloneAutomaton(a grammar.Automaton) grammar.Automaton {
	a.Clip()
	return a
}

// goldenNext pairs each golden prompt with the state that follows it.
func goldenNext(prompts []prompt) []string {
	out := make([]string, len(prompts))
	for i, p := range prompts {
		if i+1 < len(prompts) && strings.HasPrefix(prompts[i+1].text, p.text) {
			rest := prompts[i+1].text[len(p.text):]
			out[i] = rest[:strings.Index(rest, grammar.TokenActionSep)]
		}
	}
	return out
}

// maskStates collects automaton states: every prefix of the golden states, and
// random walks over the allowed tokens (biased towards quotes, escapes,
// punctuation and single bytes) under tight and loose limits, so that every phase, escapes, \u
// sequences, surrogates and every limit are reached.
func maskStates(t testing.TB, v *Vocab, walks int) []grammar.Automaton {
	prompts := goldenPrompts(t)
	next := goldenNext(prompts)
	var out []grammar.Automaton
	for i, p := range prompts {
		if next[i] == "" || i%3 != 0 {
			continue
		}
		prev := p.prev
		a := grammar.NewAutomaton(p.ctx, p.dir, &prev, 0, nil, Limits{})
		out = append(out, cloneAutomaton(a))
		for _, id := range v.Tok.Encode(next[i]) {
			if !v.feed(&a, id) {
				break // over the default limits
			}
			out = append(out, cloneAutomaton(a))
		}
	}
	// Escapes, \u sequences and surrogate pairs, byte by byte, under loose and tight
	// limits.
	crafted := []string{
		`{"k\u00e9y": "\ud83d\ude00 \u0007 \t\n\\\"\b\f\r\u001f", "b": "\ud800\udfff\u00ff\uffff\ue000"}`,
		`{"x": "\udbff\udc00\u007f\u0000\u000b\u000e"}`,
	}
	for i, p := range prompts {
		if next[i] == "" || i%11 != 0 {
			continue
		}
		ids := v.Tok.Encode(next[i])
		if ev, ok := grammar.EventOfToken(v.special[ids[0]]); !ok || !ev.HasLocals() {
			continue
		}
		for _, lim := range []Limits{{}, {MaxRepr: 4, MaxKey: 2}, {MaxRepr: 2, MaxKey: 5}} {
			for _, c := range crafted {
				prev := p.prev
				a := grammar.NewAutomaton(p.ctx, p.dir, &prev, 0, nil, lim)
				v.feed(&a, ids[0])
				for k := 0; k < len(c) && a.FeedByte(c[k]); k++ {
					out = append(out, cloneAutomaton(a))
				}
			}
		}
	}
	limits := []Limits{{}, {MaxRepr: 4, MaxKey: 3, MaxVars: 2}, {MaxRepr: 12, MaxKey: 6, MaxVars: 4}, {MaxRepr: 1, MaxKey: 1, MaxVars: 1}}
	rng := rand.New(rand.NewPCG(1, 2))
	mask := make([]bool, len(v.bytes))
	var ids, odd []int
	for w := 0; w < walks; w++ {
		p := prompts[rng.IntN(len(prompts))]
		prev := p.prev
		a := grammar.NewAutomaton(p.ctx, p.dir, &prev, 0, nil, limits[w%len(limits)])
		for step := 0; step < 120 && !a.Done(); step++ {
			out = append(out, cloneAutomaton(a))
			if v.allowedRef(&a, mask) == 0 {
				break
			}
			ids, odd = ids[:0], odd[:0]
			for id, ok := range mask {
				if !ok {
					continue
				}
				ids = append(ids, id)
				if !v.plainMask[id] {
					odd = append(odd, id)
				}
			}
			pick := ids[rng.IntN(len(ids))]
			switch r := rng.IntN(4); {
			case r == 0: // the shortest allowed token: every phase boundary gets reached
				for _, id := range ids {
					if len(v.bytes[id]) < len(v.bytes[pick]) {
						pick = id
					}
				}
			case r >= 2 && len(odd) > 0:
				pick = odd[rng.IntN(len(odd))]
			}
			v.feed(&a, pick)
		}
		out = append(out, cloneAutomaton(a))
	}
	return out
}

// vocab4096 is the training run's 4,096-token vocabulary, when there is one.
func vocab4096(t testing.TB) *Vocab {
	tok, err := tokenizer.LoadFile(filepath.Join("../build/run/checkpoint", TokenizerFile))
	if err != nil {
		return nil
	}
	return NewVocab(tok)
}

func checkMasks(t *testing.T, v *Vocab, states []grammar.Automaton) {
	ref, fast := make([]bool, len(v.bytes)), make([]bool, len(v.bytes))
	logits := make([]float32, len(v.bytes))
	rng := rand.New(rand.NewPCG(3, 4))
	greedy := NewSampler(0, 0, 1)
	var top []int
	phases := map[int]int{}
	forced, escapes, tight, determined := 0, 0, 0, 0
	for i := range states {
		a := &states[i]
		phases[a.Phase()]++
		if a.EscapePending() {
			escapes++
		}
		if room, ok := a.PlainRoom(); ok && room < v.plainMax {
			tight++
		}
		n := v.allowedRef(a, ref)
		if m := v.allowed(a, fast); m != n || !slices.Equal(ref, fast) {
			for id := range ref {
				if ref[id] != fast[id] {
					t.Fatalf("state %d (phase %d): token %d %q: reference %v, fast %v (counts %d, %d)", i, a.Phase(), id, v.bytes[id], ref[id], fast[id], n, m)
				}
			}
			t.Fatalf("state %d: counts %d, %d", i, n, m)
		}
		if id, ok := v.forcedToken(a); ok && (n != 1 || !ref[id]) {
			t.Fatalf("state %d (phase %d): forced %q but %d allowed", i, a.Phase(), v.bytes[id], n)
		} else if ok {
			forced++
		}
		if rest := a.DeterminedRest(); rest != "" {
			determined++
			// The text must go on with rest: an allowed token writes a part of it, or
			// all of it and more (a forced value's closing quote and the `}` after it).
			for id, ok := range ref {
				b := string(v.bytes[id])
				if ok && (v.special[id] != "" || !strings.HasPrefix(rest, b) && !strings.HasPrefix(b, rest)) {
					t.Fatalf("state %d: determined %q, but %q is allowed", i, rest, v.bytes[id])
				}
			}
			if toks := v.determinedTokens(a, nil); v.Tok.Decode(toks) != rest {
				t.Fatalf("state %d: determined %q, tokens %q", i, rest, v.Tok.Decode(toks))
			}
		}
		for k := 0; k < 24; k++ {
			id := rng.IntN(len(ref))
			if v.tokenOK(a, id) != ref[id] {
				t.Fatalf("state %d: tokenOK(%q) = %v", i, v.bytes[id], !ref[id])
			}
		}
		// Logits with ties, -Inf and NaN; often the allowed tokens rank low.
		for id := range logits {
			logits[id] = float32(rng.IntN(40))
			switch rng.IntN(50) {
			case 0:
				logits[id] = float32(math.NaN())
			case 1:
				logits[id] = float32(math.Inf(-1))
			}
			if ref[id] && rng.IntN(2) == 0 {
				logits[id] -= 20
			}
		}
		want := -1
		if n > 0 {
			want = greedy.Sample(logits, ref)
		}
		got := v.greedyPick(a, logits, &top)
		if got < 0 && n > 0 {
			got = greedy.Sample(logits, fast)
		}
		if got != want {
			t.Fatalf("state %d: greedy %d, want %d", i, got, want)
		}
	}
	t.Logf("%d states agree (by phase %v); %d with a forced token, %d in an escape or surrogate pair, %d near a string's limit, %d with a determined SRC or exit word", len(states), phases, forced, escapes, tight, determined)
}

// TestMaskMatchesReference checks the optimized mask, tokenOK, forcedToken and
// greedyPick against allowedRef on many automaton states.
func TestMaskMatchesReference(t *testing.T) {
	_, tok := loadTiny(t)
	v := NewVocab(tok)
	checkMasks(t, v, maskStates(t, v, 300))
	if big := vocab4096(t); big != nil {
		t.Run("vocab4096", func(t *testing.T) { checkMasks(t, big, maskStates(t, big, 60)) })
	}
}

func TestTopLogits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		logits := make([]float32, 1+rng.IntN(60))
		for i := range logits {
			logits[i] = float32(rng.IntN(8))
			if rng.IntN(10) == 0 {
				logits[i] = float32(math.NaN())
			}
		}
		var want []int
		for i, v := range logits {
			if v == v {
				want = append(want, i)
			}
		}
		slices.SortStableFunc(want, func(a, b int) int {
			switch {
			case logits[a] > logits[b]:
				return -1
			case logits[a] < logits[b]:
				return 1
			}
			return 0
		})
		k := 1 + rng.IntN(10)
		want = want[:min(k, len(want))]
		if got := topLogits(logits, k, nil); !slices.Equal(got, want) {
			t.Fatalf("logits %v k %d: %v, want %v", logits, k, got, want)
		}
	}
}

// TestGenerateMatchesReference generates the same prompts the fast way and the
// reference way (full mask at every token, one token per Forward), greedy and
// sampling. Token by token the texts must be the same. With determined SRC lines
// written in one go (the default) the texts must agree up to the end of SRC, that is
// completely but for the value of a return or exception.
func TestGenerateMatchesReference(t *testing.T) {
	m, tok := loadTiny(t)
	v := NewVocab(tok)
	prompts := goldenPrompts(t)
	forwarded := map[string]int{}
	calls := map[string]int{}
	for _, mode := range []struct {
		temp, topP float64
	}{{0, 0}, {1.5, 0.9}, {4, 1}} {
		for i := 0; i < len(prompts); i += 37 {
			p := prompts[i]
			texts := map[string]string{}
			for _, way := range []string{"reference", "token-by-token", "default"} {
				g := NewGenerator(m, v)
				g.Limits = Limits{MaxTokens: 64, MaxRepr: 24}
				g.reference = way == "reference"
				g.TokenByToken = way == "token-by-token"
				g.Reset()
				prev := p.prev
				ids := tok.Encode(p.text)
				if _, err := g.prefill(ids); err != nil {
					t.Fatal(err)
				}
				f0, c0 := g.Forwarded, g.calls
				gen, err := g.Generate(context.Background(), ids, p.ctx, p.dir, &prev, NewSampler(mode.temp, mode.topP, int64(i)))
				if err != nil {
					t.Fatal(err)
				}
				texts[way] = gen.Text
				forwarded[way] += g.Forwarded - f0
				calls[way] += g.calls - c0
			}
			ref := texts["reference"]
			if texts["token-by-token"] != ref {
				t.Errorf("prompt %d, temperature %v: token by token %q, reference %q", i, mode.temp, texts["token-by-token"], ref)
			}
			cut := len(ref)
			if k := strings.Index(ref, grammar.TokenArgSep); k >= 0 {
				cut = k
			}
			if d := texts["default"]; len(d) < cut || d[:cut] != ref[:cut] {
				t.Errorf("prompt %d, temperature %v: %q, reference %q", i, mode.temp, d, ref)
			}
		}
	}
	t.Logf("tokens forwarded while generating %v, Forward calls %v", forwarded, calls)
}

// BenchmarkMask times one mask over automaton states of the golden states and random
// walks: the reference (allowedRef), the optimized mask (allowed), and greedyPick
// (the greedy sampler's path) with random logits and with logits whose top token is
// allowed; µs per state.
func BenchmarkMask(b *testing.B) {
	_, tok := loadTiny(b)
	vocabs := []*Vocab{NewVocab(tok)}
	if big := vocab4096(b); big != nil {
		vocabs = append(vocabs, big)
	}
	for _, v := range vocabs {
		states := maskStates(b, v, 100)
		for k := range states {
			states[k].Reserve(v.tokenMax + 1) // as Generate does
		}
		mask := make([]bool, len(v.bytes))
		rng := rand.New(rand.NewPCG(1, 1))
		logits := make([]float32, len(v.bytes))
		for i := range logits {
			logits[i] = float32(rng.NormFloat64())
		}
		// fit[k] is a token state k allows, drawn at random: "greedy-fit" puts the
		// highest logit on it (a trained model), "greedy-random" keeps the random
		// logits (the top choices mostly rejected, then the full mask).
		fit := make([]int, len(states))
		for k := range states {
			fit[k] = -1
			var ids []int
			v.allowedRef(&states[k], mask)
			for id, ok := range mask {
				if ok {
					ids = append(ids, id)
				}
			}
			if len(ids) > 0 {
				fit[k] = ids[rng.IntN(len(ids))]
			}
		}
		var top []int
		greedy := func(a *grammar.Automaton) {
			if v.greedyPick(a, logits, &top) < 0 {
				v.allowed(a, mask)
			}
		}
		for _, c := range []struct {
			name string
			fit  bool
			f    func(a *grammar.Automaton)
		}{
			{"ref", false, func(a *grammar.Automaton) { v.allowedRef(a, mask) }},
			{"fast", false, func(a *grammar.Automaton) { v.allowed(a, mask) }},
			{"greedy-random", false, greedy},
			{"greedy-fit", true, greedy},
		} {
			b.Run(fmt.Sprintf("vocab=%d/%s", len(v.bytes), c.name), func(b *testing.B) {
				b.ReportAllocs()
				a := new(grammar.Automaton)
				for i := 0; i < b.N; i++ {
					for k := range states {
						*a = states[k] // copies append past a's bytes: fine, as in Generate
						if id := fit[k]; c.fit && id >= 0 {
							save := logits[id]
							logits[id] = 100 // the model's choice fits the grammar
							c.f(a)
							logits[id] = save
							continue
						}
						c.f(a)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(states)), "µs/state")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkGenerateTiny generates states for golden prompts with testdata/tinymodel
// (greedy, 64-token budget), the reference way and the fast way, and reports µs per
// generated token (the prompt's prefill excluded), tokens per state and tokens run
// through the model per generated token (Forward calls are fewer when forced tokens
// are batched); "forward" is
// one cached single-token Forward of the tiny model alone.
func BenchmarkGenerateTiny(b *testing.B) {
	m, tok := loadTiny(b)
	v := NewVocab(tok)
	all := goldenPrompts(b)
	var prompts []prompt
	for i := 0; i < len(all); i += 17 {
		prompts = append(prompts, all[i])
	}
	for _, c := range []struct {
		name         string
		reference    bool
		temp         float64
		tokenByToken bool
	}{{"ref/greedy", true, 0, false}, {"fast/greedy", false, 0, false}, {"fast-token-by-token/greedy", false, 0, true},
		{"ref/t=1", true, 1, false}, {"fast/t=1", false, 1, false}} {
		b.Run(c.name, func(b *testing.B) {
			g := NewGenerator(m, v)
			g.Limits = Limits{MaxTokens: 64}
			g.reference = c.reference
			g.TokenByToken = c.tokenByToken
			toks, fwd, forwards := 0, 0, 0
			var elapsed time.Duration
			for i := 0; i < b.N; i++ {
				for k, p := range prompts {
					prev := p.prev
					ids := tok.Encode(p.text)
					// The prompt goes into the cache untimed: Generate then runs only
					// its last token again, and the figures are the generation's.
					if _, err := g.prefill(ids); err != nil {
						b.Fatal(err)
					}
					f0, c0, t0 := g.Forwarded, g.calls, time.Now()
					gen, err := g.Generate(context.Background(), ids, p.ctx, p.dir, &prev, NewSampler(c.temp, 0.95, int64(k)))
					if err != nil {
						b.Fatal(err)
					}
					elapsed += time.Since(t0)
					toks += len(gen.Tokens)
					fwd += g.Forwarded - f0
					forwards += g.calls - c0
				}
			}
			b.ReportMetric(float64(elapsed.Microseconds())/float64(toks), "µs/token")
			b.ReportMetric(float64(toks)/float64(b.N*len(prompts)), "tokens/state")
			b.ReportMetric(float64(fwd)/float64(toks), "forwarded/token")
			b.ReportMetric(float64(forwards)/float64(toks), "forward-calls/token")
			b.ReportMetric(0, "ns/op")
		})
	}
	b.Run("forward", func(b *testing.B) {
		ids := tok.Encode(prompts[0].text)
		if _, err := m.Forward(ids, 0); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for i := 0; i < b.N; i++ {
			if _, err := m.Forward(ids[len(ids)-1:], len(ids)-1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/forward")
		b.ReportMetric(0, "ns/op")
	})
}
