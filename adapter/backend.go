package adapter

import (
	"context"
	"errors"
	"os"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// launch reads the program and builds its session: parsed only in neural mode (the
// program is never run), recorded once under the tracer's limits in recorded and
// compare modes. The session is started: it stands at the entry state.
func (s *Server) launch(ctx context.Context, cfg LaunchConfig) (*launched, error) {
	if (cfg.Mode == ModeNeural || cfg.Mode == ModeCompare) && s.cfg.Neural == nil {
		return nil, errorf(ErrBackend, errNoModel, cfg.Mode)
	}
	src, err := os.ReadFile(cfg.Program)
	if err != nil {
		return nil, errorf(ErrLaunchArguments, "launch: program %s: %v", cfg.Program, unwrapPathError(err))
	}
	prog := &Program{Path: cfg.Program, Source: string(src), Entry: cfg.Entry}
	var backend session.Backend
	var cmp *session.Compare
	switch cfg.Mode {
	case ModeNeural:
		parsed, err := s.parseProgram(ctx, prog.Source)
		if err != nil {
			return nil, errorf(ErrBackend, "launch: the tracer cannot parse the program: %v", err)
		}
		if sy := parsed.Syntax; sy != nil {
			return nil, errorf(ErrProgram, "%v", &trace.ProgramError{Path: cfg.Program, Kind: "syntax", Line: sy.Line, Message: sy.Message})
		}
		prog.Parsed, prog.Context = parsed, grammar.NewContext("", prog.Source)
		if backend, err = s.cfg.Neural(ctx, cfg, prog); err != nil {
			return nil, backendError(err)
		}
	default: // recorded, compare
		rec, err := s.recordProgram(ctx, cfg.Program, prog.Source, cfg.Entry)
		if err != nil {
			return nil, backendError(err)
		}
		prog.Parsed, prog.Context, prog.Recording = rec.Parsed, rec.Context, rec
		backend = trace.NewReplay(rec)
		if cfg.Mode == ModeCompare {
			pred, err := s.cfg.Neural(ctx, cfg, prog)
			if err != nil {
				return nil, backendError(err)
			}
			cmp = session.NewCompare(pred, backend, funcLookup(prog.Parsed))
			backend = cmp
		}
	}
	sess := session.New(backend, funcLookup(prog.Parsed))
	entry, err := sess.Start(ctx)
	if err != nil {
		sess.Close()
		return nil, backendError(err)
	}
	l := &launched{cfg: cfg, prog: prog, sess: sess, cmp: cmp, entry: entry, executable: map[int]bool{}}
	for _, n := range prog.Parsed.Executable {
		l.executable[n] = true
	}
	for i := range l.lastLocals {
		l.lastLocals[i] = map[int]grammar.State{}
	}
	l.remember()
	return l, nil
}

// backendError classifies a launch failure: a problem with the program (ErrProgram)
// or with ndb's machinery (ErrBackend).
func backendError(err error) error {
	var pe *trace.ProgramError
	if errors.As(err, &pe) {
		return errorf(ErrProgram, "%v", pe)
	}
	var re *requestError
	if errors.As(err, &re) {
		return re
	}
	return errorf(ErrBackend, "launch: %v", err)
}

func (s *Server) recordProgram(ctx context.Context, path, source, entry string) (*trace.Recording, error) {
	if s.record != nil {
		return s.record(ctx, path, source, entry)
	}
	pool, err := s.tracer(ctx)
	if err != nil {
		return nil, err
	}
	return pool.Record(ctx, path, source, entry, s.cfg.Limits)
}

func (s *Server) parseProgram(ctx context.Context, source string) (trace.ParseResult, error) {
	if s.parse != nil {
		return s.parse(ctx, source)
	}
	pool, err := s.tracer(ctx)
	if err != nil {
		return trace.ParseResult{}, err
	}
	return pool.Parse(ctx, trace.ParseRequest{Source: source})
}

// funcLookup names the innermost function whose lines hold a location.
func funcLookup(p trace.ParseResult) session.FuncLookup {
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

// remember notes the current state of each thread in lastLocals.
func (l *launched) remember() {
	note := func(thread int, o session.Outcome) {
		if !o.Ended() && o.State.Event.HasLocals() && o.State.Frame != 0 {
			l.lastLocals[thread][o.State.Frame] = o.State
		}
	}
	note(threadMain, l.sess.Current())
	if l.cmp != nil {
		r, _ := l.cmp.Recorded()
		note(threadRecorded, r)
	}
}
