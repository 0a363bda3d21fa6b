// Package neural is the neural debugger's backend: a session.Backend whose every
// outcome is predicted by the model under the grammar, never by running the program.
// Open is its session.NeuralFactory, which the ndb binary registers
// (session.RegisterNeural), so that every front end opens neural and compare sessions
// through session.Open.
//
// The prompt is the context, the direction and the history of states and actions,
// encoded by grammar.Encoder and tokenized (Prompter); each action appends its tokens
// and the model writes the next state (infer.Generator, which reuses the KV cache of
// the prefix the prompt shares with the last one, so a step costs its new tokens, and
// going back is moving the cache position). A switch between forward and reverse
// actions starts a new trajectory from the current state, with full locals (spec
// section 6); so does a history that would no longer fit the model's context, a rule
// the Prompter keeps for the backend and the evaluations (evalmodel.Predictor, `ndb eval`)
// alike.
package neural

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/rs/zerolog/log"
	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/session"
)

// Options are a neural session's sampling settings.
type Options struct {
	Temperature float64 // 0 is greedy
	TopP        float64 // nucleus sampling's mass; 0 keeps every token
	Seed        int64
	Limits      infer.Limits
	// CloseModel makes Close free the model too (when the backend loaded it).
	CloseModel bool
	// Calibration holds the temperatures of the confidences (nil: raw probabilities;
	// see LoadCalibration).
	Calibration *infer.Calibration
	// Program holds the program facts (ProgramOf): every predicted state is then one
	// the program can reach after the action. Nil leaves the grammar alone.
	Program *grammar.Program
	// Copy says how a greedy answer is weighed against its copy candidate (Generate).
	Copy CopyOptions
}

// Backend predicts a debugging session with the model. It implements
// session.Backend and session.Editor; like the model it is not safe for concurrent
// use.
type Backend struct {
	gen      *infer.Generator
	tok      *tokenizer.Tokenizer
	prompter Prompter
	ctx      grammar.Context
	sampler  *infer.Sampler
	opt      Options

	entry grammar.State
	dir   grammar.Direction
	start grammar.State
	steps []grammar.Step
	ended bool
	depth int // forward steps taken minus reverse ones: 0 is the entry (an estimate)
	frame int // the last synthetic frame id given out

	// LastForced reports whether the last predicted state was force-closed.
	LastForced bool
}

// Load reads a checkpoint folder (model and tokenizer.json) onto device.
func Load(dir string, device gotch.Device) (*infer.Model, *tokenizer.Tokenizer, error) {
	tok, err := tokenizer.LoadFile(filepath.Join(dir, infer.TokenizerFile))
	if err != nil {
		return nil, nil, fmt.Errorf("model %s: %w", dir, err)
	}
	m, err := infer.Load(dir, device)
	if err != nil {
		return nil, nil, fmt.Errorf("model %s: %w", dir, err)
	}
	if m.Config.VocabSize != tok.VocabSize() {
		m.Close()
		return nil, nil, fmt.Errorf("model %s: vocabulary of %d, tokenizer of %d", dir, m.Config.VocabSize, tok.VocabSize())
	}
	return m, tok, nil
}

// LoadCalibration reads the temperatures fitted for the checkpoint in dir
// (infer.CalibrationFile). None, or one fitted on other weights (logged: the model
// needs `ndb eval nextstate --calibrate`), gives nil: the raw probabilities.
func LoadCalibration(dir string) *infer.Calibration {
	cal, stale, err := infer.LoadCalibration(dir)
	switch {
	case err != nil:
		log.Warn().Err(err).Str("model", dir).Msg("the confidences are uncalibrated")
	case stale:
		log.Warn().Str("model", dir).Msg("calibration.json was fitted on other weights: the confidences are uncalibrated (ndb eval nextstate --calibrate)")
	}
	return cal
}

// New returns a backend predicting over gctx from entry (see EntryState) with model
// m and its tokenizer. The backend owns m's KV cache while it lives.
func New(m *infer.Model, tok *tokenizer.Tokenizer, gctx grammar.Context, entry grammar.State, opt Options) (*Backend, error) {
	if err := gctx.Validate(); err != nil {
		return nil, err
	}
	g := infer.NewGenerator(m, infer.NewVocab(tok))
	g.Limits = opt.Limits
	g.Calibration = opt.Calibration
	g.Program = opt.Program
	b := &Backend{gen: g, tok: tok, prompter: NewPrompter(m, tok, opt.Limits.MaxTokens), ctx: gctx,
		sampler: infer.NewSampler(opt.Temperature, opt.TopP, opt.Seed), opt: opt, dir: grammar.Forward}
	b.frame--
	entry.Frame = b.frame
	b.entry, b.start = entry, entry
	if err := b.check(); err != nil {
		return nil, fmt.Errorf("entry state: %w", err)
	}
	return b, nil
}

// Generator is the backend's generator (for its counters and cache settings).
func (b *Backend) Generator() *infer.Generator { return b.gen }

// Entry returns the entry state.
func (b *Backend) Entry(ctx context.Context) (grammar.State, error) { return outState(b.entry), nil }

