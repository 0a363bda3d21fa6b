package comparereport

import (
	"context"
	"fmt"
	"io/fs"
	"os"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// Play takes actions on a compare-mode session (session.Open with ModeCompare) and
// returns the steps of its report: the entry states, then one step per action. The
// walk stops at the first action the predicted side cannot take (that step holds the
// error); an error is returned only when ctx ends.
func Play(ctx context.Context, s *session.Session, actions []grammar.Action) ([]Step, error) {
	cmp := s.Compare()
	r, _ := cmp.Recorded()
	steps := []Step{NewStep(nil, cmp.Predicted(), r, nil)}
	for i := range actions {
		a := &actions[i]
		if _, err := s.Do(ctx, *a); err != nil {
			if ctx.Err() != nil {
				return steps, ctx.Err()
			}
			return append(steps, Step{Action: a, Err: err.Error()}), nil
		}
		r, _ := cmp.Recorded()
		steps = append(steps, NewStep(a, cmp.Predicted(), r, cmp.RecordedErr()))
	}
	return steps, nil
}

// WriteHTMLFile writes the report's HTML page to path.
func WriteHTMLFile(path string, r Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteHTML(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Compare opens prog in compare mode (session.Open), plays actions on it (sampled
// from the recording with the paper's policy from seed when actions is nil) and
// returns the report; model names the checkpoint in it. Problems with the program
// come back as *session.ProgramError.
func Compare(ctx context.Context, prog session.Program, opt session.Options, actions []grammar.Action, seed uint64, model string) (Report, error) {
	sess, err := session.Open(ctx, prog, session.ModeCompare, opt)
	if err != nil {
		return Report{}, err
	}
	defer sess.Close()
	rec := sess.Program().Recording
	how := "--actions " + grammar.ActionList(actions)
	if actions == nil {
		actions = rec.SampleActions(seed)
		how = fmt.Sprintf("sampled from seed %d: %s", seed, grammar.ActionList(actions))
	}
	r := Report{Program: prog.Path, Entry: prog.Entry, Model: model, Actions: how, Context: rec.Context}
	r.Steps, err = Play(ctx, sess, actions)
	return r, err
}

// AutoColor reports whether to colour a report written to f: when f is a terminal
// and NO_COLOR is unset (and TERM is not dumb).
func AutoColor(f *os.File) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&fs.ModeCharDevice != 0
}
