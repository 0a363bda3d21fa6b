package trace

import (
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestKindFactsForce checks the kind rule of the steps (grammar/values_kinds.go): a
// list, dict and set that a line changes in place without storing them keep their
// kinds (any items), where one the line stores may become anything.
func TestKindFactsForce(t *testing.T) {
	src := "def f(xs, d, s, ys):\n    xs.sort()\n    d.clear()\n    s.add(1)\n    ys = ys.pop()\n    return ys\n"
	rec, prog := recordFacts(t, "kinds", src, "f([2, 1], {'a': 1}, set(), [5])")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepOver}
	seen := 0
	for i := 1; i+1 < len(fwd.Nodes); i++ {
		prev, next := fwd.Nodes[i].State(), fwd.Nodes[i+1].State()
		if prev.Event != grammar.EventLine || next.Event != grammar.EventLine {
			continue
		}
		text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("line %d: the truth %q is rejected", prev.Loc.Line, text)
		}
		var changed, other string
		switch prev.Loc.Line {
		case 2:
			changed, other = `"xs": "[1, 2]"`, `"xs": "{1, 2}"`
		case 3:
			changed, other = `"d": "{}"`, `"d": "[]"`
		case 4:
			changed, other = `"s": "{1}"`, `"s": "1"`
		case 5:
			changed, other = `"ys": "5"`, `"ys": "'5'"` // stored: any value
		default:
			continue
		}
		if !strings.Contains(text, changed) {
			t.Fatalf("line %d: %q does not show %s", prev.Loc.Line, text, changed)
		}
		seen++
		w := strings.Replace(text, changed, other, 1)
		if got, want := accepts(prog, rec.Context, fwd.Dir, prev, a, w), prev.Loc.Line == 5; got != want {
			t.Errorf("line %d: %q accepted %v, want %v", prev.Loc.Line, w, got, want)
		}
	}
	if seen != 4 {
		t.Fatalf("%d of the 4 lines checked", seen)
	}
}
