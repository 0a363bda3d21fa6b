package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// runTrajectory implements `ndb trajectory FILE [--entry EXPR] [--inverse]
// (--actions a,b,... | --seed N)`: the serialized trajectory on stdout.
func runTrajectory(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("trajectory", flag.ContinueOnError)
	entry := fs.String("entry", "", "call to trace; none traces the whole script")
	inverse := fs.Bool("inverse", false, "walk backwards from the last state")
	actionList := fs.String("actions", "", "comma-separated actions, e.g. step_into,step_over,breakpoint:5+7")
	seed := fs.Int64("seed", -1, "sample the actions with the paper's policy from this seed")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 || (*actionList == "") == (*seed < 0) {
		return badInput("usage: ndb trajectory FILE [--entry EXPR] [--inverse] (--actions a,b,... | --seed N)")
	}
	actions, err := parseActions(*actionList)
	if err != nil {
		return err
	}
	pool, err := newPool(ctx, 1)
	if err != nil {
		return err
	}
	defer pool.Close()
	rec, err := recordFile(ctx, pool, files[0], *entry)
	if err != nil {
		return err
	}
	tr, err := walkRecording(rec, *inverse, actions, uint64(max(*seed, 0)))
	if err != nil {
		return err
	}
	text, err := grammar.EncodeTrajectory(tr)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(os.Stdout, text)
	return err
}

// parseActions reads the --actions list; an empty list means "sample".
func parseActions(list string) ([]grammar.Action, error) {
	if list == "" {
		return nil, nil
	}
	var actions []grammar.Action
	for _, spec := range strings.Split(list, ",") {
		a, err := grammar.ParseActionSpec(strings.TrimSpace(spec))
		if err != nil {
			return nil, badInput("--actions: %v", err)
		}
		actions = append(actions, a)
	}
	return actions, nil
}

// walkRecording follows actions from the entry state (forward) or the last state
// (inverse), or samples them from seed when actions is nil.
func walkRecording(rec *trace.Recording, inverse bool, actions []grammar.Action, seed uint64) (grammar.Trajectory, error) {
	tree := rec.Forward
	if inverse {
		tree = tree.Inverse()
	}
	for _, a := range actions {
		if a.Kind.Inverse() != inverse {
			return grammar.Trajectory{}, badInput("--actions: %s is a %s action; use --inverse only with inv_* actions", a.Kind, direction(a.Kind))
		}
	}
	s := trace.NewSampler(seed, trace.SampleOptions{Lines: rec.Lines()})
	var tr grammar.Trajectory
	if actions == nil {
		tr = s.Sample(tree)
	} else {
		tr = s.Walk(tree, 0, actions)
	}
	tr.Context = rec.Context
	return tr, nil
}

func direction(k grammar.ActionKind) string {
	if k.Inverse() {
		return "reverse"
	}
	return "forward"
}
