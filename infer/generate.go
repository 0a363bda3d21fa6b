package infer

import (
	"context"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
)

// Vocab is a tokenizer's vocabulary prepared for constrained decoding: every token's
// bytes, the special tokens' texts, and the ordinary tokens bucketed by first byte.
type Vocab struct {
	Tok     *tokenizer.Tokenizer
	bytes   [][]byte
	special []string // the text of special token ids, "" for ordinary ones
	first   [256][]int
	specIDs []int
	maskTables
}

// NewVocab prepares tok's vocabulary.
func NewVocab(tok *tokenizer.Tokenizer) *Vocab {
	v := &Vocab{Tok: tok}
	n := tok.VocabSize()
	v.bytes, v.special = make([][]byte, n), make([]string, n)
	for id := 0; id < n; id++ {
		b := tok.DecodeToken(id)
		v.bytes[id] = b
		switch {
		case tok.IsSpecial(id):
			v.special[id] = string(b)
			v.specIDs = append(v.specIDs, id)
		case len(b) > 0:
			v.first[b[0]] = append(v.first[b[0]], id)
		}
	}
	v.buildMaskTables()
	return v
}

// allowedRef fills mask (len VocabSize) with the tokens that a can take next and
// returns how many there are, by feeding every token to a copy of a (first bytes
// shared). It is the reference that allowed (constrain_mask.go) must agree with, and
// the path Generator.reference takes.
func (v *Vocab) allowedRef(a *grammar.Automaton, mask []bool) int {
	clear(mask)
	count := 0
	for _, id := range v.specIDs {
		c := *a
		if c.FeedSpecial(v.special[id]) {
			mask[id] = true
			count++
		}
	}
	for b := 0; b < 256; b++ {
		if len(v.first[b]) == 0 {
			continue
		}
		c := *a
		if !c.FeedByte(byte(b)) {
			continue
		}
		for _, id := range v.first[b] {
			d := c
			if d.FeedBytes(v.bytes[id][1:]) {
				mask[id] = true
				count++
			}
		}
	}
	return count
}

// Generated is one state the model wrote after an action.
type Generated struct {
	Text   string        // the state's text, up to and including <|frame_sep|>
	Tokens []int         // the tokens sampled (when Forced, the tokens of Text re-encoded)
	State  grammar.State // the decoded state (zero for an exit state)
	Exit   grammar.Exit  // the exit state, when the model predicted the end
	Forced bool          // the token budget ran out or no token fitted: the structure was closed by force
	// Confidence is the probability of each part of the state (confidence.go); all
	// zero when the structure was closed by force (the model did not finish it).
	Confidence *grammar.Confidence
	// Scores are the tokens the model chose among several, in order (the others were
	// forced by the grammar and count 1).
	Scores []TokenScore
	plan   *confPlan
}

// Generator writes states with a model under the grammar and keeps track of the
// tokens in the model's KV cache, so that a prompt sharing a prefix with the last one
// costs only its new tokens. A Generator is not safe for concurrent use, and it owns
// its model's cache.
type Generator struct {
	Model  *Model
	Vocab  *Vocab
	Limits Limits
	// Program holds the program facts of the context (nil: the grammar alone):
	// every generated state is then one the program can reach after the action.
	Program *grammar.Program
	// BreakpointLines are the lines of a breakpoint action the next GenerateAfter
	// follows (the prompt's action; only the facts use them).
	BreakpointLines []grammar.Loc
	// NoReuse turns prefix reuse off: every prompt is run from position 0 (for
	// benchmarks and tests).
	NoReuse bool
	// TokenByToken turns off writing a SRC line (or exit word) in one go once only
	// one line of the context fits what was written: every token of it is then the
	// sampler's choice. The text is the same either way; the tokens, and so the
	// logits after them, can differ.
	TokenByToken bool
	// Calibration holds the temperatures of the confidences (nil: the raw
	// probabilities). It never changes which token is chosen.
	Calibration *Calibration
	// Record keeps each chosen token's distribution in Generated.Scores, so that the
	// confidences can be recomputed at other temperatures (fitting them).
	Record bool

	cached []int // the tokens whose keys and values are in the cache, in order
	mask   []bool
	top    []int // scratch of greedyPick
	batch  []int // the tokens of the next Forward
	one    [1]int
	dist   []float32 // scratch of newTokenDist

	// noConfidence skips the confidences (for the benchmark of what they cost).
	noConfidence bool
	// reference decodes the way the first version did (the full mask by allowedRef at
	// every token, one token per Forward), for tests and benchmarks.
	reference bool

	// Forwarded counts the tokens run through the model (prompt and generated).
	Forwarded int
	calls     int // Forward calls
}

