package main

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
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

func TestConstraintsFlag(t *testing.T) {
	ctx := grammar.NewContext("", "x = 1\n")
	if p, err := programFor("grammar", ctx, trace.ParseResult{}); p != nil || err != nil {
		t.Errorf("grammar: %v, %v; want no facts", p, err)
	}
	if p, err := programFor("program", ctx, trace.ParseResult{FactsError: "boom"}); p != nil || err != nil {
		t.Errorf("program with a failed analysis: %v, %v; want the grammar alone, no error", p, err)
	}
	if _, err := programFor("bogus", ctx, trace.ParseResult{}); err == nil {
		t.Error("--constraints bogus was accepted")
	}
}
