package train

import (
	"context"
	"fmt"
	"io"

	"github.com/ndb-project/ndb/train/progress"
)

// RunWithBar is Run with a progress bar on w (`ndb train`): steps, the latest
// training and held-out losses and the tokens per second; a resumed run's bar starts
// where it resumes. It prints the final state's summary on out.
func RunWithBar(ctx context.Context, o Options, w, out io.Writer) (State, error) {
	bar := progress.New(w, "train", int64(o.Steps), "steps")
	var last State
	var rate float64
	bar.SetExtra(func() string {
		return fmt.Sprintf("| loss %.3f eval %.3f | %.0f tok/s", last.TrainLoss, last.EvalLoss, rate)
	})
	first := true
	st, err := Run(ctx, o, func(s State, tps float64) {
		if first {
			bar.Add(int64(s.Step - 1)) // a resumed run starts part way
			first = false
		}
		last, rate = s, tps
		bar.Add(1)
	})
	bar.Done()
	fmt.Fprintf(out, "steps %d, tokens %d, train loss %.4f, held-out loss %.4f, %d parameters, %.0f s\n",
		st.Step, st.Tokens, st.TrainLoss, st.EvalLoss, st.Params, st.Seconds)
	return st, err
}
