package trace

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
)

// testProgram is one program of testdata/programs with its entry call.
type testProgram struct {
	Name  string // file name without .py
	Path  string
	Entry string // "" for a whole script
}

func testPrograms(t testing.TB) []testProgram {
	t.Helper()
	dir := filepath.Join("..", "testdata", "programs")
	entries := map[string]string{}
	f, err := os.Open(filepath.Join(dir, "entries.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		file, call, _ := strings.Cut(line, " ")
		entries[file] = call
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.py"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no test programs in %s: %v", dir, err)
	}
	var progs []testProgram
	for _, p := range paths {
		base := filepath.Base(p)
		progs = append(progs, testProgram{Name: strings.TrimSuffix(base, ".py"), Path: p, Entry: entries[base]})
	}
	return progs
}

var (
	sharedPoolOnce sync.Once
	sharedPool     *Pool
	sharedPoolErr  error
	recordings     sync.Map // name -> *Recording
)

// testPool is one worker pool shared by the tests of this package.
func testPool(t testing.TB) *Pool {
	t.Helper()
	sharedPoolOnce.Do(func() {
		sharedPool, sharedPoolErr = NewPool(context.Background(), PoolOptions{Workers: 2, Log: zerolog.Nop()})
	})
	if sharedPoolErr != nil {
		t.Fatalf("starting the tracer pool: %v", sharedPoolErr)
	}
	return sharedPool
}

// record traces one test program once per test binary.
func record(t testing.TB, p testProgram) *Recording {
	t.Helper()
	if r, ok := recordings.Load(p.Name); ok {
		return r.(*Recording)
	}
	src, err := os.ReadFile(p.Path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := testPool(t).Record(context.Background(), p.Path, string(src), p.Entry, Limits{})
	if err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	recordings.Store(p.Name, rec)
	return rec
}

func programNamed(t testing.TB, name string) testProgram {
	for _, p := range testPrograms(t) {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no test program %q", name)
	return testProgram{}
}
