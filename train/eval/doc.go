// Package eval measures how far the model's predictions can be trusted: the paper's
// evaluations (shared/paper-summary.txt, Figures 6, 7, 8, Table 1 and Table A.2),
// reproduced so that anyone can rerun them on any checkpoint.
//
//   - next-state prediction (Figures 6 and 7): prompts cut right after each action
//     of held-out trajectories, exact match of the whole next state and of each of its
//     components (event, line, locals, return or exception value; n/a where the target
//     has no such component), by level and action (nextstate.go);
//   - CruxEval (Table 1, Table A.2): input prediction with inv_step_call scored by
//     execution and by exact match, output prediction with step_return and with a
//     breakpoint on the return line, scored by execution (cruxeval.go);
//   - prediction horizon (Figure 8): exact match@k against the fraction of the
//     function's intermediate states a jump skips (horizon.go).
//
// The model stays behind the Predictor interface (the command line gives the neural
// one), so the scoring here is pure Go, tested without libtorch; programs run through
// the tracer's worker pool under its limits. Every evaluation also scores a Baseline
// predictor that copies the last state, so that what the model adds is visible.
package eval
