package neural

import (
	"context"
	"errors"
	"fmt"

	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/session"
)

// Open builds the neural backend of a session: it is the session.NeuralFactory that
// the ndb binary registers (session.RegisterNeural(neural.Open)). The checkpoint is
// opt.Model, else the bundled model, loaded on opt.Device for this session alone (a
// model's KV cache belongs to one session; Close frees it). The entry state comes
// from the program's parse (EntryState); an entry it cannot read is the program's
// problem (*session.ProgramError). libtorch's thread count is the caller's
// (infer.SetThreads, once at start-up).
func Open(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
	dir, err := models.Resolve(opt.Model)
	if errors.Is(err, models.ErrNoDefault) {
		return nil, fmt.Errorf("the neural backend needs a model: this ndb bundles none, so name a checkpoint folder (--model DIR, or \"model\" in a launch)")
	}
	if err != nil {
		return nil, err
	}
	device := opt.Device
	if device == "" {
		device = "cpu"
	}
	dev, err := infer.ParseDevice(device)
	if err != nil {
		return nil, err
	}
	start, err := EntryState(prog.Context, prog.Parsed, prog.Entry)
	if err != nil {
		return nil, &session.ProgramError{Path: prog.Path, Kind: "entry", Message: err.Error()}
	}
	m, tok, err := Load(dir, dev)
	if err != nil {
		return nil, err
	}
	b, err := New(m, tok, prog.Context, start, Options{
		Temperature: opt.Temperature, TopP: opt.TopP, Seed: opt.Seed, CloseModel: true,
		Limits:      infer.Limits{MaxTokens: opt.MaxTokens},
		Calibration: LoadCalibration(dir),
	})
	if err != nil {
		m.Close()
		return nil, err
	}
	return b, nil
}
