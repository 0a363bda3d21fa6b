package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// runPredict implements `ndb predict FILE --entry EXPR --action ACTION [--n N]
// [--model DIR] [--temperature T] [--seed S]`: the state ACTION leads to from the
// entry state, predicted by the model (the program is parsed, never run), as JSON on
// stdout; a JSON list when --n > 1.
func runPredict(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	entry := fs.String("entry", "", "the entry call `EXPR`, such as 'f(3, \"x\")'; none means the whole script")
	action := fs.String("action", "step_into", "the `ACTION`: step_into, step_over, step_return, continue, breakpoint:LINE[+LINE...], inv_step_into, inv_step_over, inv_step_call")
	n := fs.Int("n", 1, "the number of predictions (samples) to print")
	var opt session.Options
	modelFlags(fs, &opt, "seed")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return badInput("usage: ndb predict FILE [--entry EXPR] --action ACTION [--n N] [--model DIR] [--temperature T] [--seed S]")
	}
	if *n < 1 {
		return badInput("--n must be positive")
	}
	a, err := grammar.ParseActionSpec(*action)
	if err != nil {
		return badInput("--action: %v", err)
	}
	if err := checkModelFlags(opt); err != nil {
		return err
	}
	pool, err := newPool(ctx, 1)
	if err != nil {
		return err
	}
	opt.Tracer = pool
	sess, err := openFile(ctx, rest[0], *entry, session.ModeNeural, opt)
	pool.Close()
	if err != nil {
		return err
	}
	defer sess.Close()
	return printPredictions(ctx, sess, a, *n)
}

// printPredictions peeks at n outcomes of action a and prints them as indented JSON:
// one object, or a list when n > 1.
func printPredictions(ctx context.Context, sess *session.Session, a grammar.Action, n int) error {
	var outs []json.RawMessage
	for range n {
		o, err := sess.Peek(ctx, a)
		if err != nil {
			return err
		}
		outs = append(outs, session.OutcomeJSON(sess.Program().Context, o))
	}
	out := []byte(outs[0])
	if n > 1 {
		out, _ = json.Marshal(outs)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, out, "", "  "); err != nil {
		return err
	}
	_, err := fmt.Println(pretty.String())
	return err
}
