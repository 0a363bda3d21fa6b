package grammar

import (
	"strings"
	"testing"
)

func TestParseActionSpec(t *testing.T) {
	good := map[string]Action{
		"step_into":               {Kind: StepInto},
		" step_over ":             {Kind: StepOver},
		"step_return":             {Kind: StepReturn},
		"continue":                {Kind: Continue},
		"inv_step_into":           {Kind: InvStepInto},
		"inv_step_over":           {Kind: InvStepOver},
		"inv_step_call":           {Kind: InvStepCall},
		"breakpoint:5":            {Kind: Breakpoint, Lines: []Loc{{Line: 5}}},
		"breakpoint:5+12+1000":    {Kind: Breakpoint, Lines: []Loc{{Line: 5}, {Line: 12}, {Line: 1000}}},
		"breakpoint:a.py:3+b:c:4": {Kind: Breakpoint, Lines: []Loc{{File: "a.py", Line: 3}, {File: "b:c", Line: 4}}},
	}
	for s, want := range good {
		a, err := ParseActionSpec(s)
		if err != nil || !a.Equal(want) {
			t.Errorf("ParseActionSpec(%q) = %v, %v; want %v", s, a, err, want)
		}
		if back, err := ParseActionSpec(a.Spec()); err != nil || !back.Equal(a) || a.Spec() != strings.TrimSpace(s) {
			t.Errorf("Spec round trip of %q: %q", s, a.Spec())
		}
	}
	for _, s := range []string{"", "step", "breakpoint", "breakpoint:", "breakpoint:0", "breakpoint:-1", "breakpoint:+3",
		"breakpoint:03", "breakpoint:1+", "breakpoint:1+1", "breakpoint:x", "breakpoint::3", "STEP_INTO", "inv_line_call", "step_into:3"} {
		if a, err := ParseActionSpec(s); err == nil {
			t.Errorf("ParseActionSpec(%q) = %v, want an error", s, a)
		}
	}
}

func TestActionValidate(t *testing.T) {
	for _, a := range []Action{{}, {Kind: 99}, {Kind: StepInto, Lines: []Loc{{Line: 1}}}, {Kind: Breakpoint}} {
		if a.Validate() == nil {
			t.Errorf("Validate(%+v) succeeded", a)
		}
	}
}

func TestTokens(t *testing.T) {
	if len(SpecialTokens) != 21 {
		t.Fatalf("%d special tokens", len(SpecialTokens))
	}
	seen := map[string]bool{}
	for _, tok := range SpecialTokens {
		if seen[tok] || !IsSpecialToken(tok) || !strings.HasPrefix(tok, "<|") || !strings.HasSuffix(tok, "|>") {
			t.Errorf("bad token %q", tok)
		}
		seen[tok] = true
	}
	for _, k := range AllActions {
		if got, ok := ActionKindOfToken(k.Token()); !ok || got != k || k.Token() != "<|"+k.String()+"|>" {
			t.Errorf("action %v token %q", k, k.Token())
		}
	}
	for e := EventCall; e <= EventInvLineCall; e++ {
		if got, ok := EventOfToken(e.Token()); !ok || got != e || e.Token() != "<|"+e.String()+"_sep|>" {
			t.Errorf("event %v token %q", e, e.Token())
		}
	}
	for _, d := range []Direction{Forward, Inverse} {
		if got, ok := DirectionOfToken(d.Token()); !ok || got != d || d.Token() != "<|"+d.String()+"|>" {
			t.Errorf("direction %v token %q", d, d.Token())
		}
	}
	if Event(0).Token() != "" || ActionKind(0).Token() != "" || Direction(0).Token() != "" {
		t.Error("invalid values have tokens")
	}
	if !ContainsSpecialToken("x = '<|frame_sep|>'") || ContainsSpecialToken("a <| b |> c") {
		t.Error("ContainsSpecialToken")
	}
}
