package main

import (
	"context"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/train/eval"
)

// modelPredictor is eval.Predictor with the model: the prompt is encoded as a
// trajectory (grammar.Encoder), tokenized, and the next state written under the
// grammar, knowing the action (infer.Generator.GenerateAfter). A prompt whose history
// does not fit the model's context starts again from its last state with full locals,
// as a neural session does. Like the model, it is not safe for concurrent use.
//
// With programs, each prompt's program facts count the predictions that invent a
// line or name (eval.Prediction.Invented) and, unless grammarOnly, constrain them.
type modelPredictor struct {
	name        string
	gen         *infer.Generator
	tok         *tokenizer.Tokenizer
	sampler     *infer.Sampler
	programs    *programCache
	grammarOnly bool
}

func newModelPredictor(name string, m *infer.Model, tok *tokenizer.Tokenizer, vocab *infer.Vocab, maxTokens int, s *infer.Sampler) *modelPredictor {
	g := infer.NewGenerator(m, vocab)
	g.Limits.MaxTokens = maxTokens
	return &modelPredictor{name: name, gen: g, tok: tok, sampler: s}
}

func (p *modelPredictor) Name() string { return p.name }

// encodePrompt writes the prompt's text up to and including its action.
func encodePrompt(pr eval.Prompt) (string, error) {
	return grammar.EncodePrompt(grammar.Trajectory{Context: pr.Context, Direction: pr.Direction, Start: pr.Start, Steps: pr.History}, pr.Action)
}

// Predict writes n next states (greedy predictors write the same one: it is run once).
func (p *modelPredictor) Predict(ctx context.Context, pr eval.Prompt, n int) ([]eval.Prediction, error) {
	text, err := encodePrompt(pr)
	if err != nil {
		return nil, fmt.Errorf("prompt: %w", err)
	}
	ids := p.tok.Encode(text)
	room := p.gen.Model.Config.MaxSeqLen - max(p.gen.Limits.MaxTokens, 1)
	if len(ids) > room && len(pr.History) > 0 {
		pr.Start, pr.History = pr.Last(), nil
		pr.Start.Frame = 0 // a fresh trajectory: full locals
		if text, err = encodePrompt(pr); err != nil {
			return nil, fmt.Errorf("prompt: %w", err)
		}
		ids = p.tok.Encode(text)
	}
	out := make([]eval.Prediction, max(n, 1))
	if len(ids) > room {
		for i := range out {
			out[i].Undecoded, out[i].TooLong = true, true // the prompt alone does not fit the model
		}
		return out, nil
	}
	prev := pr.Last()
	if len(pr.History) == 0 {
		prev = pr.Start
	}
	var prog *grammar.Program
	if p.programs != nil {
		prog = p.programs.get(ctx, pr.Context)
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
		g, err := p.gen.GenerateAfter(ctx, ids, pr.Context, pr.Direction, &prev, pr.Action.Kind, p.sampler)
		if err != nil {
			return nil, err
		}
		out[i] = eval.Prediction{Next: eval.Next{State: g.State, Exit: g.Exit}, Undecoded: g.Forced}
		out[i].Invented = prog != nil && g.Exit == "" && prog.Invented(g.State)
	}
	return out, nil
}
