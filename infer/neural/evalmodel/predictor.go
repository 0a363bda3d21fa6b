// Package evalmodel is the model as an evaluation's predictor (eval.Predictor, for
// `ndb eval`): prompts are built as a neural session builds them (neural.Prompter),
// and the next state is written under the grammar (and, by default, the program
// facts: Constrained). It is apart from infer/neural so that the debugger's backend
// does not import the evaluations (and their plots).
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
	"github.com/ndb-project/ndb/train/eval/evalcmd"
)

// Predictor is eval.Predictor with the model: the prompt is built as a neural
// session builds it (neural.Prompter: a history that does not fit starts again from its
// last state) and the next state written under the grammar, knowing the action
// (neural.Generate: infer.Generator.GenerateAfter and the copy candidate). Like the model, it is not safe for concurrent use.
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
	// Copy says how a greedy answer is weighed against its copy candidate
	// (neural.Generate).
	Copy neural.CopyOptions

	// facts gives a prompt's program facts (nil: none): they count the predictions
	// that invent a line or name (eval.Prediction.Invented) and, unless grammarOnly,
	// constrain them (Constrained).
	facts       eval.FactsFunc
	grammarOnly bool
}

// Constrained returns a predictor sharing p's model (and generator), named name, that
// looks up each prompt's program facts with facts, counts the predictions they rule
// out and, unless grammarOnly, constrains its predictions by them. Only a main one
// keeps p's Generated. It implements evalcmd.Constrainable.
func (p *Predictor) Constrained(name string, facts eval.FactsFunc, grammarOnly, main bool) eval.Predictor {
	c := *p
	c.name, c.facts, c.grammarOnly = name, facts, grammarOnly
	if !main {
		c.Generated = nil
	}
	return &c
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
	var prog *grammar.Program
	if p.facts != nil {
		prog = p.facts(ctx, pr)
	}
	p.gen.Program, p.gen.BreakpointLines = nil, pr.Action.Lines
	if !p.grammarOnly {
		p.gen.Program = prog
	}
	for i := range out {
		if i > 0 && p.sampler.Greedy() {
			out[i] = out[0]
			continue
		}
		g, err := neural.Generate(ctx, p.gen, ids, t, pr.Action, &prev, p.sampler, p.Copy)
		if err != nil {
			return nil, err
		}
		out[i] = eval.Prediction{Next: eval.Next{State: g.State, Exit: g.Exit}, Undecoded: g.Forced, Confidence: g.Confidence}
		out[i].Invented = prog != nil && g.Exit == "" && prog.Invented(g.State)
		if p.Generated != nil {
			*p.Generated = append(*p.Generated, g)
		}
	}
	return out, nil
}

var _ evalcmd.Constrainable = (*Predictor)(nil)

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
