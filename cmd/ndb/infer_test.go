package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ndb-project/ndb/modelserver"
)

// inferBin is the ndb-infer the neural tests start: $NDB_INFER when set, else one
// built once per test run from ../ndb-infer (it links libtorch; where it cannot be
// built, the tests that need a model skip: the pure-Go ndb builds and tests
// without it).
var inferBin = sync.OnceValues(func() (string, error) {
	if b := os.Getenv("NDB_INFER"); b != "" {
		return b, nil
	}
	dir, err := os.MkdirTemp("", "ndb-infer-test")
	if err != nil {
		return "", err
	}
	builtDir = dir
	bin := filepath.Join(dir, "ndb-infer")
	cmd := exec.Command("go", "build", "-o", bin, "../ndb-infer")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{string(out)}
	}
	return bin, nil
})

// builtDir is the folder of the ndb-infer built for this run, removed at its end.
var builtDir string

type buildError struct{ out string }

func (e *buildError) Error() string { return "go build ../ndb-infer: " + e.out }

// needInfer makes the neural backend of this test process ndb-infer, or skips.
func needInfer(t *testing.T) string {
	t.Helper()
	bin, err := inferBin()
	if err != nil {
		t.Skipf("no model server: %v", err)
	}
	t.Setenv("NDB_INFER", bin)
	return bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	modelserver.Default.Close()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}