// NewGenerator returns a generator for m with the tokenizer's vocabulary v.
func NewGenerator(m *Model, v *Vocab) *Generator {
	return &Generator{Model: m, Vocab: v}
}

// prefill brings the cache to prompt and returns the logits after its last token.
func (g *Generator) prefill(prompt []int) ([]float32, error) {
	if len(prompt) == 0 {
		return nil, fmt.Errorf("infer: empty prompt")
	}
	if len(prompt) > g.Model.Config.MaxSeqLen {
		return nil, fmt.Errorf("infer: a prompt of %d tokens: %w", len(prompt), &ContextError{Positions: len(prompt), Context: g.Model.Config.MaxSeqLen})
	}
	k := 0
	if !g.NoReuse {
		for k < len(prompt) && k < len(g.cached) && k < g.Model.CacheLen() && prompt[k] == g.cached[k] {
			k++
		}
	}
	if k == len(prompt) {
		k-- // the logits after the last token are needed: run it again
	}
	g.cached = g.cached[:k]
	logits, err := g.Model.Forward(prompt[k:], k)
	if err != nil {
		g.cached = g.cached[:0]
		return nil, err
	}
	g.Forwarded += len(prompt) - k
	g.calls++
	g.cached = append(g.cached, prompt[k:]...)
	return logits, nil
}

// Generate writes the state that follows prompt (a trajectory's text up to and
// including an action, as token ids) in context gctx and direction dir; prev is the
// state the action started from. Tokens are drawn by s among those the grammar
// allows, so the result always decodes with grammar.DecodeNext; when the budget runs
// out the structure is closed by force and Generated.Forced says so. ctx is checked
// between tokens.
func (g *Generator) Generate(ctx context.Context, prompt []int, gctx grammar.Context, dir grammar.Direction, prev *grammar.State, s *Sampler) (Generated, error) {
	return g.GenerateAfter(ctx, prompt, gctx, dir, prev, 0, s)
}

