package grammar

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec returns the action in the command-line form that ParseActionSpec reads:
// the action's name ("step_into", ...), or for a breakpoint "breakpoint:" and its lines
// joined by "+", each written LINE, or FILE:LINE when the location names a file.
func (a Action) Spec() string {
	if a.Kind != Breakpoint {
		return a.Kind.String()
	}
	var b strings.Builder
	b.WriteString("breakpoint:")
	for i, l := range a.Lines {
		if i > 0 {
			b.WriteByte('+')
		}
		if l.File != "" {
			b.WriteString(l.File)
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(l.Line))
	}
	return b.String()
}

// String returns a.Spec().
func (a Action) String() string { return a.Spec() }

// ParseActionSpec parses the command-line form of an action: one of step_into,
// step_over, step_return, continue, inv_step_into, inv_step_over, inv_step_call, or
// breakpoint:LINE[+LINE...] where LINE is a positive decimal line number (giving
// Loc{Line: n}) or FILE:LINE for a context of several files (the file is everything
// before the last ":"; a file name containing "+" cannot be written). Surrounding
// spaces are ignored. The lines must be distinct.
func ParseActionSpec(s string) (Action, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "breakpoint:"); ok {
		a := Action{Kind: Breakpoint}
		for _, item := range strings.Split(rest, "+") {
			var loc Loc
			num := item
			if i := strings.LastIndexByte(item, ':'); i >= 0 {
				loc.File, num = item[:i], item[i+1:]
				if loc.File == "" {
					return Action{}, fmt.Errorf("grammar: action %q: empty file name in breakpoint location %q", s, item)
				}
			}
			n, ok := parseLineNumber(num)
			if !ok {
				return Action{}, fmt.Errorf("grammar: action %q: breakpoint location %q is not a positive line number (LINE or FILE:LINE)", s, item)
			}
			loc.Line = n
			a.Lines = append(a.Lines, loc)
		}
		if err := a.Validate(); err != nil {
			return Action{}, fmt.Errorf("grammar: action %q: %w", s, err)
		}
		return a, nil
	}
	k, ok := ParseActionKind(s)
	if !ok || k == Breakpoint {
		return Action{}, fmt.Errorf("grammar: unknown action %q: want one of step_into, step_over, step_return, continue, inv_step_into, inv_step_over, inv_step_call, breakpoint:LINE[+LINE...]", s)
	}
	return Action{Kind: k}, nil
}

// parseLineNumber parses a positive decimal number of at most 9 digits with no sign or
// leading zero.
func parseLineNumber(s string) (int, bool) {
	if s == "" || len(s) > 9 || s[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// Validate reports whether the action can be written: a valid kind; for a breakpoint
// at least one location, all distinct; for any other kind no locations.
func (a Action) Validate() error {
	if a.Kind.Token() == "" {
		return fmt.Errorf("grammar: invalid action kind %d", a.Kind)
	}
	if a.Kind != Breakpoint {
		if len(a.Lines) > 0 {
			return fmt.Errorf("grammar: action %s takes no lines", a.Kind)
		}
		return nil
	}
	if len(a.Lines) == 0 {
		return fmt.Errorf("grammar: a breakpoint needs at least one line")
	}
	for i, l := range a.Lines {
		for _, m := range a.Lines[:i] {
			if l == m {
				return fmt.Errorf("grammar: breakpoint line %s appears twice", l)
			}
		}
	}
	return nil
}

// String returns "LINE" or "FILE:LINE".
func (l Loc) String() string {
	if l.File == "" {
		return strconv.Itoa(l.Line)
	}
	return l.File + ":" + strconv.Itoa(l.Line)
}

// Equal reports whether two actions are the same: same kind and the same breakpoint
// locations in the same order (nil and empty are equal).
func (a Action) Equal(b Action) bool {
	if a.Kind != b.Kind || len(a.Lines) != len(b.Lines) {
		return false
	}
	for i := range a.Lines {
		if a.Lines[i] != b.Lines[i] {
			return false
		}
	}
	return true
}
