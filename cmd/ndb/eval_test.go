package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// goldenCorpus writes a corpus folder whose eval.jsonl holds the golden
// trajectories of count.py (function level).
func goldenCorpus(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "golden", "count.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, sec := range strings.Split(string(b), "### ") {
		_, text, ok := strings.Cut(sec, "\n")
		if !ok || strings.TrimSpace(text) == "" {
			continue
		}
		rec, _ := json.Marshal(map[string]string{"program": "count", "level": "function", "text": strings.TrimSuffix(text, "\n")})
		lines = append(lines, string(rec))
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "eval.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEvalNextStateTinyModel runs `ndb eval nextstate --limit 2` with the tiny random
// checkpoint: the table on stdout, with the model's and the baseline's rows, and
// results.md and the PNG plots in --out.
func TestEvalNextStateTinyModel(t *testing.T) {
	needInfer(t)
	t.Setenv("NDB_THREADS", "1")
	tiny := filepath.Join("..", "..", "testdata", "tinymodel")
	out := t.TempDir()
	var code int
	stdout := captureStdout(t, func() {
		code = run(context.Background(), []string{"eval", "nextstate", "--corpus", goldenCorpus(t), "--limit", "2",
			"--model", tiny, "--max-tokens", "32", "--out", out})
	})
	if code != 0 {
		t.Fatalf("exit status %d\n%s", code, stdout)
	}
	for _, want := range []string{"Next-state prediction, function level", "model (tinymodel)", "baseline (copy the last state)", "step_into", "undecoded"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil || !strings.Contains(string(md), "| action | predictor | n | exact |") || !strings.Contains(string(md), "ndb eval nextstate --corpus") {
		t.Errorf("results.md: %v\n%s", err, md)
	}
	for _, png := range []string{"nextstate_function.png", "components_function.png"} {
		if b, err := os.ReadFile(filepath.Join(out, png)); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
			t.Errorf("%s: not a PNG (%v)", png, err)
		}
	}
}

// TestEvalNextStateActions: --actions keeps only the rows of the actions named.
func TestEvalNextStateActions(t *testing.T) {
	needInfer(t)
	t.Setenv("NDB_THREADS", "1")
	tiny := filepath.Join("..", "..", "testdata", "tinymodel")
	var code int
	stdout := captureStdout(t, func() {
		code = run(context.Background(), []string{"eval", "nextstate", "--corpus", goldenCorpus(t), "--limit", "1",
			"--model", tiny, "--max-tokens", "16", "--out", t.TempDir(), "--actions", "step_over"})
	})
	if code != 0 {
		t.Fatalf("exit status %d\n%s", code, stdout)
	}
	if !strings.Contains(stdout, "step_over ") || strings.Contains(stdout, "step_into ") {
		t.Errorf("want step_over rows only:\n%s", stdout)
	}
}

// TestEvalNoGrammarRow: --no-grammar-row keeps the program facts' row and the
// baseline's, without the row of the grammar alone.
func TestEvalNoGrammarRow(t *testing.T) {
	needInfer(t)
	t.Setenv("NDB_THREADS", "1")
	tiny := filepath.Join("..", "..", "testdata", "tinymodel")
	var code int
	stdout := captureStdout(t, func() {
		code = run(context.Background(), []string{"eval", "nextstate", "--corpus", goldenCorpus(t), "--limit", "1",
			"--model", tiny, "--max-tokens", "16", "--out", t.TempDir(), "--actions", "step_over", "--no-grammar-row"})
	})
	if code != 0 {
		t.Fatalf("exit status %d\n%s", code, stdout)
	}
	if !strings.Contains(stdout, "model (tinymodel) [program]") || strings.Contains(stdout, "model (tinymodel) [grammar]") || !strings.Contains(stdout, "baseline (copy the last state)") {
		t.Errorf("want the [program] and baseline rows only:\n%s", stdout)
	}
}

// TestEvalUsage: a missing or unknown evaluation is bad usage (exit status 2).
func TestEvalUsage(t *testing.T) {
	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	stderr := os.Stderr
	os.Stderr = devnull
	defer func() { os.Stderr = stderr; devnull.Close() }()
	for _, args := range [][]string{{"eval"}, {"eval", "nope"}, {"eval", "cruxeval"}, {"eval", "horizon", "x.jsonl", "--k", "0"}, {"eval", "nextstate", "--actions", "step_into,nope"}} {
		if code := run(context.Background(), args); code != exitUsage {
			t.Errorf("%v: exit status %d, want %d", args, code, exitUsage)
		}
	}
}

func TestParseCopyPrior(t *testing.T) {
	if p, err := parseCopyPrior(""); p != nil || err != nil {
		t.Errorf("the default: %v %v", p, err)
	}
	if p, err := parseCopyPrior("off"); err != nil || len(p) != len(grammar.AllActions) || p["inv_step_call"] != 0 {
		t.Errorf("off: %v %v", p, err)
	}
	if p, err := parseCopyPrior("breakpoint=8, inv_step_call=1.5"); err != nil || p["breakpoint"] != 8 || p["inv_step_call"] != 1.5 || len(p) != 2 {
		t.Errorf("two actions: %v %v", p, err)
	}
	for _, bad := range []string{"jump=1", "breakpoint", "breakpoint=x", "breakpoint=NaN", "breakpoint=1,"} {
		if _, err := parseCopyPrior(bad); err == nil || !strings.Contains(err.Error(), "--copy-prior") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
