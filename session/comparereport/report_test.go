package comparereport

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

const countSrc = "def count(s, t):\n    n = 0\n    for c in s:\n        if c == t:\n            n += 1\n    return n\n"

func line(n int, locals ...string) session.Outcome {
	st := grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: n}, Locals: grammar.Locals{}}
	for i := 0; i+1 < len(locals); i += 2 {
		st.Locals = append(st.Locals, grammar.Var{Name: locals[i], Repr: locals[i+1]})
	}
	return session.Outcome{State: st}
}

func ret(n int, v string) session.Outcome {
	return session.Outcome{State: grammar.State{Event: grammar.EventReturn, Loc: grammar.Loc{Line: n}, Value: v}}
}

func act(spec string) *grammar.Action {
	a, err := grammar.ParseActionSpec(spec)
	if err != nil {
		panic(err)
	}
	return &a
}

// handMade is a report with an exact entry, an exact step, a step whose variable n
// differs and holds a <script> repr, a step with a different line and a return, an
// exit mismatch and a step the predicted side could not take.
func handMade() Report {
	entry := session.Outcome{State: grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{{Name: "s", Repr: "'berry'"}, {Name: "t", Repr: "'r'"}}}}
	return Report{
		Program: "count.py", Entry: `count("berry", "r")`, Model: "m", Actions: "step_into,...",
		Context: grammar.NewContext("", countSrc),
		Steps: []Step{
			NewStep(nil, entry, entry, nil),
			NewStep(act("step_into"), line(2, "s", "'berry'", "t", "'r'"), line(2, "s", "'berry'", "t", "'r'"), nil),
			NewStep(act("step_over"), line(3, "s", "'berry'", "t", "'r'", "n", "'<script>alert(1)</script>'"), line(3, "s", "'berry'", "t", "'r'", "n", "0"), nil),
			NewStep(act("step_return"), ret(5, "3"), ret(6, "2"), nil),
			NewStep(act("continue"), session.Outcome{Exit: grammar.ExitError}, session.Outcome{Exit: grammar.ExitNormal}, nil),
			{Action: act("step_into"), Err: session.ErrEnded.Error()},
		},
	}
}

func TestSummaryCounts(t *testing.T) {
	sum := handMade().Summarize()
	if !sum.Entry {
		t.Error("entry should match")
	}
	if sum.Steps != 4 || sum.Exact != (Count{1, 4}) {
		t.Errorf("steps %d exact %v, want 4 and 1/4", sum.Steps, sum.Exact)
	}
	want := map[string]Count{
		"event": {3, 3}, "line": {2, 3}, "locals": {1, 2}, "variables": {4, 5}, "value": {0, 1}, "exit": {0, 1},
	}
	for _, c := range sum.Components() {
		if c.Count != want[c.Name] {
			t.Errorf("%s: %v, want %v", c.Name, c.Count, want[c.Name])
		}
	}
	if !strings.Contains(sum.Stopped, "step 5") || !strings.Contains(sum.Stopped, "ended") {
		t.Errorf("stopped = %q", sum.Stopped)
	}
}

func TestRowsHighlightDifferingVariables(t *testing.T) {
	r := handMade()
	rows := r.Steps[2].Rows(r.Context)
	got := map[string]bool{}
	for _, row := range rows {
		got[row.Label] = row.Differs
	}
	if !got["n"] || got["s"] || got["t"] || got["event"] || got["line"] {
		t.Errorf("differs: %v; want only n", got)
	}
	// A variable only one side has shows as absent on the other side.
	s := NewStep(act("step_over"), line(3, "a", "1"), line(3, "b", "2"), nil)
	for _, row := range s.Rows(r.Context) {
		if row.Variable && !row.Differs {
			t.Errorf("%s should differ", row.Label)
		}
	}
	// The line row carries the source text.
	if rows[1].Label != "line" || rows[1].Predicted != "3  for c in s:" {
		t.Errorf("line row = %+v", rows[1])
	}
}

func TestTextPlainMarksDifferences(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, handMade(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "\x1b[") {
		t.Error("plain text has ANSI escapes")
	}
	var marked []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "!") {
			marked = append(marked, strings.Fields(l)[1])
		}
	}
	if want := "n line value exit"; strings.Join(marked, " ") != want {
		t.Errorf("marked rows %q, want %q\n%s", marked, want, out)
	}
	for _, want := range []string{"step 2  step_over", "summary: 4 step(s), 1/4 exact (25%); entry matches", "variables 4/5", "stopped at step 5", "3  for c in s:"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestTextColorAndControlCharacters(t *testing.T) {
	r := handMade()
	r.Steps = append(r.Steps[:2:2], NewStep(act("step_over"), line(3, "x", "'\x1b[2J'"), line(3, "x", "'a'"), errors.New("already at the first state")))
	var b bytes.Buffer
	if err := WriteText(&b, r, TextOptions{Color: true, Width: 12}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, ansiRed) || !strings.Contains(out, ansiGreen) {
		t.Errorf("no colours in\n%s", out)
	}
	if strings.Contains(out, "\x1b[2J") {
		t.Error("a repr's escape sequence reached the terminal")
	}
	if strings.Contains(out, "\n!") {
		t.Error("colour output should not need ! markers")
	}
	if !strings.Contains(out, "the recorded side did not move") {
		t.Errorf("no recorded error in\n%s", out)
	}
	if strings.Contains(out, "def count(s, t):  ") {
		t.Error("width not applied")
	}
}

func TestHTMLEscapesAndIsSelfContained(t *testing.T) {
	r := handMade()
	r.Context = grammar.NewContext("", countSrc+"print('</pre><script>x</script>')\n")
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(strings.ToLower(out), "<script") {
		t.Errorf("an unescaped <script> in the page")
	}
	if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the repr is not shown escaped")
	}
	for _, bad := range []string{"http://", "https://", "<link", "src=", "@import"} {
		if strings.Contains(out, bad) {
			t.Errorf("external resource %q in the page", bad)
		}
	}
	for _, want := range []string{"<!DOCTYPE html>", "<style>", `<tr class="diff"><td class="l">n</td>`, "1/4", "for c in s:", "step_return", "stopped"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if n := strings.Count(out, `<tbody class="step"`); n != 6 {
		t.Errorf("%d step groups, want 6", n)
	}
}
