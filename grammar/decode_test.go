package grammar

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// checkErr fails unless err is a *DecodeError with an offset within text.
func checkErr(t *testing.T, what string, err error, text string) *DecodeError {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("%s: err = %v (%T), want a *DecodeError", what, err, err)
	}
	if de.Offset < 0 || de.Offset > len(text) || de.Expected == "" || de.Found != excerpt(text, de.Offset) {
		t.Fatalf("%s: bad error %+v for text of %d bytes", what, de, len(text))
	}
	return de
}

func TestDecodeErrorMessage(t *testing.T) {
	ctx := NewContext("", countSource)
	prev := State{Event: EventLine, Loc: Loc{Line: 2}, Locals: Locals{{"s", "'berry'"}}, Frame: 1}
	text := `<|line_sep|>{"n": "0", "..": ".."}{"n": "1"}<|src_sep|>  3|     for c in s:<|frame_sep|>`
	_, _, _, err := DecodeNext(ctx, &prev, text)
	if err == nil || err.Error() != `offset 34: expected "<|src_sep|>", found "{\"n\": \"1\"}"` {
		t.Fatalf("err = %v", err)
	}
	_, _, _, err = DecodeNext(ctx, &prev, "")
	if err == nil || err.Error() != `offset 0: expected one of "<|call_sep|>", "<|line_sep|>", "<|return_sep|>", "<|exception_sep|>", "<|inv_line_call_sep|>", "<|exit_sep|>", found end of text` {
		t.Fatalf("err = %v", err)
	}
}

func TestDecodeNextErrors(t *testing.T) {
	ctx := NewContext("", countSource)
	line := State{Event: EventLine, Loc: Loc{Line: 2}, Locals: Locals{{"s", "'berry'"}}, Frame: 1}
	ret := State{Event: EventReturn, Loc: Loc{Line: 6}, Value: "2", Frame: 1}
	cases := []struct {
		prev     *State
		in       string
		off      int
		expected string
	}{
		{&line, `<|call_sep|>{"..": ".."}<|src_sep|>  1| def count(s, t):<|frame_sep|>`, 13, "call state"},
		{nil, `<|line_sep|>{"..": ".."}<|src_sep|>  2|     n = 0<|frame_sep|>`, 13, "no previous"},
		{&ret, `<|line_sep|>{"..": ".."}<|src_sep|>  2|     n = 0<|frame_sep|>`, 13, "no previous"},
		{&line, `<|line_sep|>{}<|src_sep|>  2|     n = 0<|arg_sep|>"1"<|frame_sep|>`, 39, `"<|frame_sep|>"`},
		{&line, `<|line_sep|>{}<|src_sep|>  2|     n = 1<|frame_sep|>`, 25, "a source line"},
		{&line, `<|line_sep|>{}<|src_sep|>  2|     n =`, 37, `rest of source line "  2|     n = 0"`},
		{&line, `<|return_sep|><|src_sep|>  6|     return n<|frame_sep|>`, 42, `"<|arg_sep|>"`},
		{&line, `<|return_sep|><|src_sep|>  6|     return n<|arg_sep|>2<|frame_sep|>`, 53, "a value"},
		{&line, `<|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"2"`, 56, `"<|frame_sep|>"`},
		{&line, `<|exit_sep|>fine<|frame_sep|>`, 12, `"normal"`},
		{&line, `<|exit_sep|>normal`, 18, `"<|frame_sep|>"`},
		{&line, `<|line_sep|><|src_sep|>`, 12, `"{"`},
		{&line, `<|line_sep|>{"n": "0"}  2|     n = 0`, 22, `"<|src_sep|>"`},
		{&line, `<|action_sep|><|step_into|>`, 0, "one of"},
	}
	for _, c := range cases {
		_, _, _, err := DecodeNext(ctx, c.prev, c.in)
		de := checkErr(t, c.in, err, c.in)
		if de.Offset != c.off || !strings.Contains(de.Expected, c.expected) {
			t.Errorf("DecodeNext(%q) = %v; want offset %d, expected containing %s", c.in, err, c.off, c.expected)
		}
	}
	// What follows a state's <|frame_sep|> is left alone.
	s, _, n, err := DecodeNext(ctx, &line, `<|line_sep|>{"..": ".."}<|src_sep|>  2|     n = 0<|frame_sep|><|action_sep|>junk`)
	if err != nil || n != 62 || !s.Equal(line) || s.Frame != 1 {
		t.Fatalf("DecodeNext = %+v %d %v", s, n, err)
	}
}

