package neural

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
)

// A history that does not fit starts again from its last state; a prompt that does
// not fit even then says so.
func TestPrompterRestartsAHistoryThatDoesNotFit(t *testing.T) {
	tok, err := tokenizer.LoadFile("../../testdata/tinymodel/tokenizer.json")
	if err != nil {
		t.Fatal(err)
	}
	gctx := grammar.NewContext("", "def f(n):\n    n = n + 1\n    n = n + 1\n    return n\n")
	state := func(line int, n string) grammar.State {
		return grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: line}, Frame: 1, Locals: grammar.Locals{{Name: "n", Repr: n}}}
	}
	start := grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Frame: 1, Locals: grammar.Locals{{Name: "n", Repr: "0"}}}
	step := grammar.Action{Kind: grammar.StepInto}
	tr := grammar.Trajectory{Context: gctx, Direction: grammar.Forward, Start: start,
		Steps: []grammar.Step{{Action: step, State: state(2, "0")}, {Action: step, State: state(3, "1")}}}

	full, used, fits, err := Prompter{Tok: tok, Room: 1 << 20}.Prompt(tr, step)
	if err != nil || !fits || len(used.Steps) != 2 {
		t.Fatalf("a prompt with room: %d steps kept, fits %v, %v", len(used.Steps), fits, err)
	}
	restarted, _, _, err := Prompter{Tok: tok, Room: 0}.Prompt(Restart(tr), step)
	if err != nil {
		t.Fatal(err)
	}
	p := Prompter{Tok: tok, Room: len(restarted)}
	ids, used, fits, err := p.Prompt(tr, step)
	if err != nil || !fits || len(used.Steps) != 0 || !used.Start.Locals.Equal(state(3, "1").Locals) || used.Start.Loc.Line != 3 {
		t.Fatalf("a history that does not fit: start %+v, %d steps, fits %v, %v", used.Start, len(used.Steps), fits, err)
	}
	if len(ids) != len(restarted) || len(ids) >= len(full) {
		t.Errorf("restarted prompt of %d tokens (full %d, want %d)", len(ids), len(full), len(restarted))
	}
	if _, _, fits, _ := (Prompter{Tok: tok, Room: len(restarted) - 1}).Prompt(tr, step); fits {
		t.Error("a prompt longer than the room fits")
	}
}
