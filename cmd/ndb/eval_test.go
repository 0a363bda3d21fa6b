package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/infer"
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

// TestEvalUsage: a missing or unknown evaluation is bad usage (exit status 2).
func TestEvalUsage(t *testing.T) {
	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	stderr := os.Stderr
	os.Stderr = devnull
	defer func() { os.Stderr = stderr; devnull.Close() }()
	for _, args := range [][]string{{"eval"}, {"eval", "nope"}, {"eval", "cruxeval"}, {"eval", "horizon", "x.jsonl", "--k", "0"}} {
		if code := run(context.Background(), args); code != exitUsage {
			t.Errorf("%v: exit status %d, want %d", args, code, exitUsage)
		}
	}
}

// TestEvalCalibrate runs `ndb eval nextstate --calibrate` on a copy of the tiny
// checkpoint, over golden trajectories put under programs on both sides of the split:
// the calibration tables, the fit's table, and calibration.json tied to the weights.
func TestEvalCalibrate(t *testing.T) {
	t.Setenv("NDB_THREADS", "1")
	tiny := t.TempDir()
	for _, f := range []string{infer.WeightsFile, infer.ConfigFile, infer.TokenizerFile} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "tinymodel", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tiny, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The golden trajectories again, each under a program name, names on both sides.
	corpus := goldenCorpus(t)
	b, err := os.ReadFile(filepath.Join(corpus, "eval.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := 0; len(names) < 2; i++ {
		n := fmt.Sprintf("p%d", i)
		if len(names) == 0 || fitHalf(n) != fitHalf(names[0]) {
			names = append(names, n)
		}
	}
	var lines []string
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		lines = append(lines, strings.Replace(l, `"program":"count"`, `"program":"`+names[i%2]+`"`, 1))
	}
	if err := os.WriteFile(filepath.Join(corpus, "eval.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var code int
	stdout := captureStdout(t, func() {
		code = run(context.Background(), []string{"eval", "nextstate", "--corpus", corpus, "--limit", "3",
			"--model", tiny, "--max-tokens", "32", "--out", out, "--calibrate"})
	})
	if code != 0 {
		t.Fatalf("exit status %d\n%s", code, stdout)
	}
	for _, want := range []string{"Confidence calibration, function level", "Reliability, function level", "Calibration fit", "→", "temperatures"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	cal, stale, err := infer.LoadCalibration(tiny)
	if err != nil || stale || cal == nil || len(cal.Temperatures) != int(infer.NumKinds) {
		t.Errorf("calibration.json: %+v, stale %v, %v", cal, stale, err)
	}
	for _, png := range []string{"reliability_function.png", "reliability_state_function.png"} {
		if b, err := os.ReadFile(filepath.Join(out, png)); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
			t.Errorf("%s: not a PNG (%v)", png, err)
		}
	}
}
