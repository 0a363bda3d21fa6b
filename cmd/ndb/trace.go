package main

import (
	"context"
	"flag"
	"os"
)

// runTrace implements `ndb trace FILE [--entry EXPR]`: the raw events as JSON lines,
// then one line with the exit status, the exception and the captured output.
func runTrace(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	entry := fs.String("entry", "", "call to trace, e.g. 'f(\"berry\", \"r\")'; none traces the whole script")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return badInput("usage: ndb trace FILE [--entry EXPR]")
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
	return rec.Result.WriteJSONL(os.Stdout)
}
