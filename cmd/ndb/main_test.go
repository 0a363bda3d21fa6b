package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestBadInputExitsWithStatus2 checks that problems with the user's input end with
// one line on stderr and exit status 2, and that good input succeeds.
func TestBadInputExitsWithStatus2(t *testing.T) {
	dir := t.TempDir()
	syntax := filepath.Join(dir, "bad.py")
	if err := os.WriteFile(syntax, []byte("def f(:\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	count := filepath.Join("..", "..", "testdata", "programs", "count.py")
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"missing file", []string{"trace", filepath.Join(dir, "nope.py")}, exitUsage},
		{"syntax error", []string{"trace", syntax}, exitUsage},
		{"entry names nothing", []string{"trace", count, "--entry", "nothing(1)"}, exitUsage},
		{"entry does not parse", []string{"trajectory", count, "--entry", "count(", "--seed", "1"}, exitUsage},
		{"unknown action", []string{"trajectory", count, "--entry", `count("a", "a")`, "--actions", "jump"}, exitUsage},
		{"inverse action forward", []string{"trajectory", count, "--entry", `count("a", "a")`, "--actions", "inv_step_into"}, exitUsage},
		{"no actions nor seed", []string{"trajectory", count}, exitUsage},
		{"unknown command", []string{"frobnicate"}, exitUsage},
		{"dap beyond loopback", []string{"dap", "--listen", "0.0.0.0:0"}, exitUsage},
		{"mcp beyond loopback", []string{"mcp", "--listen", "0.0.0.0:0"}, exitUsage},
		{"dap on every IPv6 address", []string{"dap", "--listen", "[::]:0"}, exitUsage},
		{"mix of one corpus", []string{"data", "mix", "--out", filepath.Join(dir, "mix"), dir}, exitUsage},
		{"good trace", []string{"trace", count, "--entry", `count("berry", "r")`}, 0},
		{"good trajectory", []string{"trajectory", count, "--entry", `count("berry", "r")`, "--inverse", "--seed", "3"}, 0},
	}
	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	stdout := os.Stdout
	os.Stdout = devnull
	defer func() { os.Stdout = stdout }()
	for _, c := range cases {
		if got := run(context.Background(), c.args); got != c.want {
			t.Errorf("%s: exit status %d, want %d", c.name, got, c.want)
		}
	}
}
