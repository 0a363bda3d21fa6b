package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/models"
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
	var opt session.Options
	modelFlags(fs, &opt, "seed-model")
	fs.IntVar(&opt.MaxTokens, "max-tokens", 0, "tokens per predicted state before it is force-closed (0: the default)")
	color := fs.String("color", "auto", "highlight differences with colours: auto (when stdout is a terminal), always or never")
	width := fs.Int("width", 40, "the most characters of one side's cell in the terminal")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 || (*actionList == "") == (*seed < 0) {
		return badInput("usage: ndb compare FILE [--entry EXPR] (--actions a,b,... | --seed N) [--html OUT] [--model DIR] [--temperature T] [--seed-model S]")
	}
	useColor, err := colorMode(*color)
	if err != nil {
		return err
	}
	actions, err := parseActions(*actionList)
	if err != nil {
		return err
	}
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
	if err := checkModelFlags(opt); err != nil {
		return comparereport.Report{}, err
	}
	src, err := readSource(path)
	if err != nil {
		return comparereport.Report{}, err
	}
	pool, err := newPool(ctx, 1)
	if err != nil {
		return comparereport.Report{}, err
	}
	defer pool.Close()
	opt.Tracer = pool
	dir, _ := models.Resolve(opt.Model) // for the report: the session resolves it again
	r, err := comparereport.Compare(ctx, session.Program{Path: path, Source: src, Entry: entry}, opt, actions, seed, dir)
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
