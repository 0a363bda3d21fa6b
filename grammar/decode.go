package grammar

import (
	"strconv"
	"strings"
)

// decoder reads text against a context's index. Offsets in its errors are offsets in
// text.
type decoder struct {
	text string
	ix   *contextIndex
}

// stateTokens are the tokens that can open a state or an exit state.
var stateTokens = []string{TokenCallSep, TokenLineSep, TokenReturnSep, TokenExceptionSep, TokenInvLineCallSep, TokenExitSep}

// DecodeNext decodes one state or exit state from the start of text: the bytes a model
// writes right after an action, up to and including the state's `<|frame_sep|>`
// (anything after it is left alone). It returns the state, or the exit when text holds
// an exit state (the State is then zero), and the number of bytes consumed.
//
// prev is the state the action started from (nil when there is none). A locals object
// ending with the diff marker `"..": ".."` is merged with prev's locals: variables
// written in the diff replace prev's value in place, new ones are appended in the order
// written (a diff cannot place a new variable earlier; the encoder writes the full form
// whenever that would lose the true order). The marker is an error in a call state and
// when prev is nil or has no locals. The decoded State.Frame is prev.Frame when the
// marker was used (the text says it is the same frame) and 0 (unknown) otherwise;
// Func is never set. In a single-file context Loc.File is "".
//
// Decoding is strict about the bytes (tokens, the canonical JSON form, SRC exactly as
// in the context) but not about what a diff says: a diff may repeat an unchanged
// variable, and a marker is accepted whatever action led here (the text does not say
// which frame a state is in). Malformed or truncated text gives a *DecodeError with
// the byte offset in text; no input makes it panic.
func DecodeNext(ctx Context, prev *State, text string) (State, Exit, int, error) {
	d := decoder{text: text, ix: ctx.index()}
	s, x, marker, n, err := d.state(0, prev, true)
	if err != nil {
		return State{}, "", 0, err
	}
	if marker {
		s.Frame = prev.Frame
	}
	return s, x, n, nil
}

// DecodeAction decodes one action from the start of text: `<|action_sep|>` and an
// action token, and for a breakpoint its SRCs separated by `<|src_sep|>`. A
// breakpoint's list ends at the end of text or at the token opening a state or exit
// state. It returns the action (breakpoint locations as Lookup gives them) and the
// number of bytes consumed; malformed text gives a *DecodeError.
func DecodeAction(ctx Context, text string) (Action, int, error) {
	d := decoder{text: text, ix: ctx.index()}
	a, n, err := d.action(0)
	if err != nil {
		return Action{}, 0, err
	}
	return a, n, nil
}

// DecodeHeader decodes the start of a trajectory, `<|trace_context_start|>` CONTEXT
// DIRECTION, and returns the context (indexed), the direction and the number of bytes
// consumed. The context must be in the exact form Context.Text writes.
func DecodeHeader(text string) (Context, Direction, int, error) {
	c, dir, n, err := decodeHeader(text)
	if err != nil {
		return Context{}, 0, 0, err
	}
	return c, dir, n, nil
}

