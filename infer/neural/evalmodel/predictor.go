// Package evalmodel is the model as an evaluation's predictor (eval.Predictor, for
// `ndb eval`): prompts are built as a neural session builds them (neural.Prompter),
// and the next state is written under the grammar. It is apart from infer/neural so
// that the debugger's backend does not import the evaluations (and their plots).
package evalmodel

import (
	"context"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/train/eval"
)

// Predictor is eval.Predictor with the model: the prompt is built as a neural
// session builds it (neural.Prompter: a history that does not fit starts again from its
// last state) and the next state written under the grammar, knowing the action
// (infer.Generator.GenerateAfter). Like the model, it is not safe for concurrent use.
type Predictor struct {
	name     string
	gen      *infer.Generator
	prompter neural.Prompter
	sampler  *infer.Sampler
	dir      string // the checkpoint folder, when loaded by LoadPredictor

	// Generated keeps every state the predictor wrote, one per prediction in order
	// (an empty one for a prompt that did not fit), when set: to fit the temperatures
	// of the confidences (set the generator's Record too).
	Generated *[]infer.Generated
}

// NewPredictor returns a predictor named name (its rows in the tables) over model m;
// maxTokens bounds one predicted state.
func NewPredictor(name string, m *infer.Model, tok *tokenizer.Tokenizer, vocab *infer.Vocab, maxTokens int, s *infer.Sampler) *Predictor {
	g := infer.NewGenerator(m, vocab)
	g.Limits.MaxTokens = maxTokens
	return &Predictor{name: name, gen: g, prompter: neural.NewPrompter(m, tok, maxTokens), sampler: s}
}

// Generator is the predictor's generator (to set its Calibration or Record).
func (p *Predictor) Generator() *infer.Generator { return p.gen }

// Name is the predictor's name.
func (p *Predictor) Name() string { return p.name }

// Predict writes n next states (greedy predictors write the same one: it is run once).
func (p *Predictor) Predict(ctx context.Context, pr eval.Prompt, n int) ([]eval.Prediction, error) {
	t := grammar.Trajectory{Context: pr.Context, Direction: pr.Direction, Start: pr.Start, Steps: pr.History}
	ids, t, fits, err := p.prompter.Prompt(t, pr.Action)
	if err != nil {
		return nil, fmt.Errorf("prompt: %w", err)
	}
	out := make([]eval.Prediction, max(n, 1))
	if !fits {
		for i := range out {
			out[i].Undecoded, out[i].TooLong = true, true // the prompt alone does not fit the model
			if p.Generated != nil {
				*p.Generated = append(*p.Generated, infer.Generated{Forced: true}) // nothing to fit
			}
		}
		return out, nil
	}
	prev := neural.Last(t)
	for i := range out {
		if i > 0 && p.sampler.Greedy() {
			out[i] = out[0]
			continue
		}
		g, err := p.gen.GenerateAfter(ctx, ids, pr.Context, pr.Direction, &prev, pr.Action.Kind, p.sampler)
		if err != nil {
			return nil, err
		}
		out[i] = eval.Prediction{Next: eval.Next{State: g.State, Exit: g.Exit}, Undecoded: g.Forced, Confidence: g.Confidence}
		if p.Generated != nil {
			*p.Generated = append(*p.Generated, g)
		}
	}
	return out, nil
}

var _ eval.Predictor = (*Predictor)(nil)

// LoadPredictor loads a checkpoint (dir, else the bundled model) on device (cpu,
// cuda, cuda:N or auto) as a predictor named name; maxTokens bounds one predicted
// state. The confidences use the checkpoint's calibration.json when it was fitted on
// these weights. Close frees the model.
func LoadPredictor(name, dir, device string, maxTokens int, s *infer.Sampler) (*Predictor, error) {
	dev, err := infer.ParseDevice(device)
	if err != nil {
		return nil, err
	}
	if dir, err = models.Resolve(dir); err != nil {
		return nil, err
	}
	m, tok, err := neural.Load(dir, dev)
	if err != nil {
		return nil, err
	}
	p := NewPredictor(name, m, tok, infer.NewVocab(tok), maxTokens, s)
	p.dir = dir
	p.gen.Calibration = neural.LoadCalibration(dir)
	return p, nil
}

// Dir is the checkpoint folder the predictor was loaded from ("" when made by
// NewPredictor).
func (p *Predictor) Dir() string { return p.dir }

// Close frees the predictor's model.
func (p *Predictor) Close() {
	if p.gen.Model != nil {
		p.gen.Model.Close()
		p.gen.Model = nil
	}
}
