package trace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// setOrder is a program whose output is the iteration order of a set of strings,
// which Python's hash seed decides.
const setOrder = `words = {'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'tau', 'upsilon'}
print(list(words))
`

// traceOutput traces a script in a fresh pool and returns its output.
func traceOutput(t *testing.T, opts PoolOptions, src string) string {
	t.Helper()
	opts.Workers, opts.Log = 1, zerolog.Nop()
	pool, err := NewPool(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	res, err := pool.Trace(context.Background(), TraceRequest{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusNormal {
		t.Fatalf("status %s: %s\n%s", res.Status, res.Exception, res.Output)
	}
	return res.Output
}

// TestHashSeedFixesSetOrder: workers started with a hash seed iterate a set of
// strings in one order, across processes; without one, each worker has its own.
func TestHashSeedFixesSetOrder(t *testing.T) {
	a := traceOutput(t, PoolOptions{HashSeed: "0"}, setOrder)
	b := traceOutput(t, PoolOptions{HashSeed: "0"}, setOrder)
	if a != b {
		t.Errorf("two workers with hash seed 0 iterate the set differently:\n%s%s", a, b)
	}
	c := traceOutput(t, PoolOptions{HashSeed: "1"}, setOrder)
	d := traceOutput(t, PoolOptions{}, setOrder)
	if c == a || d == a {
		t.Errorf("another seed, or none, gave hash seed 0's order (%q, %q): the seed does not reach the workers", c, d)
	}
}

// TestHashSeedKeepsIsolation: a worker with a hash seed runs without -E, but still
// ignores PYTHONPATH and the other PYTHON* variables and has no script directory on
// sys.path, as isolated mode.
func TestHashSeedKeepsIsolation(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ndb_hijack.py"), []byte("print('hijacked')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", dir)
	t.Setenv("PYTHONSAFEPATH", "")
	out := traceOutput(t, PoolOptions{HashSeed: "0"}, `import os, sys
try:
    import ndb_hijack
except ImportError:
    print('not found')
print([k for k in os.environ if k.startswith('PYTHON') and k != 'PYTHONHASHSEED'], '' in sys.path, sys.flags.no_user_site)
`)
	if want := "not found\n[] False 1\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

// TestHashSeedRefused: a seed Python would refuse is refused before any worker
// starts.
func TestHashSeedRefused(t *testing.T) {
	for _, seed := range []string{"x", "-1", "4294967296", "1.5"} {
		_, err := NewPool(context.Background(), PoolOptions{HashSeed: seed})
		if err == nil || !strings.Contains(err.Error(), "hash seed") {
			t.Errorf("seed %q: %v, want a hash seed error", seed, err)
		}
	}
}