// DecodeTrajectory decodes a whole trajectory: `<|trace_context_start|>` CONTEXT
// DIRECTION STATE (ACTION STATE)* [ACTION EXIT], and nothing after it. The context is
// read back from the text; states carry their full (merged) locals, so
// DecodeTrajectory(EncodeTrajectory(t)) equals t by Trajectory.Equal. Actions must
// belong to the trajectory's direction.
//
// Decision: Frame is set to synthetic ids so that encoding the result gives the same
// text back: negative numbers, shared by a state whose locals carry the diff marker
// and the state before it, distinct otherwise. They are not the tracer's frame ids.
func DecodeTrajectory(text string) (Trajectory, error) {
	ctx, dir, off, derr := decodeHeader(text)
	if derr != nil {
		return Trajectory{}, derr
	}
	d := decoder{text: text, ix: ctx.idx}
	t := Trajectory{Context: ctx, Direction: dir}
	frame := -1
	s, _, _, n, derr := d.state(off, nil, false)
	if derr != nil {
		return Trajectory{}, derr
	}
	if dir == Forward && s.Event == EventInvLineCall {
		return Trajectory{}, errAt(text, off, "a state of a forward trajectory")
	}
	s.Frame = frame
	t.Start = s
	prev := &t.Start
	off = n
	for off < len(text) {
		a, n, derr := d.action(off)
		if derr != nil {
			return Trajectory{}, derr
		}
		if a.Kind.Inverse() != (dir == Inverse) {
			return Trajectory{}, errAt(text, off+len(TokenActionSep), "an action of the "+dir.String()+" direction")
		}
		off = n
		s, x, marker, n, derr := d.state(off, prev, true)
		if derr != nil {
			return Trajectory{}, derr
		}
		if s.Event == EventInvLineCall && dir != Inverse {
			return Trajectory{}, errAt(text, off, "a state of a forward trajectory")
		}
		off = n
		if x != "" {
			t.Steps = append(t.Steps, Step{Action: a, Exit: x})
			if off < len(text) {
				return Trajectory{}, errAt(text, off, "end of text (nothing follows an exit state)")
			}
			break
		}
		if marker {
			s.Frame = prev.Frame
		} else {
			frame--
			s.Frame = frame
		}
		t.Steps = append(t.Steps, Step{Action: a, State: s})
		prev = &t.Steps[len(t.Steps)-1].State
	}
	return t, nil
}

// expect checks that tok is at off and returns the offset after it.
func (d *decoder) expect(off int, tok string) (int, *DecodeError) {
	if !hasPrefixAt(d.text, off, tok) {
		return off, errAt(d.text, off, strconv.Quote(tok))
	}
	return off + len(tok), nil
}

// state decodes a state or, when exitOK, an exit state at off. It reports whether the
// locals carried the diff marker.
func (d *decoder) state(off int, prev *State, exitOK bool) (s State, x Exit, marker bool, end int, err *DecodeError) {
	text := d.text
	toks := stateTokens
	if !exitOK {
		toks = stateTokens[:len(stateTokens)-1]
	}
	var tok string
	for _, t := range toks {
		if hasPrefixAt(text, off, t) {
			tok = t
			break
		}
	}
	if tok == "" {
		return s, "", false, off, errAt(text, off, quoteTokens(toks...))
	}
	i := off + len(tok)
	if tok == TokenExitSep {
		for _, e := range []Exit{ExitNormal, ExitError, ExitNever} {
			if hasPrefixAt(text, i, string(e)) {
				j, err := d.expect(i+len(e), TokenFrameSep)
				return s, e, false, j, err
			}
		}
		return s, "", false, i, errAt(text, i, `one of "normal", "error", "never"`)
	}
	s.Event, _ = EventOfToken(tok)
	if s.Event.HasLocals() {
		l, mk, j, err := parseLocals(text, i)
		if err != nil {
			return State{}, "", false, j, err
		}
		if mk {
			at := j - 1 - len(diffMarkerEntry)
			switch {
			case s.Event != EventLine:
				return State{}, "", false, at, errAt(text, at, `"}" (a call state always shows full locals)`)
			case prev == nil || !prev.Event.HasLocals():
				return State{}, "", false, at, errAt(text, at, `"}" (no previous state with locals to diff against)`)
			}
			l = mergeLocals(prev.Locals, l)
		}
		s.Locals, marker, i = l, mk, j
	}
	if i, err = d.expect(i, TokenSrcSep); err != nil {
		return State{}, "", false, i, err
	}
	term := TokenFrameSep
	if s.Event.HasValue() {
		term = TokenArgSep
	}
	if s.Loc, i, err = d.src(i, false, term); err != nil {
		return State{}, "", false, i, err
	}
	i += len(term)
	if s.Event.HasValue() {
		if s.Value, i, err = parseJSONString(text, i); err != nil {
			if i >= len(text) || text[i] != '"' {
				err.Expected = "a value (JSON string)"
			}
			return State{}, "", false, i, err
		}
		if i, err = d.expect(i, TokenFrameSep); err != nil {
			return State{}, "", false, i, err
		}
	}
	return s, "", marker, i, nil
}

