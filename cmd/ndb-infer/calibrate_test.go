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

// captureStdout runs f with os.Stdout sent to a file and returns what f wrote.
func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stdout")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = out
	defer func() { os.Stdout = stdout }()
	f()
	out.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// exitCode is main's exit status for err.
func exitCode(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestEvalCalibrate runs `ndb-infer calibrate` (what `ndb eval nextstate --calibrate` runs) on a copy of the tiny
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
		code = exitCode(runCalibrate(context.Background(), []string{"--corpus", corpus, "--limit", "3",
			"--model", tiny, "--max-tokens", "32", "--out", out}))
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
