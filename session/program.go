package session

import (
	"context"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// Mode is how a session answers debugger actions.
type Mode string

// The modes of a session.
const (
	// ModeNeural predicts every state with the model; it never runs the program.
	ModeNeural Mode = "neural"
	// ModeRecorded runs the program once under the tracer and replays that execution.
	ModeRecorded Mode = "recorded"
	// ModeCompare runs both in lockstep: the predicted side (the session's own
	// states) and the recorded one (ThreadRecorded).
	ModeCompare Mode = "compare"
)

// ParseMode reads a mode's name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeNeural, ModeRecorded, ModeCompare:
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q: want %q, %q or %q", s, ModeNeural, ModeRecorded, ModeCompare)
}

// Program is what a session is built from: the program's source and static
// structure, and in recorded and compare modes its recorded execution. Open fills in
// Parsed, Context and Recording.
type Program struct {
	// Path names the program in messages (the file it was read from).
	Path   string
	Source string
	// Entry is a call such as `f(3, "x")`; empty debugs the whole script.
	Entry string
	// Parsed holds the functions and executable lines (from the tracer's parse; the
	// program is not run for it).
	Parsed  trace.ParseResult
	Context grammar.Context
	// Recording is the traced execution; nil in neural mode, where the program is
	// never run.
	Recording *trace.Recording
}

// ProgramError is a problem with the user's program or entry call rather than with
// ndb (a syntax error, an entry that names nothing): front ends show it as the
// user's to fix.
type ProgramError = trace.ProgramError

// Tracer records and parses programs: *trace.Pool, or a test's stand-in.
type Tracer interface {
	Record(ctx context.Context, path, source, entry string, limits trace.Limits) (*trace.Recording, error)
	Parse(ctx context.Context, req trace.ParseRequest) (trace.ParseResult, error)
}

// Options configure a session. The zero value is usable with a Tracer: no step
// limit, greedy sampling, the bundled model on the CPU.
type Options struct {
	// Tracer records (recorded and compare modes) and parses (every mode) the
	// program. Required.
	Tracer Tracer
	// Limits bound the recording (zero fields: the tracer's defaults).
	Limits trace.Limits
	// MaxSteps caps the backend actions of the session (each step of a continue
	// that walks step by step counts); 0 is no cap.
	MaxSteps int

	// The neural backend's settings (neural and compare modes).

	// Model is a checkpoint folder; empty means the bundled default.
	Model string
	// Device is where the model runs: cpu, cuda, cuda:N or auto ("" is cpu).
	Device string
	// Temperature of the model's sampling; 0 is greedy. TopP is nucleus sampling's
	// mass (0 keeps every token).
	Temperature float64
	TopP        float64
	Seed        int64
	// MaxTokens bounds one predicted state (0: the backend's default).
	MaxTokens int
	// GrammarOnly leaves the model's predictions to the grammar alone (the raw
	// model: --constraints grammar). By default (false) the program's static facts
	// (trace.ParseResult.Facts) constrain them too: every predicted state is one the
	// program can reach after the action (docs/decisions.md, "Program facts").
	GrammarOnly bool
	// ModelServer is the address (HOST:PORT) of a listening model server
	// (ndb-infer --listen) that runs the model; "" starts ndb-infer over a pipe.
	ModelServer string
	// Neural builds the neural backend instead of the registered factory (tests).
	Neural NeuralFactory
}

// Constraint modes of --constraints (Options.GrammarOnly).
const (
	ConstraintsProgram = "program" // the grammar and the program facts (the default)
	ConstraintsGrammar = "grammar" // the grammar alone: the raw model
)

// ReadSource reads a program file as Python reads it (trace.DecodeSource: its
// "# coding:" declaration, a UTF-8 byte-order mark); a file that does not decode
// is a *ProgramError.
func ReadSource(path string) (string, error) { return trace.ReadSource(path) }

// Open builds a session of prog in mode and starts it: it stands at the entry
// state. The program is parsed only in neural mode (it is never run), and recorded
// once under the tracer's limits in recorded and compare modes. Problems with the
// program come back as *ProgramError; a neural or compare session with no neural
// factory (RegisterNeural, Options.Neural) fails with ErrNoNeural.
func Open(ctx context.Context, prog Program, mode Mode, opt Options) (*Session, error) {
	if opt.Tracer == nil {
		return nil, fmt.Errorf("session.Open: no tracer")
	}
	factory := opt.Neural
	if factory == nil {
		factory = registeredNeural()
	}
	if mode != ModeRecorded && factory == nil {
		return nil, fmt.Errorf("%s mode: %w", mode, ErrNoNeural)
	}
	if w := registeredWarmer(); mode != ModeRecorded && opt.Neural == nil && w != nil {
		go w(opt)
	}
	backend, cmp, err := openBackend(ctx, &prog, mode, opt, factory)
	if err != nil {
		return nil, err
	}
	s := New(backend, LookupFuncs(prog.Parsed))
	s.prog, s.mode, s.cmp, s.maxSteps = &prog, mode, cmp, opt.MaxSteps
	for _, n := range prog.Parsed.Executable {
		s.executable[n] = true
	}
	if _, err := s.Start(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openBackend reads the program as mode needs and builds its backend.
func openBackend(ctx context.Context, prog *Program, mode Mode, opt Options, newNeural NeuralFactory) (Backend, *Compare, error) {
	switch mode {
	case ModeNeural:
		parsed, err := opt.Tracer.Parse(ctx, trace.ParseRequest{Source: prog.Source, Entry: prog.Entry})
		if err != nil {
			return nil, nil, fmt.Errorf("the tracer cannot parse the program: %w", err)
		}
		if sy := parsed.Syntax; sy != nil {
			return nil, nil, &ProgramError{Path: prog.Path, Kind: "syntax", Line: sy.Line, Message: sy.Message}
		}
		if len(parsed.Executable) == 0 {
			return nil, nil, &ProgramError{Path: prog.Path, Kind: "entry", Message: trace.NoCodeMessage}
		}
		prog.Parsed, prog.Context = parsed, grammar.NewContext("", prog.Source)
		b, err := newNeural(ctx, prog, opt)
		return b, nil, err
	case ModeRecorded, ModeCompare:
		rec, err := opt.Tracer.Record(ctx, prog.Path, prog.Source, prog.Entry, opt.Limits)
		if err != nil {
			return nil, nil, err
		}
		prog.Parsed, prog.Context, prog.Recording = rec.Parsed, rec.Context, rec
		replay := NewReplay(rec)
		if mode == ModeRecorded {
			return replay, nil, nil
		}
		pred, err := newNeural(ctx, prog, opt)
		if err != nil {
			return nil, nil, err
		}
		cmp := NewCompare(pred, replay, LookupFuncs(prog.Parsed))
		return cmp, cmp, nil
	}
	return nil, nil, fmt.Errorf("unknown mode %q", mode)
}

// LookupFuncs names the innermost function whose lines hold a location, from a
// program's parse.
func LookupFuncs(p trace.ParseResult) FuncLookup {
	fs := p.Functions
	return func(l grammar.Loc) string {
		best := -1
		for i, f := range fs {
			if f.FirstLine <= l.Line && l.Line <= f.LastLine && (best < 0 || f.FirstLine >= fs[best].FirstLine) {
				best = i
			}
		}
		if best < 0 {
			return ""
		}
		return fs[best].Name
	}
}
