package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/session/comparereport"
)

// runCompare implements `ndb compare FILE [--entry EXPR] (--actions a,b,... | --seed N)
// [--html OUT] [--model DIR] [--temperature T] [--seed-model S]`: the program is
// recorded once, then the recorded backend and the neural backend take the same
// actions in lockstep (session.Compare), and each step's predicted and recorded
// outcomes are printed side by side with their differences highlighted, then a
// summary of the matches. With --seed the actions are sampled from the recorded tree
// with the paper's policy, from the entry state (trace.Sampler.Walk), and replayed on
// both sides. --html also writes the comparison as a self-contained HTML page.
func runCompare(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	entry := fs.String("entry", "", "the entry call `EXPR`; none runs the whole script")
	actionList := fs.String("actions", "", "comma-separated actions, e.g. step_into,step_over,breakpoint:5+7")
	seed := fs.Int64("seed", -1, "sample the actions with the paper's policy from this seed")
	htmlOut := fs.String("html", "", "also write the comparison as an HTML page to `OUT`")
	model := fs.String("model", "", "checkpoint `DIR` (default: the model bundled with ndb)")
	temp := fs.Float64("temperature", 0, "the model's sampling temperature; 0 is greedy")
	topP := fs.Float64("top-p", 0.95, "nucleus sampling mass when sampling")
	seedModel := fs.Int64("seed-model", 0, "the model's sampling seed")
	maxTokens := fs.Int("max-tokens", 0, "tokens per predicted state before it is force-closed (0: the default)")
	device := fs.String("device", "cpu", "cpu, cuda, cuda:N or auto")
	color := fs.String("color", "auto", "highlight differences with colours: auto (when stdout is a terminal), always or never")
	width := fs.Int("width", 40, "the most characters of one side's cell in the terminal")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 || (*actionList == "") == (*seed < 0) {
		return badInput("usage: ndb compare FILE [--entry EXPR] (--actions a,b,... | --seed N) [--html OUT] [--model DIR] [--temperature T] [--seed-model S]")
	}
	if *temp < 0 {
		return badInput("--temperature must not be negative")
	}
	useColor, err := colorMode(*color)
	if err != nil {
		return err
	}
	actions, err := parseActions(*actionList)
	if err != nil {
		return err
	}
	opt := session.Options{Model: *model, Device: *device, Temperature: *temp, TopP: *topP, Seed: *seedModel, MaxTokens: *maxTokens}
	report, err := compareFile(ctx, files[0], *entry, opt, actions, uint64(max(*seed, 0)))
	if err != nil {
		return err
	}
	if err := comparereport.WriteText(os.Stdout, report, comparereport.TextOptions{Color: useColor, Width: *width}); err != nil {
		return err
	}
	if *htmlOut != "" {
		if err := comparereport.WriteHTMLFile(*htmlOut, report); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "ndb compare: wrote %s\n", *htmlOut)
	}
	return nil
}

// compareFile records the program and plays the actions on it and on the model
// (comparereport.Compare).
func compareFile(ctx context.Context, path, entry string, opt session.Options, actions []grammar.Action, seed uint64) (comparereport.Report, error) {
	if err := modelserver.CheckDevice(opt.Device); err != nil {
		return comparereport.Report{}, badInput("%v", err)
	}
	if st, err := os.Stat(opt.Model); opt.Model != "" && (err != nil || !st.IsDir()) {
		return comparereport.Report{}, badInput("--model %s: not a checkpoint folder", opt.Model)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return comparereport.Report{}, badInput("%v", err)
	}
	pool, err := newPool(ctx, 1)
	if err != nil {
		return comparereport.Report{}, err
	}
	defer pool.Close()
	opt.Tracer = pool
	dir, _ := models.Resolve(opt.Model) // for the report: the session resolves it again
	r, err := comparereport.Compare(ctx, session.Program{Path: path, Source: string(src), Entry: entry}, opt, actions, seed, dir)
	return r, programError(err)
}

// colorMode reads --color: auto colours when stdout is a terminal and NO_COLOR is
// unset.
func colorMode(mode string) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return comparereport.AutoColor(os.Stdout), nil
	}
	return false, badInput("--color must be auto, always or never, not %q", mode)
}
