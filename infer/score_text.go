package infer

import (
	"context"
	"errors"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
)

// ErrTextNotAllowed says that a state text given to ScoreAfter is not one the grammar
// (and the program facts) allow after the action, or does not fit the token budget.
var ErrTextNotAllowed = errors.New("infer: the grammar does not allow the text")

// ScoreAfter is GenerateAfter with the answer given: text, one state's text up to and
// including <|frame_sep|>, is written token by token under the same grammar and facts
// (its canonical tokens, except where the grammar forces or determines them, as the
// decoder does), and the model scores every token it would have chosen among several.
// The result is what GenerateAfter would have returned had the model chosen text:
// its Scores (whose LogP sum is the text's log-probability under the constrained
// decoder) and Confidence. The tokens go through the model in one forward pass.
// ErrTextNotAllowed (wrapped) when the grammar rejects text.
func (g *Generator) ScoreAfter(ctx context.Context, prompt []int, gctx grammar.Context, dir grammar.Direction, prev *grammar.State, after grammar.ActionKind, text string) (Generated, error) {
	lim := g.Limits.WithDefaults()
	if room := g.Model.Config.MaxSeqLen - len(prompt); room < lim.MaxTokens {
		lim.MaxTokens = max(room, 0)
	}
	var targets *grammar.Targets
	if g.Program != nil {
		targets = g.Program.Targets(prev, grammar.Action{Kind: after, Lines: g.BreakpointLines})
	}
	a := grammar.NewAutomaton(gctx, dir, prev, after, targets, lim)
	w := textWriter{v: g.Vocab, a: &a, text: text, max: lim.MaxTokens}
	if err := w.write(ctx); err != nil {
		return Generated{}, err
	}
	if err := g.scoreWritten(prompt, &w); err != nil {
		return Generated{}, err
	}
	out := Generated{Text: text, Tokens: w.toks, Scores: w.scores}
	st, x, n, err := grammar.DecodeNext(gctx, prev, text)
	if err == nil && n != len(text) {
		err = fmt.Errorf("%d bytes after the state", len(text)-n)
	}
	if err != nil {
		return out, fmt.Errorf("%w: %w", ErrTextNotAllowed, err)
	}
	out.State, out.Exit = st, x
	out.plan = &confPlan{exit: x != "", ev: st.Event, entries: a.EntryNames()}
	out.Confidence = out.plan.confidence(w.scores, func(i int) float64 { return w.scores[i].LogP }, st.Locals)
	return out, nil
}

// scoreWritten runs prompt and then w's tokens through the model and sets the LogP
// (and Dist, when recording) of every scored token.
func (g *Generator) scoreWritten(prompt []int, w *textWriter) error {
	logits, err := g.prefill(prompt)
	if err != nil {
		return err
	}
	var rows [][]float32
	if n := len(w.toks) - 1; n > 0 {
		if rows, err = g.Model.ForwardAll(w.toks[:n], len(g.cached)); err != nil {
			g.cached = g.cached[:0]
			return err
		}
		g.Forwarded += n
		g.calls++
		g.cached = append(g.cached, w.toks[:n]...)
	}
	for i := range w.scores {
		at := w.scoredAt[i]
		row := logits
		if at > 0 {
			row = rows[at-1]
		}
		id := w.toks[at]
		if len(row) != len(w.masks[i]) {
			return fmt.Errorf("infer: %d logits for a vocabulary of %d", len(row), len(w.masks[i]))
		}
		w.scores[i].LogP = maskedLogProb(row, w.masks[i], id, g.Calibration.Temperature(w.scores[i].Kind))
		if g.Record {
			w.scores[i].Dist = newTokenDist(row, w.masks[i], id, &g.dist)
		}
	}
	return nil
}

