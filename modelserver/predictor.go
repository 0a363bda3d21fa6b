package modelserver

import (
	"context"

	"github.com/ndb-project/ndb/train/eval"
)

// Predictor is eval.Predictor served by a model server (`ndb eval`): each Predict
// is one "predict" request, written there as infer/neural.Predictor writes it.
type Predictor struct {
	pool     *Pool
	addr     string
	name     string
	model    Model
	sampling Sampling

	// facts gives a prompt's program facts (nil: none), looked up here and sent with
	// the prompt: the server counts the predictions they rule out and, unless
	// grammarOnly, constrains its predictions by them (Constrained).
	facts       eval.FactsFunc
	grammarOnly bool
}

// Constrained returns a predictor on p's server and model, named name, that looks up
// each prompt's program facts with facts and sends them with it: the server counts
// the predictions they rule out and, unless grammarOnly, constrains the predictions
// by them. It implements evalcmd.Constrainable (main matters only in process, where
// the generated states are recorded).
func (p *Predictor) Constrained(name string, facts eval.FactsFunc, grammarOnly, main bool) eval.Predictor {
	c := *p
	c.name, c.facts, c.grammarOnly = name, facts, grammarOnly
	return &c
}

// NewPredictor returns a predictor named name over checkpoint dir (resolved as a
// session's) on device, served by the server at addr ("" is the pool's child).
func (p *Pool) NewPredictor(name, dir, device, addr string, s Sampling) (*Predictor, error) {
	m, err := modelFor(dir, addr)
	if err != nil {
		return nil, err
	}
	m.Device = device
	return &Predictor{pool: p, addr: addr, name: name, model: m, sampling: s}, nil
}

// Name is the predictor's name.
func (p *Predictor) Name() string { return p.name }

// Predict writes n next states of prompt pr.
func (p *Predictor) Predict(ctx context.Context, pr eval.Prompt, n int) ([]eval.Prediction, error) {
	c, err := p.pool.Get(ctx, p.addr)
	if err != nil {
		return nil, err
	}
	req := PredictParams{Model: p.model, Sampling: p.sampling, Prompt: pr, N: n, GrammarOnly: p.grammarOnly}
	if p.facts != nil {
		if prog := p.facts(ctx, pr); prog != nil {
			req.Facts = prog.Facts()
		}
	}
	var r PredictResult
	if err := c.Call(ctx, MethodPredict, req, &r); err != nil {
		return nil, err
	}
	return r.Predictions, nil
}

var _ eval.Predictor = (*Predictor)(nil)
