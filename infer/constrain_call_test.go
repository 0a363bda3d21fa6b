package infer

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

func TestCallLocIsTheEnclosingFunctionsFirstLine(t *testing.T) {
	src := `import functools

def outer(xs):
    total = 0
    for x in xs:
        if x:

            total += x
    return total

@functools.lru_cache
@staticmethod
def cached(n):
    def inner(k):
        return k + 1
    return inner(n)
`
	ctx := grammar.NewContext("", src)
	for _, c := range []struct {
		line, want int // want 0: no call location (module level)
	}{
		{4, 3},   // a statement of outer
		{8, 3},   // nested blocks, after a blank line
		{9, 3},   // the return
		{3, 3},   // the def line itself
		{13, 11}, // a decorated def: its first decorator
		{16, 11},
		{15, 14}, // inside a nested function
		{1, 0},   // module level
		{99, 0},  // outside the context
	} {
		got, ok := callLoc(ctx, grammar.Loc{Line: c.line})
		if c.want == 0 {
			if ok {
				t.Errorf("line %d: call location %d, want none", c.line, got.Line)
			}
			continue
		}
		if !ok || got.Line != c.want {
			t.Errorf("line %d: call location %d (%v), want %d", c.line, got.Line, ok, c.want)
		}
	}
}