// current is the state the next action starts from.
func (b *Backend) current() *grammar.State {
	if n := len(b.steps); n > 0 {
		return &b.steps[n-1].State
	}
	return &b.start
}

// trajectory is the trajectory so far.
func (b *Backend) trajectory() grammar.Trajectory {
	return grammar.Trajectory{Context: b.ctx, Direction: b.dir, Start: b.start, Steps: b.steps}
}

// check encodes the trajectory so far: an error says it cannot be written.
func (b *Backend) check() error {
	_, err := grammar.EncodeTrajectory(b.trajectory())
	return err
}

// Do predicts the outcome of action a. ctx cancellation stops the prediction between
// tokens and leaves the session where it was.
func (b *Backend) Do(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	if b.ended {
		return session.Outcome{}, session.ErrEnded
	}
	if err := a.Validate(); err != nil {
		return session.Outcome{}, err
	}
	if a.Kind.Inverse() && b.depth <= 0 {
		return session.Outcome{}, session.ErrAtStart
	}
	dir := grammar.Forward
	if a.Kind.Inverse() {
		dir = grammar.Inverse
	}
	saveDir, saveStart, saveSteps := b.dir, b.start, b.steps
	if dir != b.dir {
		b.restart(dir)
	}
	// A history that no longer fits starts again from the current state.
	ids, used, _, err := b.prompter.Prompt(b.trajectory(), a)
	if err != nil {
		b.dir, b.start, b.steps = saveDir, saveStart, saveSteps
		return session.Outcome{}, err
	}
	b.start, b.steps = used.Start, used.Steps
	prev := *b.current()
	b.gen.BreakpointLines = a.Lines
	gen, err := Generate(ctx, b.gen, ids, b.trajectory(), a, &prev, b.sampler, b.opt.Copy)
	if err != nil {
		b.dir, b.start, b.steps = saveDir, saveStart, saveSteps
		return session.Outcome{}, err
	}
	b.LastForced = gen.Forced
	if gen.Exit != "" {
		b.ended = true
		b.steps = append(b.steps, grammar.Step{Action: a, Exit: gen.Exit})
		return session.Outcome{Exit: gen.Exit, Confidence: gen.Confidence}, nil
	}
	st := gen.State
	if st.Frame == 0 { // written in full: a frame the text does not tie to the last one
		b.frame--
		st.Frame = b.frame
	}
	b.steps = append(b.steps, grammar.Step{Action: a, State: st})
	if a.Kind.Inverse() {
		b.depth--
	} else {
		b.depth++
	}
	return session.Outcome{State: outState(st), Confidence: gen.Confidence}, nil
}

// restart begins a new trajectory in direction dir from the current state.
func (b *Backend) restart(dir grammar.Direction) {
	b.start, b.steps, b.dir = *b.current(), nil, dir
}

// outState is a state as the session sees it: the synthetic frame ids that tie the
// encoding's diffs together are not the tracer's, so Frame is left unknown.
func outState(s grammar.State) grammar.State {
	s.Frame = 0
	s.Locals = s.Locals.Clone()
	return s
}

// SetVariable sets a local of the current state to repr (a new variable is appended)
// and returns the edited state. Later predictions see the edit: it is part of the
// prompt, and the cache is recomputed from the first token that changed.
func (b *Backend) SetVariable(name, repr string) (grammar.State, error) {
	if b.ended {
		return grammar.State{}, session.ErrEnded
	}
	cur := b.current()
	if !cur.Event.HasLocals() {
		return grammar.State{}, fmt.Errorf("a %s state has no locals to edit", cur.Event)
	}
	if name == "" || name == grammar.DiffMarkerKey {
		return grammar.State{}, fmt.Errorf("bad variable name %q", name)
	}
	old := cur.Locals
	l := cur.Locals.Clone()
	found := false
	for i := range l {
		if l[i].Name == name {
			l[i].Repr, found = repr, true
		}
	}
	if !found {
		l = append(l, grammar.Var{Name: name, Repr: repr})
	}
	cur.Locals = l
	if err := b.check(); err != nil {
		cur.Locals = old
		return grammar.State{}, err
	}
	if len(b.steps) == 0 && b.depth == 0 {
		b.entry.Locals = l.Clone()
	}
	return outState(*cur), nil
}

// Close releases the backend (and the model when Options.CloseModel).
func (b *Backend) Close() error {
	if b.opt.CloseModel && b.gen.Model != nil {
		b.gen.Model.Close()
		b.gen.Model = nil
	}
	return nil
}

// Peek predicts the outcome of action a without moving the session: repeated calls
// draw repeated samples of the same step (different ones when sampling), each
// cheap since the prompt's cache is reused.
func (b *Backend) Peek(ctx context.Context, a grammar.Action) (session.Outcome, error) {
	dir, start, steps, ended, depth, frame := b.dir, b.start, b.steps, b.ended, b.depth, b.frame
	steps = steps[:len(steps):len(steps)] // an append in Do must not write into the saved history
	b.steps = steps
	o, err := b.Do(ctx, a)
	b.dir, b.start, b.steps, b.ended, b.depth, b.frame = dir, start, steps, ended, depth, frame
	return o, err
}