// textWriter feeds a given text to the automaton the way the decoder writes: a token
// where the grammar allows several (the text's canonical token there, recorded with
// its mask for scoring), and the forced and determined tokens as the decoder pushes
// them.
type textWriter struct {
	v    *Vocab
	a    *grammar.Automaton
	text string
	max  int

	pos      int // bytes of text written
	toks     []int
	strStart int // where the SRC line or exit word began in toks
	plan     []int

	scores   []TokenScore
	scoredAt []int    // the index in toks of each score's token
	masks    [][]bool // the allowed tokens at each scored token
}

func (w *textWriter) write(ctx context.Context) error {
	for !w.a.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(w.toks) >= w.max {
			return fmt.Errorf("%w: it takes more than %d tokens", ErrTextNotAllowed, w.max)
		}
		if len(w.plan) == 0 {
			w.plan = w.v.Tok.Encode(w.text[w.pos:])
		}
		mask := make([]bool, len(w.v.bytes))
		w.v.allowed(w.a, mask)
		id := -1
		if len(w.plan) > 0 && mask[w.plan[0]] {
			id = w.plan[0]
		} else if id = w.longestAllowed(mask); id >= 0 {
			w.plan = []int{id} // the canonical tokens do not fit here: made again after it
		}
		if id < 0 {
			return fmt.Errorf("%w at byte %d", ErrTextNotAllowed, w.pos)
		}
		mark := w.a.Mark()
		if err := w.push(id); err != nil {
			return err
		}
		w.plan = w.plan[1:]
		var first byte
		if b := w.v.bytes[id]; len(b) > 0 && w.v.special[id] == "" {
			first = b[0]
		}
		part, entry := w.a.TokenPart(mark, first)
		w.scores = append(w.scores, TokenScore{Kind: tokenKind(part), Entry: entry})
		w.scoredAt = append(w.scoredAt, len(w.toks)-1)
		w.masks = append(w.masks, mask)
		if err := w.pushForced(); err != nil {
			return err
		}
	}
	if w.pos != len(w.text) {
		return fmt.Errorf("%w: the state ends at byte %d of %d", ErrTextNotAllowed, w.pos, len(w.text))
	}
	return nil
}

// pushForced pushes what the grammar forces or determines after a chosen token, as
// the decoder does; the canonical plan is made again after any.
func (w *textWriter) pushForced() error {
	pushed := false
	for !w.a.Done() && len(w.toks) < w.max {
		var more []int
		if f, ok := w.v.forcedToken(w.a); ok {
			more = []int{f}
		} else {
			more = w.v.determinedTokens(w.a, w.toks[w.strStart:])
		}
		if len(more) == 0 || len(w.toks)+len(more) > w.max {
			break
		}
		for _, f := range more {
			if err := w.push(f); err != nil {
				return err
			}
		}
		pushed = true
	}
	if pushed {
		w.plan = nil
	}
	return nil
}

// push feeds token id, which must spell the text's next bytes.
func (w *textWriter) push(id int) error {
	b := w.v.bytes[id]
	if len(b) == 0 || len(w.text)-w.pos < len(b) || w.text[w.pos:w.pos+len(b)] != string(b) {
		return fmt.Errorf("%w: the grammar writes %q at byte %d", ErrTextNotAllowed, b, w.pos)
	}
	was := w.a.InWord()
	if !w.v.feed(w.a, id) {
		return fmt.Errorf("%w at byte %d", ErrTextNotAllowed, w.pos)
	}
	w.a.Reserve(w.v.tokenMax + 1)
	if w.a.InWord() && !was {
		w.strStart = len(w.toks) + 1
	}
	w.pos += len(b)
	w.toks = append(w.toks, id)
	return nil
}

// longestAllowed is the longest token in mask that spells the text's next bytes (-1:
// none).
func (w *textWriter) longestAllowed(mask []bool) int {
	best, n := -1, 0
	rest := w.text[w.pos:]
	for id, ok := range mask {
		b := w.v.bytes[id]
		if ok && len(b) > n && len(b) <= len(rest) && rest[:len(b)] == string(b) {
			best, n = id, len(b)
		}
	}
	return best
}