// GenerateAfter is Generate knowing the action the prompt ends with, so that the
// grammar allows only what that action can lead to (an exit state after continue, a
// call state after inv_step_call, a return, an exception or the exit after
// step_return), and with g.Program only the states the program facts allow.
func (g *Generator) GenerateAfter(ctx context.Context, prompt []int, gctx grammar.Context, dir grammar.Direction, prev *grammar.State, after grammar.ActionKind, s *Sampler) (Generated, error) {
	lim := g.Limits.WithDefaults()
	if room := g.Model.Config.MaxSeqLen - len(prompt); room < lim.MaxTokens {
		lim.MaxTokens = max(room, 0)
	}
	logits, err := g.prefill(prompt)
	if err != nil {
		return Generated{}, err
	}
	var targets *grammar.Targets
	if g.Program != nil {
		act := grammar.Action{Kind: after, Lines: g.BreakpointLines}
		targets = g.Program.Targets(prev, act)
	}
	a := grammar.NewAutomaton(gctx, dir, prev, after, targets, lim)
	if len(g.mask) != len(g.Vocab.bytes) {
		g.mask = make([]bool, len(g.Vocab.bytes))
	}
	var text []byte
	var toks []int
	var scores []TokenScore
	strStart := 0 // where the SRC line or exit word began in toks
	forced := false
	// push feeds token id and adds it to the text, the tokens and the next Forward.
	push := func(id int) {
		was := a.InWord()
		g.Vocab.feed(&a, id)
		if !g.reference {
			a.Reserve(g.Vocab.tokenMax + 1)
		}
		if a.InWord() && !was {
			strStart = len(toks) + 1
		}
		text = append(text, g.Vocab.bytes[id]...)
		toks = append(toks, id)
		g.batch = append(g.batch, id)
	}
	for !a.Done() {
		if err := ctx.Err(); err != nil {
			return Generated{}, err
		}
		if len(toks) >= lim.MaxTokens || len(logits) != len(g.mask) {
			forced = true
			break
		}
		id := -1
		masked := false // g.mask holds a's allowed tokens
		switch {
		case g.reference:
			if g.Vocab.allowedRef(&a, g.mask) > 0 {
				id = s.Sample(logits, g.mask)
			}
			masked = true
		default:
			if s.Greedy() {
				id = g.Vocab.greedyPick(&a, logits, &g.top)
			}
			if id < 0 {
				if g.Vocab.allowed(&a, g.mask) > 0 {
					id = s.Sample(logits, g.mask)
				}
				masked = true
			}
		}
		if id < 0 {
			forced = true
			break
		}
		if !masked && !g.noConfidence {
			g.Vocab.allowed(&a, g.mask)
		}
		mark := a.Mark()
		g.batch = g.batch[:0]
		push(id)
		if !g.noConfidence {
			scores = append(scores, g.score(logits, id, &a, mark))
		}
		// Tokens the grammar forces need no logits (nor does the determined rest of a
		// SRC line): they go through the model with this one, in one Forward.
		for !g.reference && !a.Done() && len(toks) < lim.MaxTokens {
			var more []int
			if f, ok := g.Vocab.forcedToken(&a); ok {
				more = append(g.one[:0], f)
			} else if !g.TokenByToken {
				more = g.Vocab.determinedTokens(&a, toks[strStart:])
			}
			if len(more) == 0 || len(toks)+len(more) > lim.MaxTokens {
				break
			}
			for _, f := range more {
				push(f)
			}
		}
		if a.Done() {
			break
		}
		if len(toks) >= lim.MaxTokens && !g.reference {
			forced = true // the budget is spent: the logits would not be used
			break
		}
		if logits, err = g.Model.Forward(g.batch, len(g.cached)); err != nil {
			g.cached = g.cached[:0]
			return Generated{}, err
		}
		g.Forwarded += len(g.batch)
		g.calls++
		g.cached = append(g.cached, g.batch...)
	}
	if forced {
		defSrc := ""
		if prev != nil {
			defSrc, _ = gctx.Src(prev.Loc)
		}
		text = a.Finish(text, defSrc)
		toks = g.Vocab.Tok.Encode(string(text))
	}
	out := Generated{Text: string(text), Tokens: toks, Forced: forced, Scores: scores}
	st, x, n, err := grammar.DecodeNext(gctx, prev, out.Text)
	if err == nil && n != len(out.Text) {
		err = fmt.Errorf("%d bytes after the state", len(out.Text)-n)
	}
	if err != nil {
		return out, fmt.Errorf("infer: the generated state does not decode: %w (text %q)", err, out.Text)
	}
	out.State, out.Exit = st, x
	out.plan = &confPlan{exit: x != "", ev: st.Event, entries: a.EntryNames()}
	out.Confidence = out.plan.confidence(scores, func(i int) float64 { return scores[i].LogP }, st.Locals)
	if forced {
		zero(out.Confidence)
	}
	return out, nil
}

// score is the chosen token id's entry in Generated.Scores: its part of the state
// (the automaton a stood at mark before it) and its log-probability under the
// constrained distribution in g.mask.
func (g *Generator) score(logits []float32, id int, a *grammar.Automaton, mark grammar.AutomatonMark) TokenScore {
	var first byte
	if b := g.Vocab.bytes[id]; len(b) > 0 && g.Vocab.special[id] == "" {
		first = b[0]
	}
	part, entry := a.TokenPart(mark, first)
	kind := tokenKind(part)
	sc := TokenScore{Kind: kind, Entry: entry, LogP: maskedLogProb(logits, g.mask, id, g.Calibration.Temperature(kind))}
	if g.Record {
		sc.Dist = newTokenDist(logits, g.mask, id, &g.dist)
	}
	return sc
}

// Cached returns the tokens held in the KV cache (a copy).
func (g *Generator) Cached() []int { return append([]int(nil), g.cached...) }

// Reset forgets the cached tokens.
func (g *Generator) Reset() {
	g.cached = g.cached[:0]
	g.Model.ResetCache()
}

// Limits bound a generated state so that generation always terminates (see
// grammar.Limits).
type Limits = grammar.Limits
