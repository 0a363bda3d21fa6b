package trace

import (
	"context"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
)

// ProgramError is a problem with the user's program or entry call rather than with
// ndb: a syntax error, an entry that names nothing, a module that fails to import.
type ProgramError struct {
	Path    string
	Kind    string // syntax, entry, module
	Line    int    // of a syntax error, when known
	Message string
}

func (e *ProgramError) Error() string {
	where := e.Path
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	switch e.Kind {
	case "syntax":
		return fmt.Sprintf("%s: syntax error: %s", where, e.Message)
	case "entry":
		return fmt.Sprintf("%s: %s", where, e.Message) // the message names the entry
	default:
		return fmt.Sprintf("%s: the program failed before its entry call: %s", where, e.Message)
	}
}

// NoCodeMessage is the launch error of a program with no executable line (an
// empty file, or only comments): there is nothing to step through.
const NoCodeMessage = "the program has no code to debug"

// Recording is one real execution of a program: the raw trace, its forward state tree,
// the context of the trajectory language and the program's static structure.
type Recording struct {
	Path    string
	Source  string
	Entry   string
	Result  TraceResult
	Forward *Tree
	Context grammar.Context
	Parsed  ParseResult
}

// Record parses and traces a program (path is only used in messages). Problems with
// the program come back as *ProgramError; a traced run that loops forever or raises is
// not an error: it is a recording whose exit state says so.
func (p *Pool) Record(ctx context.Context, path, source, entry string, limits Limits) (*Recording, error) {
	parsed, err := p.Parse(ctx, ParseRequest{Source: source, Entry: entry})
	if err != nil {
		return nil, err
	}
	if s := parsed.Syntax; s != nil {
		return nil, &ProgramError{Path: path, Kind: "syntax", Line: s.Line, Message: s.Message}
	}
	res, err := p.Trace(ctx, TraceRequest{Source: source, Entry: entry, Limits: limits})
	if err != nil {
		return nil, err
	}
	if s := res.Setup; s != nil {
		return nil, &ProgramError{Path: path, Kind: s.Kind, Line: s.Line, Message: s.Message}
	}
	if len(res.Events) == 0 {
		return nil, &ProgramError{Path: path, Kind: "entry", Message: "the entry call ran no code of the program"}
	}
	fwd, err := NewForward(res)
	if err != nil {
		return nil, err
	}
	return &Recording{
		Path: path, Source: source, Entry: entry,
		Result: res, Forward: fwd, Parsed: parsed,
		Context: grammar.NewContext("", source),
	}, nil
}

// Lines returns the program's executable lines as locations (breakpoint candidates).
func (r *Recording) Lines() []grammar.Loc {
	locs := make([]grammar.Loc, len(r.Parsed.Executable))
	for i, l := range r.Parsed.Executable {
		locs[i] = grammar.Loc{Line: l}
	}
	return locs
}
