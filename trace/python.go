package trace

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed" // the tracer source
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed tracer.py
var tracerMain string

//go:embed analyze.py
var analyzeSource string

// tracerSource is the worker program: the static analysis (analyze.py, the program
// facts of the parse method) followed by the tracer.
var tracerSource = analyzeSource + "\n" + tracerMain

// TracerSource returns the Python worker program (analyze.py and tracer.py) embedded in
// the binary.
func TracerSource() string { return tracerSource }

// bootstrap is what `python -c` runs: it reads the tracer from stdin, so the
// command line stays short and the tracer's code objects carry their own filename.
// With --code-cache PREFIX it loads the compiled tracer from PREFIX + the
// interpreter's cache tag and version (a marshal file, as .pyc files are), and on a
// miss compiles the source and writes that file (to a temporary name, then
// renamed): compiling the tracer was a third of a worker's start. The names are
// the tracer's globals, hence the prefix.
const bootstrap = `import sys,marshal
if not sys.flags.isolated and sys.path[:1]==['']:del sys.path[0]
_ndb_s=sys.stdin.buffer.read()
_ndb_a=sys.argv
_ndb_p=_ndb_a[_ndb_a.index('--code-cache')+1]+'-%s-%x.bin'%(sys.implementation.cache_tag,sys.hexversion) if '--code-cache' in _ndb_a else ''
try:
 with open(_ndb_p,'rb') as _ndb_f:_ndb_c=marshal.loads(_ndb_f.read())
except Exception:
 _ndb_c=compile(_ndb_s,'<ndb-tracer>','exec')
 if _ndb_p:
  try:
   import os
   _ndb_t='%s.%d.tmp'%(_ndb_p,os.getpid())
   with open(_ndb_t,'wb') as _ndb_f:_ndb_f.write(marshal.dumps(_ndb_c))
   os.replace(_ndb_t,_ndb_p)
  except Exception:pass
del _ndb_s,_ndb_a,_ndb_p
exec(_ndb_c)`

// pythonArgs are the interpreter flags of a worker: isolated mode (no user site,
// no PYTHON* environment, no script directory on sys.path), no site module, no
// .pyc files written (the tracer's own compiled code is cached by the bootstrap,
// codeCachePrefix). A worker with a fixed hash seed runs without -E (hashseed.go);
// the bootstrap then drops the script directory that -I would have kept out.
var pythonArgs = []string{"-I", "-S", "-B", "-c", bootstrap}

// tracerHash names the tracer's compiled code in the code cache.
var tracerHash = sync.OnceValue(func() string {
	sum := sha256.Sum256([]byte(tracerSource))
	return hex.EncodeToString(sum[:12])
})

// codeCachePrefix is where workers keep the tracer's compiled code when the user
// asks for a code cache (NDB_CACHE_DIR names a directory), named by a hash of the
// tracer's source, so that a new ndb never loads an old tracer. Empty, the default
// (and "off"): every worker compiles the tracer. The cache is opt-in because a
// traced program runs as the user and could rewrite the file, and every later
// worker would then run what it wrote: one session's program would change what
// later sessions see (docs/sandbox.md).
func codeCachePrefix() string {
	dir := strings.TrimSpace(os.Getenv("NDB_CACHE_DIR"))
	if dir == "" || dir == "off" || os.MkdirAll(dir, 0o700) != nil {
		return ""
	}
	return filepath.Join(dir, "tracer-"+tracerHash())
}

// MinPythonVersion is the oldest interpreter the tracer supports (it needs
// code.co_lines).
const MinPythonVersion = "3.10"

// DefaultPython returns the interpreter a pool uses when none is given: the
// NDB_PYTHON environment variable, else "python3".
func DefaultPython() string {
	if p := strings.TrimSpace(os.Getenv("NDB_PYTHON")); p != "" {
		return p
	}
	return "python3"
}

// ResolvePython finds the interpreter `name` (a path or a command on PATH) and
// returns the real executable behind it (sys.executable, so that wrapper
// scripts such as pyenv shims are not paid for at every worker start) and its
// version. It fails with ErrNoPython when the interpreter is missing, broken
// or older than MinPythonVersion.
func ResolvePython(ctx context.Context, name string) (path, version string, err error) {
	found, err := lookPython(name)
	if err != nil {
		return "", "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, found, "-I", "-S", "-c",
		"import sys;print(sys.executable);print('%d.%d.%d'%sys.version_info[:3])")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("%w: %s does not run: %v: %s", ErrNoPython, found, err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 {
		return "", "", fmt.Errorf("%w: %s gave unexpected output %q", ErrNoPython, found, out)
	}
	path, version = lines[0], lines[1]
	if !versionAtLeast(version, MinPythonVersion) {
		return "", "", fmt.Errorf("%w: %s is Python %s, need %s or newer", ErrNoPython, found, version, MinPythonVersion)
	}
	if _, err := os.Stat(path); err != nil {
		path = found // sys.executable can be empty or odd in embedded setups
	}
	return path, version, nil
}

// lookPython finds the interpreter `name` (empty: DefaultPython()) on PATH.
func lookPython(name string) (string, error) {
	if name == "" {
		name = DefaultPython()
	}
	found, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %q not found (set NDB_PYTHON or PoolOptions.Python): %v", ErrNoPython, name, err)
	}
	return found, nil
}

// versionAtLeast compares dotted versions numerically ("3.9.1" < "3.10").
func versionAtLeast(have, want string) bool {
	h, w := strings.Split(have, "."), strings.Split(want, ".")
	for i := range w {
		var hv int
		if i < len(h) {
			hv, _ = strconv.Atoi(h[i])
		}
		wv, _ := strconv.Atoi(w[i])
		if hv != wv {
			return hv > wv
		}
	}
	return true
}
