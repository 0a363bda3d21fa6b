// Package corpus builds the training corpus of debugger trajectories (the paper's
// section 4.3): programs are generated, decontaminated against CruxEval, really run
// through the tracer workers, turned into state trees, and sampled into forward and
// inverse trajectories in the model's language, written as JSON lines per split.
package corpus

import "github.com/ndb-project/ndb/trace"

// Options configure a corpus build. Zero fields take the defaults.
type Options struct {
	// Out is the folder the corpus is written to.
	Out string
	// Programs is the number of distinct programs to keep (default 50,000).
	Programs int
	// Seed makes the whole build deterministic (default 1).
	Seed int64
	// Trajectories is the number of trajectories sampled from each program, half
	// forward and half inverse (default 16).
	Trajectories int
	// HeldOut is the share of programs (not trajectories) kept for evaluation
	// (default 0.02).
	HeldOut float64
	// MaxBytes drops trajectories longer than this many bytes of text (default
	// 8,192), so that one fits a training sequence.
	MaxBytes int
	// Limits bound each traced run (default: 2,000 events, 1 s, 200-character reprs).
	Limits trace.Limits
	// CruxEval lists JSONL files of CruxEval problems that must not appear.
	CruxEval []string
	// Verify traces every program a second time, on another worker process with its
	// own hash seed, and drops programs whose runs differ (default on; see NoVerify).
	NoVerify bool
}

func (o Options) withDefaults() Options {
	if o.Programs <= 0 {
		o.Programs = 50000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Trajectories <= 0 {
		o.Trajectories = 16
	}
	if o.HeldOut <= 0 {
		o.HeldOut = 0.02
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 8192
	}
	if o.Limits.MaxEvents == 0 {
		o.Limits.MaxEvents = 2000
	}
	if o.Limits.WallSecs == 0 {
		o.Limits.WallSecs = 1
	}
	return o
}
