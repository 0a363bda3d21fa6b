package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/session/comparereport"
	"github.com/ndb-project/ndb/trace"
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
	constraints := addConstraintsFlag(fs)
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
	dev, err := infer.ParseDevice(*device)
	if err != nil {
		return badInput("%v", err)
	}
	dir, err := modelDir(*model)
	if err != nil {
		return err
	}

	pool, err := newPool(ctx, 1)
	if err != nil {
		return err
	}
	rec, err := recordFile(ctx, pool, files[0], *entry)
	pool.Close()
	if err != nil {
		return err
	}
	how := "--actions " + *actionList
	if actions == nil {
		s := trace.NewSampler(uint64(*seed), trace.SampleOptions{Lines: rec.Lines()})
		for _, st := range s.Walk(rec.Forward, 0, nil).Steps {
			actions = append(actions, st.Action)
		}
		specs := make([]string, len(actions))
		for i, a := range actions {
			specs[i] = a.Spec()
		}
		how = fmt.Sprintf("sampled from seed %d: %s", *seed, strings.Join(specs, ","))
	}

	start, err := neural.EntryState(rec.Context, rec.Parsed, *entry)
	if err != nil {
		return badInput("%v", err)
	}
	prog, err := programFor(*constraints, rec.Context, rec.Parsed)
	if err != nil {
		return err
	}
	infer.SetThreads(0)
	m, tok, err := neural.Load(dir, dev)
	if err != nil {
		return err
	}
	pred, err := neural.New(m, tok, rec.Context, start, neural.Options{
		Temperature: *temp, TopP: *topP, Seed: *seedModel, CloseModel: true,
		Limits: infer.Limits{MaxTokens: *maxTokens}, Program: prog,
	})
	if err != nil {
		m.Close()
		return err
	}
	cmp := session.NewCompare(pred, trace.NewReplay(rec), nil)
	defer cmp.Close()

	report := comparereport.Report{Program: files[0], Entry: *entry, Model: dir, Actions: how, Context: rec.Context}
	if _, err := cmp.Entry(ctx); err != nil {
		return err
	}
	r, _ := cmp.Recorded()
	report.Steps = append(report.Steps, comparereport.NewStep(nil, cmp.Predicted(), r, nil))
	for i := range actions {
		a := &actions[i]
		if _, err := cmp.Do(ctx, *a); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			report.Steps = append(report.Steps, comparereport.Step{Action: a, Err: err.Error()})
			break
		}
		r, _ := cmp.Recorded()
		report.Steps = append(report.Steps, comparereport.NewStep(a, cmp.Predicted(), r, cmp.RecordedErr()))
	}

	if err := comparereport.WriteText(os.Stdout, report, comparereport.TextOptions{Color: useColor, Width: *width}); err != nil {
		return err
	}
	if *htmlOut != "" {
		if err := writeHTMLReport(*htmlOut, report); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "ndb compare: wrote %s\n", *htmlOut)
	}
	return nil
}

// modelDir is --model when given (it must be a folder), else the bundled default; a
// clear error when there is neither.
func modelDir(flagDir string) (string, error) {
	if flagDir != "" {
		st, err := os.Stat(flagDir)
		if err != nil || !st.IsDir() {
			return "", badInput("--model %s: not a checkpoint folder", flagDir)
		}
		return flagDir, nil
	}
	dir, err := models.Resolve("")
	if errors.Is(err, models.ErrNoDefault) {
		return "", fmt.Errorf("the neural side needs a model: this ndb bundles none, so pass --model DIR (a checkpoint folder)")
	}
	return dir, err
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
		if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
			return false, nil
		}
		st, err := os.Stdout.Stat()
		return err == nil && st.Mode()&fs.ModeCharDevice != 0, nil
	}
	return false, badInput("--color must be auto, always or never, not %q", mode)
}

func writeHTMLReport(path string, r comparereport.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := comparereport.WriteHTML(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
