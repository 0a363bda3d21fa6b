package neural

import (
	"context"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/train/eval"
)

// Predictor is eval.Predictor with the model: the prompt is built as a neural
// session builds it (Prompter: a history that does not fit starts again from its
// last state) and the next state written under the grammar, knowing the action
// (infer.Generator.GenerateAfter). Like the model, it is not safe for concurrent use.
type Predictor struct {
	name     string
	gen      *infer.Generator
	prompter Prompter
	sampler  *infer.Sampler
}

// NewPredictor returns a predictor named name (its rows in the tables) over model m;
// maxTokens bounds one predicted state.
func NewPredictor(name string, m *infer.Model, tok *tokenizer.Tokenizer, vocab *infer.Vocab, maxTokens int, s *infer.Sampler) *Predictor {
	g := infer.NewGenerator(m, vocab)
	g.Limits.MaxTokens = maxTokens
	return &Predictor{name: name, gen: g, prompter: NewPrompter(m, tok, maxTokens), sampler: s}
}

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
		}
		return out, nil
	}
	prev := Last(t)
	for i := range out {
		if i > 0 && p.sampler.Greedy() {
			out[i] = out[0]
			continue
		}
		g, err := p.gen.GenerateAfter(ctx, ids, pr.Context, pr.Direction, &prev, pr.Action.Kind, p.sampler)
		if err != nil {
			return nil, err
		}
		out[i] = eval.Prediction{Next: eval.Next{State: g.State, Exit: g.Exit}, Undecoded: g.Forced}
	}
	return out, nil
}

var _ eval.Predictor = (*Predictor)(nil)

// LoadPredictor loads a checkpoint (dir, else the bundled model) on device (cpu,
// cuda, cuda:N or auto) as a predictor named name; maxTokens bounds one predicted
// state. Close frees the model.
func LoadPredictor(name, dir, device string, maxTokens int, s *infer.Sampler) (*Predictor, error) {
	dev, err := infer.ParseDevice(device)
	if err != nil {
		return nil, err
	}
	if dir, err = models.Resolve(dir); err != nil {
		return nil, err
	}
	m, tok, err := Load(dir, dev)
	if err != nil {
		return nil, err
	}
	return NewPredictor(name, m, tok, infer.NewVocab(tok), maxTokens, s), nil
}

// Close frees the predictor's model.
func (p *Predictor) Close() {
	if p.gen.Model != nil {
		p.gen.Model.Close()
		p.gen.Model = nil
	}
}