// mergeLocals applies a diff to prev's locals: written variables replace their value
// in place, new ones are appended in the order written.
func mergeLocals(prev, diff Locals) Locals {
	m := make(Locals, len(prev), len(prev)+len(diff))
	copy(m, prev)
outer:
	for _, v := range diff {
		for k := range m[:len(prev)] {
			if m[k].Name == v.Name {
				m[k].Repr = v.Repr
				continue outer
			}
		}
		m = append(m, v)
	}
	return m
}

// actionTokenList is every action token, in spec order.
var actionTokenList = []string{TokenStepInto, TokenStepOver, TokenStepReturn, TokenBreakpoint, TokenContinue, TokenInvStepInto, TokenInvStepOver, TokenInvStepCall}

// bpTerms are what may follow a breakpoint's SRC.
var bpTerms = append([]string{TokenSrcSep}, stateTokens...)

// action decodes an action at off.
func (d *decoder) action(off int) (Action, int, *DecodeError) {
	i, err := d.expect(off, TokenActionSep)
	if err != nil {
		return Action{}, i, err
	}
	var a Action
	for _, t := range actionTokenList {
		if hasPrefixAt(d.text, i, t) {
			a.Kind, _ = ActionKindOfToken(t)
			i += len(t)
			break
		}
	}
	if a.Kind == 0 {
		return Action{}, i, errAt(d.text, i, "an action token")
	}
	if a.Kind != Breakpoint {
		return a, i, nil
	}
	for {
		at := i
		loc, j, err := d.src(i, true, bpTerms...)
		if err != nil {
			return Action{}, j, err
		}
		for _, l := range a.Lines {
			if l == loc {
				return Action{}, at, errAt(d.text, at, "a breakpoint line not already in the list")
			}
		}
		a.Lines = append(a.Lines, loc)
		i = j
		if !hasPrefixAt(d.text, i, TokenSrcSep) {
			return a, i, nil
		}
		i += len(TokenSrcSep)
	}
}

// src matches a SRC of the context at off, followed by one of terms (or by the end of
// text when atEnd). It returns the location and the offset where the SRC ends. When
// several SRCs fit (possible only if a line's text holds a special token), the longest
// wins.
func (d *decoder) src(off int, atEnd bool, terms ...string) (Loc, int, *DecodeError) {
	text, ix := d.text, d.ix
	best, bestEnd := Loc{}, -1
	if atEnd && len(text)-off <= ix.maxSrc {
		if l, ok := ix.loc[text[off:]]; ok {
			best, bestEnd = l, len(text)
		}
	}
	if bestEnd < 0 {
		for q := off; q < len(text); {
			k := strings.Index(text[q:], "<|")
			if k < 0 {
				break
			}
			p := q + k
			if p-off > ix.maxSrc {
				break
			}
			q = p + 1
			if l, ok := ix.loc[text[off:p]]; ok {
				for _, t := range terms {
					if hasPrefixAt(text, p, t) {
						best, bestEnd = l, p
						break
					}
				}
			}
		}
	}
	if bestEnd >= 0 {
		return best, bestEnd, nil
	}
	// No match: say as precisely as possible what went wrong.
	rest := text[off:]
	longest, partial := "", ""
	for _, loc := range ix.lines {
		s := ix.src[loc]
		switch {
		case strings.HasPrefix(rest, s) && len(s) > len(longest):
			longest = s
		case rest != "" && strings.HasPrefix(s, rest) && partial == "":
			partial = s
		}
	}
	switch {
	case longest != "":
		want := quoteTokens(terms...)
		if atEnd {
			want += " or end of text"
		}
		return Loc{}, off + len(longest), errAt(text, off+len(longest), want)
	case partial != "":
		return Loc{}, len(text), errAt(text, len(text), "the rest of source line "+strconv.Quote(partial))
	}
	return Loc{}, off, errAt(text, off, "a source line of the context")
}

