package trace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/ndb-project/ndb/grammar"
)

// TestsRequest asks a worker to run a unittest module of real code (issue 3,
// repository-level traces) under settrace, recording only the frames of the package
// under test: every outermost call into it from the test code is a root activation at
// depth 0, so the events are a sequence of independent root calls.
type TestsRequest struct {
	// Name is a test module or test id, e.g. "test.test_json.test_decode".
	Name string `json:"name"`
	// Roots are the files, or directories ending in "/", whose frames are recorded,
	// e.g. "/usr/lib/python3.11/json/".
	Roots []string `json:"roots"`
	// Strip is removed from the front of recorded file paths, e.g.
	// "/usr/lib/python3.11/" makes events say "json/decoder.py".
	Strip string `json:"strip"`
	// Limits bound the whole module run; zero fields default to 20,000 events and
	// 10 s (a run cut off ends with status never, the events so far kept).
	Limits Limits `json:"limits"`
}

// The default bounds of a TraceTests run.
const (
	DefaultTestsEvents = 20000
	DefaultTestsWall   = 10.0
)

// TraceTests runs a unittest module inside a worker and records the package's frames.
// Test modules that need the network, threads, subprocesses or tracing of their own
// are refused by the tracer's deny list (a setup error of kind "entry").
func (p *Pool) TraceTests(ctx context.Context, req TestsRequest) (TraceResult, error) {
	if req.Limits.MaxEvents == 0 {
		req.Limits.MaxEvents = DefaultTestsEvents
	}
	if req.Limits.WallSecs == 0 {
		req.Limits.WallSecs = DefaultTestsWall
	}
	req.Limits = p.limits(req.Limits)
	var res TraceResult
	err := p.do(ctx, "trace_tests", req, &res, req.Limits.wall())
	if errors.Is(err, ErrWorkerTimeout) {
		return TraceResult{Status: StatusNever, Exception: "time limit"}, err
	}
	return res, err
}

// CallNodes returns the indices of the call nodes of a forward tree that start a frame
// (a generator's resumptions are left out): the entry points of repository-level
// trajectories, each cut with Tree.Scope.
func CallNodes(t *Tree) []int {
	seen := map[int]bool{}
	var out []int
	for i, n := range t.Nodes {
		if n.Event == grammar.EventCall && !seen[n.Frame] {
			seen[n.Frame] = true
			out = append(out, i)
		}
	}
	return out
}

// RepoFiles reads and parses the source files of a repository-level trace, once each,
// and builds the multi-file context of a scope. It is safe for concurrent use.
type RepoFiles struct {
	pool *Pool
	root string // what recorded file paths are relative to

	mu    sync.Mutex
	files map[string]*repoFile
}

type repoFile struct {
	lines map[int]string
	funcs []Function
	err   error
}

// NewRepoFiles returns a reader of the files under root (the Strip of the traces),
// parsed with pool.
func NewRepoFiles(pool *Pool, root string) *RepoFiles {
	return &RepoFiles{pool: pool, root: root, files: map[string]*repoFile{}}
}

func (r *RepoFiles) file(ctx context.Context, rel string) *repoFile {
	r.mu.Lock()
	f, ok := r.files[rel]
	r.mu.Unlock()
	if ok {
		return f
	}
	f = &repoFile{}
	path := rel
	if !filepath.IsAbs(rel) {
		path = filepath.Join(r.root, rel)
	}
	src, err := os.ReadFile(path)
	if err == nil {
		var pr ParseResult
		pr, err = r.pool.Parse(ctx, ParseRequest{Source: string(src)})
		if err == nil && pr.Syntax != nil {
			err = fmt.Errorf("%s: %s", rel, pr.Syntax.Message)
		}
		f.funcs = pr.Functions
		f.lines = map[int]string{}
		for _, l := range grammar.NewContext("", string(src)).Files[0].Lines {
			f.lines[l.N] = l.Text
		}
	}
	f.err = err
	r.mu.Lock()
	r.files[rel] = f
	r.mu.Unlock()
	return f
}

// Context returns the context of a scope (see Tree.Scope): for every file the scope
// visits, in order of first visit under a `# file: PATH` header, the whole of every
// function it runs (the innermost function around each visited line), and any visited
// line outside a function (a decorator line of a call, a module body).
func (r *RepoFiles) Context(ctx context.Context, scope *Tree) (grammar.Context, error) {
	var order []string
	want := map[string]map[int]bool{}
	for _, n := range scope.Nodes {
		path := n.Loc.File
		set, ok := want[path]
		if !ok {
			set = map[int]bool{}
			want[path] = set
			order = append(order, path)
		}
		if set[n.Loc.Line] {
			continue
		}
		f := r.file(ctx, path)
		if f.err != nil {
			return grammar.Context{}, f.err
		}
		lo, hi := n.Loc.Line, n.Loc.Line
		if fn, ok := innermost(f.funcs, n.Loc.Line); ok {
			lo, hi = fn.FirstLine, fn.LastLine
		}
		for l := lo; l <= hi; l++ {
			set[l] = true
		}
	}
	files := make([]grammar.ContextFile, 0, len(order))
	for _, path := range order {
		f := r.file(ctx, path)
		nums := make([]int, 0, len(want[path]))
		for l := range want[path] {
			if _, ok := f.lines[l]; ok {
				nums = append(nums, l)
			}
		}
		sort.Ints(nums)
		cf := grammar.ContextFile{Path: path, Lines: make([]grammar.SourceLine, len(nums))}
		for k, l := range nums {
			cf.Lines[k] = grammar.SourceLine{N: l, Text: f.lines[l]}
		}
		files = append(files, cf)
	}
	return grammar.NewContextFiles(files...)
}

// innermost returns the innermost function whose lines hold line.
func innermost(funcs []Function, line int) (Function, bool) {
	var best Function
	found := false
	for _, fn := range funcs {
		if fn.FirstLine <= line && line <= fn.LastLine && (!found || fn.FirstLine >= best.FirstLine) {
			best, found = fn, true
		}
	}
	return best, found
}
