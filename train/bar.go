package train

import (
	"context"
	"fmt"
	"io"

	"github.com/ndb-project/ndb/train/progress"
)

// RunWithBar is Run with a progress bar on w (`ndb train`): this sitting's steps, the
// latest training and held-out losses and the tokens per second. It prints the final
// state's summary on out.
func RunWithBar(ctx context.Context, o Options, w, out io.Writer) (State, error) {
	var bar *progress.Bar // this sitting's steps, made at the first step
	var last State
	var rate float64
	st, err := Run(ctx, o, func(s State, tps float64) {
		if bar == nil {
			bar = progress.New(w, "train", int64(s.Recipe.Steps()-s.Step+1), "steps")
			bar.SetExtra(func() string {
				return fmt.Sprintf("| step %d | loss %.3f eval %.3f | %.0f tok/s", last.Step, last.TrainLoss, last.EvalLoss, rate)
			})
		}
		last, rate = s, tps
		bar.Add(1)
	})
	if bar != nil {
		bar.Done()
	}
	if st.Recipe.Tokens > 0 {
		fmt.Fprintf(out, "step %d of %d, tokens %d of %d, train loss %.4f, held-out loss %s (function level %s), %d parameters, %.0f s in %d sittings\n",
			st.Step, st.Recipe.Steps(), st.Tokens, st.Recipe.Tokens, st.TrainLoss, fmtLoss(st.EvalLoss), fmtLoss(st.EvalLossFunction),
			st.Params, st.Seconds, st.Sittings)
	}
	return st, err
}

// fmtLoss prints a loss, or "-" for one not measured yet.
func fmtLoss(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.4f", v)
}
