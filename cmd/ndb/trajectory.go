package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/ndb-project/ndb/grammar"
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
	dir := grammar.Forward
	if *inverse {
		dir = grammar.Inverse
	}
	if err := grammar.CheckDirection(actions, dir); err != nil {
		return badInput("--actions: %v; use --inverse only with inv_* actions", err)
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
	text, err := grammar.EncodeTrajectory(rec.Walk(*inverse, actions, uint64(max(*seed, 0))))
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(os.Stdout, text)
	return err
}

// parseActions reads the --actions list; an empty list means "sample".
func parseActions(list string) ([]grammar.Action, error) {
	actions, err := grammar.ParseActionList(list)
	if err != nil {
		return nil, badInput("--actions: %v", err)
	}
	return actions, nil
}
