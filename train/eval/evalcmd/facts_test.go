package evalcmd

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

func TestContextSourceKeepsLineNumbers(t *testing.T) {
	ctx, err := grammar.NewContextFiles(grammar.ContextFile{Lines: []grammar.SourceLine{{N: 2, Text: "def f(x):"}, {N: 4, Text: "    return x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := contextSource(ctx), "\ndef f(x):\n\n    return x\n"; got != want {
		t.Errorf("source %q, want %q", got, want)
	}
}
