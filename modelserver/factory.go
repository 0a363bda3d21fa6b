package modelserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/session"
)

// Open is the session.NeuralFactory of the pure-Go ndb (session.RegisterNeural):
// the session's model runs in a model server, opt.ModelServer when set, else the
// Default pool's child ndb-infer.
func Open(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
	return Default.Open(ctx, prog, opt)
}

// Warm starts (or dials) the model server a session with opt will use and has it
// load the session's checkpoint, so that both happen while the program is parsed:
// session.RegisterNeuralWarmer. An error is left to the session's Open, which asks
// again and reports it.
func Warm(opt session.Options) { Default.Warm(opt) }

// Warm starts (or dials) the server of a session with opt and asks it to load the
// session's checkpoint (MethodLoad); it returns when the checkpoint is loaded or
// either step failed, and the session's open request, sent meanwhile, waits for
// the load on the server rather than starting its own.
func (p *Pool) Warm(opt session.Options) {
	ctx := context.Background()
	c, err := p.Get(ctx, opt.ModelServer)
	if err != nil {
		return
	}
	m, err := modelFor(opt.Model, opt.ModelServer)
	if err != nil {
		return
	}
	m.Device = opt.Device
	_ = c.Call(ctx, MethodLoad, m, &struct{}{})
}

// Open opens a neural session of prog on the server opt.ModelServer ("" is the
// pool's child).
func (p *Pool) Open(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
	m, err := modelFor(opt.Model, opt.ModelServer)
	if err != nil {
		return nil, err
	}
	m.Device = opt.Device
	return OpenBackend(ctx, p, opt.ModelServer, openParams(m, prog, opt))
}

// openParams is the open request of prog's session with opt on model m: the
// program's parse carries its facts (Parsed.Facts), and the server constrains the
// predictions by them unless opt.GrammarOnly.
func openParams(m Model, prog *session.Program, opt session.Options) OpenParams {
	return OpenParams{
		Model: m,
		Sampling: Sampling{Temperature: opt.Temperature, TopP: opt.TopP, Seed: opt.Seed,
			MaxTokens: opt.MaxTokens},
		Path: prog.Path, Context: prog.Context, Parsed: prog.Parsed, Entry: prog.Entry,
		GrammarOnly: opt.GrammarOnly,
	}
}

// modelFor is the checkpoint to ask for: a local child gets an absolute folder
// (the bundled model when dir is ""); a server elsewhere reads dir as it is given,
// and "" is its own bundled model.
func modelFor(dir, server string) (Model, error) {
	if server != "" {
		return Model{Dir: dir}, nil
	}
	d, err := models.Resolve(dir)
	if errors.Is(err, models.ErrNoDefault) {
		return Model{}, fmt.Errorf("the neural backend needs a model: this ndb bundles none, so name a checkpoint folder (--model DIR, or \"model\" in a launch)")
	}
	if err != nil {
		return Model{}, err
	}
	if abs, err := filepath.Abs(d); err == nil {
		d = abs
	}
	return Model{Dir: d}, nil
}
