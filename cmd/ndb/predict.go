package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// runPredict implements `ndb predict FILE --entry EXPR --action ACTION [--n N]
// [--model DIR] [--temperature T] [--seed S] [--constraints program|grammar]`: the
// state ACTION leads to from the entry state, predicted by the model (the program is
// parsed, never run) under the program's facts (--constraints grammar: the raw
// model), as JSON on stdout; a JSON list when --n > 1.
func runPredict(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	entry := fs.String("entry", "", "the entry call `EXPR`, such as 'f(3, \"x\")'; none means the whole script")
	action := fs.String("action", "step_into", "the `ACTION`: step_into, step_over, step_return, continue, breakpoint:LINE[+LINE...], inv_step_into, inv_step_over, inv_step_call")
	n := fs.Int("n", 1, "the number of predictions (samples) to print")
	model := fs.String("model", "", "checkpoint `DIR` (default: the model bundled with ndb)")
	temp := fs.Float64("temperature", 0, "sampling temperature; 0 is greedy")
	topP := fs.Float64("top-p", 0.95, "nucleus sampling mass when sampling")
	seed := fs.Int64("seed", 0, "sampling seed")
	device := fs.String("device", "cpu", "cpu, cuda, cuda:N or auto")
	constraints := addConstraintsFlag(fs)
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
	if *temp < 0 {
		return badInput("--temperature must not be negative")
	}
	a, err := grammar.ParseActionSpec(*action)
	if err != nil {
		return badInput("--action: %v", err)
	}
	dev, err := infer.ParseDevice(*device)
	if err != nil {
		return badInput("%v", err)
	}
	dir, err := models.Resolve(*model)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(rest[0])
	if err != nil {
		return err
	}
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Workers: 1, Log: log.Logger})
	if err != nil {
		return err
	}
	parsed, err := pool.Parse(ctx, trace.ParseRequest{Source: string(src)})
	pool.Close()
	if err != nil {
		return err
	}
	if sy := parsed.Syntax; sy != nil {
		return &trace.ProgramError{Path: rest[0], Kind: "syntax", Line: sy.Line, Message: sy.Message}
	}
	gctx := grammar.NewContext("", string(src))
	start, err := neural.EntryState(gctx, parsed, *entry)
	if err != nil {
		return badInput("%v", err)
	}
	prog, err := programFor(*constraints, gctx, parsed)
	if err != nil {
		return err
	}
	infer.SetThreads(0)
	m, tok, err := neural.Load(dir, dev)
	if err != nil {
		return err
	}
	b, err := neural.New(m, tok, gctx, start, neural.Options{Temperature: *temp, TopP: *topP, Seed: *seed, CloseModel: true, Program: prog})
	if err != nil {
		m.Close()
		return err
	}
	defer b.Close()
	var outs []json.RawMessage
	for i := 0; i < *n; i++ {
		o, err := b.Peek(ctx, a)
		if err != nil {
			return err
		}
		outs = append(outs, outcomeJSON(gctx, o))
	}
	var out []byte
	if *n == 1 {
		out = outs[0]
	} else {
		out, _ = json.Marshal(outs)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, out, "", "  "); err != nil {
		return err
	}
	_, err = fmt.Println(pretty.String())
	return err
}

// outcomeJSON writes an outcome as `{"exit": ...}` or `{"event", "line", "source",
// "locals" (in order), "value"}`.
func outcomeJSON(gctx grammar.Context, o session.Outcome) json.RawMessage {
	q := func(v any) string {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		e.Encode(v)
		return string(bytes.TrimRight(b.Bytes(), "\n"))
	}
	if o.Ended() {
		return json.RawMessage(`{"exit": ` + q(string(o.Exit)) + `}`)
	}
	s := o.State
	src, _ := gctx.Src(s.Loc)
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"event": %s, "line": %d, "source": %s`, q(s.Event.String()), s.Loc.Line, q(src))
	if s.Loc.File != "" {
		fmt.Fprintf(&b, `, "file": %s`, q(s.Loc.File))
	}
	if s.Event.HasLocals() {
		b.WriteString(`, "locals": {`)
		for i, v := range s.Locals {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q(v.Name) + ": " + q(v.Repr))
		}
		b.WriteString("}")
	}
	if s.Event.HasValue() {
		b.WriteString(`, "value": ` + q(s.Value))
	}
	b.WriteString("}")
	return b.Bytes()
}

// addConstraintsFlag adds --constraints to a command that predicts with the model.
func addConstraintsFlag(fs *flag.FlagSet) *string {
	return fs.String("constraints", neural.ConstraintsProgram, "what constrains the model: program (the grammar and the program's facts) or grammar (the grammar alone: the raw model)")
}

// programFor is the program facts the --constraints mode asks for: nil for grammar.
func programFor(mode string, gctx grammar.Context, parsed trace.ParseResult) (*grammar.Program, error) {
	switch mode {
	case neural.ConstraintsProgram:
		return neural.ProgramOf(gctx, parsed), nil
	case neural.ConstraintsGrammar:
		return nil, nil
	}
	return nil, badInput("--constraints %q: want program or grammar", mode)
}