func TestDecodeActionErrors(t *testing.T) {
	ctx := NewContext("", countSource)
	cases := []struct {
		in       string
		off      int
		expected string
	}{
		{``, 0, `"<|action_sep|>"`},
		{`<|action_sep|>`, 14, "an action token"},
		{`<|action_sep|><|line_sep|>`, 14, "an action token"},
		{`<|action_sep|><|breakpoint|>`, 28, "a source line"},
		{`<|action_sep|><|breakpoint|>  2|     n = 0<|src_sep|>`, 53, "a source line"},
		{`<|action_sep|><|breakpoint|>  2|     n = 0<|frame_sep|>`, 42, `"<|src_sep|>"`},
		{`<|action_sep|><|breakpoint|>  2|     n = 0<|src_sep|>  2|     n = 0`, 53, "not already"},
	}
	for _, c := range cases {
		_, _, err := DecodeAction(ctx, c.in)
		de := checkErr(t, c.in, err, c.in)
		if de.Offset != c.off || !strings.Contains(de.Expected, c.expected) {
			t.Errorf("DecodeAction(%q) = %v; want offset %d, expected containing %s", c.in, err, c.off, c.expected)
		}
	}
	a, n, err := DecodeAction(ctx, `<|action_sep|><|breakpoint|>  2|     n = 0<|src_sep|>  6|     return n`)
	if err != nil || n != 70 || !a.Equal(Action{Kind: Breakpoint, Lines: []Loc{{Line: 2}, {Line: 6}}}) {
		t.Fatalf("DecodeAction = %v %d %v", a, n, err)
	}
}

func TestDecodeTrajectoryErrors(t *testing.T) {
	head := TokenTraceContextStart + NewContext("", countSource).Text()
	call := `<|call_sep|>{"s": "''", "t": "''"}<|src_sep|>  1| def count(s, t):<|frame_sep|>`
	cases := []struct {
		in       string
		expected string
	}{
		{head + `<|forward|><|exit_sep|>normal<|frame_sep|>`, "one of"},
		{head + `<|forward|><|inv_line_call_sep|><|src_sep|>  1| def count(s, t):<|frame_sep|>`, "forward trajectory"},
		{head + `<|forward|>` + call + `<|action_sep|><|inv_step_over|>` + call, "forward direction"},
		{head + `<|inverse|>` + call + `<|action_sep|><|step_over|>` + call, "inverse direction"},
		{head + `<|forward|>` + call + `<|action_sep|><|continue|><|exit_sep|>normal<|frame_sep|>` + call, "end of text"},
		{head + `<|forward|>` + call + `<|action_sep|><|continue|>`, "one of"},
		{head + `<|forward|>` + call + call, `"<|action_sep|>"`},
		{head + `<|forward|>` + call + `<|action_sep|><|step_into|><|inv_line_call_sep|><|src_sep|>  1| def count(s, t):<|frame_sep|>`, "forward trajectory"},
	}
	for _, c := range cases {
		_, err := DecodeTrajectory(c.in)
		de := checkErr(t, c.in, err, c.in)
		if !strings.Contains(de.Expected, c.expected) {
			t.Errorf("DecodeTrajectory(%q) = %v; want expected containing %s", c.in, err, c.expected)
		}
	}
}

