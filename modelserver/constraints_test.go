package modelserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/eval"
)

func countFacts(t *testing.T) *grammar.Facts {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "grammar", "testdata", "count_facts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f grammar.Facts
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

// The program facts and the grammar-only switch travel with a session's open
// request, unchanged by the wire, so that ndb-infer constrains its predictions as an
// in-process session does (issue 12 through issue 19).
func TestOpenRequestCarriesTheConstraints(t *testing.T) {
	facts := countFacts(t)
	prog := &session.Program{Path: "count.py", Entry: "count('berry', 'r')", Parsed: trace.ParseResult{Facts: facts}}
	for _, grammarOnly := range []bool{false, true} {
		p := openParams(Model{Dir: "/m"}, prog, session.Options{GrammarOnly: grammarOnly})
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back OpenParams
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if back.GrammarOnly != grammarOnly {
			t.Errorf("GrammarOnly %v arrived as %v", grammarOnly, back.GrammarOnly)
		}
		if !reflect.DeepEqual(back.Parsed.Facts, facts) {
			t.Errorf("the program facts changed on the wire")
		}
	}
}

// An evaluation's predictor sends each prompt's facts (looked up in ndb) and the
// grammar-only switch with the prompt (evalcmd.Constrainable).
func TestPredictorSendsTheFacts(t *testing.T) {
	p := fakePool(t)
	pr, err := p.NewPredictor("m", "/m", "cpu", "", Sampling{})
	if err != nil {
		t.Fatal(err)
	}
	facts := countFacts(t)
	src, err := os.ReadFile(filepath.Join("..", "testdata", "programs", "count.py"))
	if err != nil {
		t.Fatal(err)
	}
	gp, err := grammar.NewProgram(grammar.NewContext("", string(src)), facts)
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(context.Context, eval.Prompt) *grammar.Program { return gp }
	for _, c := range []struct {
		p           eval.Predictor
		line        int
		grammarOnly bool
	}{
		{pr, -1, false},
		{pr.Constrained("m [program]", lookup, false, true), len(facts.Codes), false},
		{pr.Constrained("m [grammar]", lookup, true, false), len(facts.Codes), true},
		{pr.Constrained("m [none]", func(context.Context, eval.Prompt) *grammar.Program { return nil }, false, true), -1, false},
	} {
		out, err := c.p.Predict(context.Background(), eval.Prompt{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != 1 || out[0].State.Loc.Line != c.line || out[0].TooLong != c.grammarOnly {
			t.Errorf("%s: the server got %+v, want facts of %d codes, grammar alone %v", c.p.Name(), out, c.line, c.grammarOnly)
		}
	}
}
