package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
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
	model := fs.String("model", "", "checkpoint `DIR` (default: the model bundled with ndb)")
	temp := fs.Float64("temperature", 0, "sampling temperature; 0 is greedy")
	topP := fs.Float64("top-p", 0.95, "nucleus sampling mass when sampling")
	seed := fs.Int64("seed", 0, "sampling seed")
	device := fs.String("device", "cpu", "cpu, cuda, cuda:N or auto")
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
	if _, err := infer.ParseDevice(*device); err != nil {
		return badInput("%v", err)
	}
	pool, err := newPool(ctx, 1)
	if err != nil {
		return err
	}
	infer.SetThreads(0)
	sess, err := openFile(ctx, rest[0], *entry, session.ModeNeural, session.Options{
		Tracer: pool, Model: *model, Device: *device, Temperature: *temp, TopP: *topP, Seed: *seed,
	})
	pool.Close()
	if err != nil {
		return err
	}
	defer sess.Close()
	gctx := sess.Program().Context
	var outs []json.RawMessage
	for i := 0; i < *n; i++ {
		o, err := sess.Peek(ctx, a)
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
// "locals" (in order), "value"}`, each with "confidence" when the model gave one:
// `{"state", "event", "line", "locals": {name: p, ...}, "value"}`, probabilities
// rounded to 3 decimals.
func outcomeJSON(gctx grammar.Context, o session.Outcome) json.RawMessage {
	q := func(v any) string {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		e.Encode(v)
		return string(bytes.TrimRight(b.Bytes(), "\n"))
	}
	c := o.Confidence
	p := func(f float64) string { return strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64) }
	if o.Ended() {
		conf := ""
		if c != nil {
			conf = fmt.Sprintf(`, "confidence": {"state": %s, "event": %s}`, p(c.State), p(c.Event))
		}
		return json.RawMessage(`{"exit": ` + q(string(o.Exit)) + conf + `}`)
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
	if c != nil {
		fmt.Fprintf(&b, `, "confidence": {"state": %s, "event": %s, "line": %s`, p(c.State), p(c.Event), p(c.Line))
		if s.Event.HasLocals() {
			b.WriteString(`, "locals": {`)
			for i, v := range c.Vars {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(q(v.Name) + ": " + p(v.P))
			}
			b.WriteString("}")
		}
		if s.Event.HasValue() {
			b.WriteString(`, "value": ` + p(c.Value))
		}
		b.WriteString("}")
	}
	b.WriteString("}")
	return b.Bytes()
}