// TestTruncations decodes every prefix of valid texts: each is either an error with an
// offset within the prefix, or (cut right after a state) a shorter valid trajectory.
func TestTruncations(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	texts := []string{specExample}
	for range 60 {
		text, err := EncodeTrajectory(randomTrajectory(r))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, text)
	}
	for _, text := range texts {
		for k := 0; k < len(text); k++ {
			cut := text[:k]
			tr, err := DecodeTrajectory(cut)
			if err == nil {
				if !strings.HasSuffix(cut, TokenFrameSep) {
					t.Fatalf("prefix %q decoded", cut)
				}
				if again, _ := EncodeTrajectory(tr); again != cut {
					t.Fatalf("prefix %q re-encodes as %q", cut, again)
				}
				continue
			}
			checkErr(t, "prefix", err, cut)
		}
	}
	// Every proper prefix of a single state or action fails.
	ctx := NewContext("", countSource)
	tr := countTrajectory()
	e := NewEncoder(ctx, Forward)
	e.Start(tr.Start)
	prev := tr.Start
	for _, st := range tr.Steps {
		a, _ := e.Action(st.Action)
		s, _ := e.State(st.State)
		for k := 0; k < len(s); k++ {
			_, _, _, err := DecodeNext(ctx, &prev, s[:k])
			checkErr(t, "state prefix", err, s[:k])
		}
		for k := 0; k < len(a); k++ {
			_, _, err := DecodeAction(ctx, a[:k])
			checkErr(t, "action prefix", err, a[:k])
		}
		prev = st.State
	}
}

// TestGarbage decodes random bytes and random sequences of grammar pieces.
func TestGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	ctx := NewContext("", countSource)
	prev := countTrajectory().Steps[0].State
	pieces := append(append([]string(nil), SpecialTokens...), `{`, `}`, `"`, `\`, `"..": ".."`, `"n": "0"`, `, `, `: `,
		"  2|     n = 0", "  6|     return n", "normal", "\n", "  1| def count(s, t):\n", "é", "\xff")
	for range 20000 {
		var b strings.Builder
		if r.IntN(2) == 0 {
			for n := r.IntN(40); n > 0; n-- {
				b.WriteByte(byte(r.IntN(256)))
			}
		} else {
			if r.IntN(2) == 0 {
				b.WriteString(TokenTraceContextStart)
			}
			for n := r.IntN(20); n > 0; n-- {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
		}
		text := b.String()
		if _, err := DecodeTrajectory(text); err != nil {
			checkErr(t, "garbage trajectory", err, text)
		}
		if _, _, n, err := DecodeNext(ctx, &prev, text); err != nil {
			checkErr(t, "garbage state", err, text)
		} else if n > len(text) {
			t.Fatalf("consumed %d of %d", n, len(text))
		}
		if _, _, err := DecodeAction(ctx, text); err != nil {
			checkErr(t, "garbage action", err, text)
		}
	}
}

// TestSpecialTokenTextInSource checks that source lines and reprs holding the text of
// special tokens still round-trip (SRC is matched against the context).
func TestSpecialTokenTextInSource(t *testing.T) {
	src := "x = '<|frame_sep|>'\ny = '<|src_sep|>  1| x'\nz = x<|arg_sep|>\n"
	ctx := NewContext("", src)
	l := Locals{{"x", "'<|frame_sep|>'"}, {"<|src_sep|>", "'<|frame_sep|>  2| y'"}}
	tr := Trajectory{Context: ctx, Direction: Forward,
		Start: State{Event: EventLine, Loc: Loc{Line: 1}, Locals: l, Frame: 1},
		Steps: []Step{
			{Action: Action{Kind: Breakpoint, Lines: []Loc{{Line: 2}, {Line: 1}, {Line: 3}}}, State: State{Event: EventReturn, Loc: Loc{Line: 3}, Value: "'<|frame_sep|>'"}},
		}}
	text, err := EncodeTrajectory(tr)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeTrajectory(text)
	if err != nil || !back.Equal(tr) {
		t.Fatalf("round trip: %v\n%q", err, text)
	}
}
