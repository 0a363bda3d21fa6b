package main

import (
	"bufio"
	"context"
	"encoding/json"
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
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, e := range rec.Result.Events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	end := struct {
		Status    string `json:"status"`
		Exception string `json:"exception,omitempty"`
		Output    string `json:"output"`
	}{string(rec.Result.Status), rec.Result.Exception, rec.Result.Output}
	if err := enc.Encode(end); err != nil {
		return err
	}
	return w.Flush()
}
