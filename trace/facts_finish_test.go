package trace

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestFactsAlwaysFinish starts a state the facts allow the beginning of and finishes
// it as the decoder does when the model stops or the budget runs out: the text must
// decode. A lambda on a line of its function makes the targets of a step from the
// lambda's line allow the function's line states too, which the locals rule of the
// lambda's frame must not leave without a way to end (the decoder once stopped at
// `<|line_sep|>{` there).
func TestFactsAlwaysFinish(t *testing.T) {
	src := `def f(seq, k):
    seq.sort(key=lambda v: (v * 10 + 5, v))
    total = k
    for x in seq:
        total += x
    return seq, total
`
	rec, prog := recordFacts(t, "finish", src, "f([4, 1, 3], 2)")
	checked := 0
	for _, tr := range []*Tree{rec.Forward, rec.Forward.Inverse()} {
		kinds := []grammar.ActionKind{grammar.StepInto, grammar.StepOver, grammar.StepReturn, grammar.Breakpoint}
		if tr.Dir == grammar.Inverse {
			kinds = []grammar.ActionKind{grammar.InvStepInto, grammar.InvStepOver, grammar.InvStepCall}
		}
		for i, nd := range tr.Nodes {
			prev := nd.State()
			for _, k := range kinds {
				a := grammar.Action{Kind: k}
				if k == grammar.Breakpoint {
					a.Lines = []grammar.Loc{{Line: 3}}
				}
				for _, start := range []string{grammar.TokenLineSep, grammar.TokenLineSep + "{", grammar.TokenLineSep + `{"`, grammar.TokenCallSep + "{"} {
					au := grammar.NewAutomaton(rec.Context, tr.Dir, &prev, k, prog.Targets(&prev, a), grammar.Limits{})
					if !au.FeedText(start) {
						continue
					}
					text := string(au.Finish([]byte(start), ""))
					if _, _, n, err := grammar.DecodeNext(rec.Context, &prev, text); err != nil || n != len(text) {
						t.Errorf("node %d (%s %d) %s: %q finishes as %q, which does not decode: %v", i, prev.Event, prev.Loc.Line, k, start, text, err)
					}
					checked++
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d starts checked", checked)
	}
}
