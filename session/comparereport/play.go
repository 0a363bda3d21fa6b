package comparereport

import (
	"context"
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
