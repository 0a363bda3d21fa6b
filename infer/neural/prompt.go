package neural

import (
	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
)

// defaultMaxTokens is the token budget of one predicted state when the limits set
// none (infer.Limits' default).
const defaultMaxTokens = 512

// Prompter builds the prompt of one prediction: a trajectory's text up to and
// including the action (grammar.EncodePrompt), tokenized. It is the one place that
// decides when a history no longer fits the model: the trajectory then starts again
// from its last state, written with full locals, as a debugger session goes on. The
// neural backend and the evaluations (evalmodel.Predictor) share it.
type Prompter struct {
	Tok *tokenizer.Tokenizer
	// Room is the most tokens a prompt may take: the model's context less the
	// tokens one predicted state may take.
	Room int
}

// NewPrompter returns the prompter of model m, whose predicted states take at most
// maxTokens tokens (<= 0: the generator's default).
func NewPrompter(m *infer.Model, tok *tokenizer.Tokenizer, maxTokens int) Prompter {
	if maxTokens <= 0 {
		maxTokens = defaultMaxTokens
	}
	return Prompter{Tok: tok, Room: m.Config.MaxSeqLen - maxTokens}
}

// Prompt returns the token ids of t's prompt for action a, and the trajectory they
// encode: t itself, or, when t's prompt does not fit and t has a history, t started
// again from its last state with no history. fits is false when even that prompt
// is longer than Room.
func (p Prompter) Prompt(t grammar.Trajectory, a grammar.Action) (ids []int, used grammar.Trajectory, fits bool, err error) {
	text, err := grammar.EncodePrompt(t, a)
	if err != nil {
		return nil, t, false, err
	}
	ids = p.Tok.Encode(text)
	if len(ids) > p.Room && len(t.Steps) > 0 {
		t = Restart(t)
		if text, err = grammar.EncodePrompt(t, a); err != nil {
			return nil, t, false, err
		}
		ids = p.Tok.Encode(text)
	}
	return ids, t, len(ids) <= p.Room, nil
}

// Restart is t started again from its last state, with no history.
func Restart(t grammar.Trajectory) grammar.Trajectory {
	t.Start, t.Steps = Last(t), nil
	return t
}

// Last is the state the next action of t starts from.
func Last(t grammar.Trajectory) grammar.State {
	if n := len(t.Steps); n > 0 {
		return t.Steps[n-1].State
	}
	return t.Start
}
