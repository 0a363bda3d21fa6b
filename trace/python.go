package trace

import (
	"bytes"
	"context"
	_ "embed" // the tracer source
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
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
const bootstrap = "import sys;exec(compile(sys.stdin.read(),'<ndb-tracer>','exec'))"

// pythonArgs are the interpreter flags of a worker: isolated mode (no user site,
// no PYTHON* environment, no script directory on sys.path), no site module, no
// .pyc files written.
var pythonArgs = []string{"-I", "-S", "-B", "-c", bootstrap}

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
	if name == "" {
		name = DefaultPython()
	}
	found, err := exec.LookPath(name)
	if err != nil {
		return "", "", fmt.Errorf("%w: %q not found (set NDB_PYTHON or PoolOptions.Python): %v", ErrNoPython, name, err)
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
