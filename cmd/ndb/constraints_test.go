package main

import (
	"flag"
	"io"
	"testing"

	"github.com/ndb-project/ndb/session"
)

func TestConstraintsFlag(t *testing.T) {
	for _, c := range []struct {
		args        []string
		grammarOnly bool
		ok          bool
	}{
		{nil, false, true}, // the program facts by default
		{[]string{"--constraints", "program"}, false, true},
		{[]string{"--constraints", "grammar"}, true, true},
		{[]string{"--constraints", "bogus"}, false, false},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var opt session.Options
		modelFlags(fs, &opt, "seed")
		err := fs.Parse(c.args)
		if (err == nil) != c.ok || (c.ok && opt.GrammarOnly != c.grammarOnly) {
			t.Errorf("%v: GrammarOnly %v, error %v", c.args, opt.GrammarOnly, err)
		}
	}
	if _, err := parseConstraints("bogus"); err == nil {
		t.Error("--constraints bogus was accepted")
	}
}
