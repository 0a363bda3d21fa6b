package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/models"
)

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

// TestCompareTinyModel runs `ndb compare` with the tiny random checkpoint: the
// terminal table (plain, as stdout is no terminal), the summary and the HTML page.
func TestCompareTinyModel(t *testing.T) {
	needInfer(t)
	t.Setenv("NDB_THREADS", "1")
	count := filepath.Join("..", "..", "testdata", "programs", "count.py")
	tiny := filepath.Join("..", "..", "testdata", "tinymodel")
	page := filepath.Join(t.TempDir(), "cmp.html")
	var code int
	out := captureStdout(t, func() {
		code = run(context.Background(), []string{"compare", count, "--entry", `count("berry", "r")`,
			"--actions", "step_into,step_over,continue", "--model", tiny, "--max-tokens", "48", "--html", page,
			"--constraints", "grammar"}) // the random model under the facts may end the run at once (exit never)
	})
	if code != 0 {
		t.Fatalf("exit status %d\n%s", code, out)
	}
	for _, want := range []string{"step 0  entry", "step 1  step_into", "step 3  continue", "predicted", "recorded", "1  def count(s, t):", "summary: ", "event "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colours on a stdout that is no terminal")
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", "count(&#34;berry&#34;, &#34;r&#34;)", "step_over", "def count(s, t):"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("no %q in the page", want)
		}
	}

	// --seed samples the actions from the recorded tree.
	out = captureStdout(t, func() {
		code = run(context.Background(), []string{"compare", count, "--entry", `count("berry", "r")`, "--seed", "3", "--model", tiny, "--max-tokens", "32"})
	})
	if code != 0 || !strings.Contains(out, "sampled from seed 3") || !strings.Contains(out, "step 1  ") {
		t.Errorf("--seed: exit status %d\n%s", code, out)
	}
}

// TestCompareNeedsAModel checks the errors before anything runs: a --model that is no
// folder, no model at all in a build that bundles none, and bad usage.
func TestCompareNeedsAModel(t *testing.T) {
	count := filepath.Join("..", "..", "testdata", "programs", "count.py")
	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = devnull, devnull
	defer func() { os.Stdout, os.Stderr = stdout, stderr }()
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"missing model folder", []string{"compare", count, "--seed", "1", "--model", filepath.Join(t.TempDir(), "none")}, exitUsage},
		{"no actions nor seed", []string{"compare", count, "--model", "x"}, exitUsage},
		{"both actions and seed", []string{"compare", count, "--seed", "1", "--actions", "step_into"}, exitUsage},
		{"bad action", []string{"compare", count, "--actions", "jump"}, exitUsage},
		{"bad colour", []string{"compare", count, "--seed", "1", "--color", "pink"}, exitUsage},
	}
	if !models.Bundled() {
		cases = append(cases, struct {
			name string
			args []string
			want int
		}{"no default model", []string{"compare", count, "--seed", "1"}, 1})
	}
	for _, c := range cases {
		if got := run(context.Background(), c.args); got != c.want {
			t.Errorf("%s: exit status %d, want %d", c.name, got, c.want)
		}
	}
}