// decodeHeader decodes `<|trace_context_start|>` CONTEXT DIRECTION.
func decodeHeader(text string) (Context, Direction, int, *DecodeError) {
	i := 0
	if !strings.HasPrefix(text, TokenTraceContextStart) {
		return Context{}, 0, 0, errAt(text, 0, strconv.Quote(TokenTraceContextStart))
	}
	i += len(TokenTraceContextStart)
	start := i
	var files []ContextFile
	headers := false
	lineExpected := "a source line `NNN| text`, a \"# file: \" header or one of \"<|forward|>\", \"<|inverse|>\""
	for {
		if i >= len(text) || strings.HasPrefix(text[i:], "<|") {
			var dir Direction
			for _, t := range []string{TokenForward, TokenInverse} {
				if strings.HasPrefix(text[i:], t) {
					dir, _ = DirectionOfToken(t)
				}
			}
			if dir == 0 {
				return Context{}, 0, 0, errAt(text, i, lineExpected)
			}
			if files == nil {
				files = []ContextFile{{}}
			}
			c := Context{Files: files}
			c.idx = buildIndex(files)
			if c.idx.err != nil {
				return Context{}, 0, 0, errAt(text, start, "an unambiguous context ("+c.idx.err.Error()+")")
			}
			return c, dir, i + len(dir.Token()), nil
		}
		if strings.HasPrefix(text[i:], FileHeader) {
			if len(files) > 0 && !headers {
				return Context{}, 0, 0, errAt(text, i, "a source line or a direction token (the first file has no header)")
			}
			p := i + len(FileHeader)
			nl := strings.IndexByte(text[p:], '\n')
			if nl < 0 {
				return Context{}, 0, 0, errAt(text, len(text), `"\n" (end of the header line)`)
			}
			path := text[p : p+nl]
			if path == "" {
				return Context{}, 0, 0, errAt(text, p, "a file path")
			}
			for _, f := range files {
				if f.Path == path {
					return Context{}, 0, 0, errAt(text, p, "a file path not already in the context")
				}
			}
			headers = true
			files = append(files, ContextFile{Path: path})
			i = p + nl + 1
			continue
		}
		// A source line.
		j := i
		for j < len(text) && text[j] == ' ' {
			j++
		}
		k := j
		for k < len(text) && k-j < 10 && text[k] >= '0' && text[k] <= '9' {
			k++
		}
		if k == j || k-j > 9 || k >= len(text) || text[k] != '|' {
			return Context{}, 0, 0, errAt(text, i, lineExpected)
		}
		n, _ := strconv.Atoi(text[j:k])
		if n < 1 {
			return Context{}, 0, 0, errAt(text, j, "a line number from 1")
		}
		if want := lineForm(n, ""); text[i:k+1] != want {
			return Context{}, 0, 0, errAt(text, i, strconv.Quote(want)+" (canonical line number)")
		}
		if files == nil {
			files = []ContextFile{{}}
		}
		f := &files[len(files)-1]
		for _, l := range f.Lines {
			if l.N == n {
				return Context{}, 0, 0, errAt(text, i, "a line number not already in this file")
			}
		}
		p := k + 1
		var line string
		switch {
		case p < len(text) && text[p] == '\n':
			i = p + 1
		case p < len(text) && text[p] == ' ':
			nl := strings.IndexByte(text[p+1:], '\n')
			if nl < 0 {
				return Context{}, 0, 0, errAt(text, len(text), `"\n" (end of the source line)`)
			}
			line = text[p+1 : p+1+nl]
			trimmed := strings.TrimRight(line, trailingSpace)
			if trimmed == "" {
				return Context{}, 0, 0, errAt(text, p, `"\n" (an empty line is written "NNN|")`)
			}
			if len(trimmed) < len(line) {
				return Context{}, 0, 0, errAt(text, p+1+len(trimmed), `"\n" (no trailing whitespace)`)
			}
			i = p + 1 + nl + 1
		default:
			return Context{}, 0, 0, errAt(text, p, `" " or "\n"`)
		}
		f.Lines = append(f.Lines, SourceLine{N: n, Text: line})
	}
}
