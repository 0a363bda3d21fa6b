package corpus

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sync"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// RepoModule is one test module of the Python standard library's own test suite and
// the package code its trace records (files, or directories ending in "/", relative
// to RepoOptions.Root).
type RepoModule struct {
	Test  string
	Roots []string
}

// StdlibModules are pure-Python packages with good unittest modules and no need for
// the network, threads or subprocesses (C-accelerated parts are simply not traced).
var StdlibModules = []RepoModule{
	{"test.test_json", []string{"json/"}},
	{"test.test_textwrap", []string{"textwrap.py"}},
	{"test.test_difflib", []string{"difflib.py"}},
	{"test.test_fractions", []string{"fractions.py"}},
	{"test.test_statistics", []string{"statistics.py"}},
	{"test.test_string", []string{"string.py"}},
	{"test.test_shlex", []string{"shlex.py"}},
	{"test.test_configparser", []string{"configparser.py"}},
	{"test.test_htmlparser", []string{"html/"}},
	{"test.test_urlparse", []string{"urllib/parse.py"}},
	{"test.test_ipaddress", []string{"ipaddress.py"}},
	{"test.test_heapq", []string{"heapq.py"}},
	{"test.test_bisect", []string{"bisect.py"}},
	{"test.test_calendar", []string{"calendar.py"}},
	{"test.test_colorsys", []string{"colorsys.py"}},
	{"test.test_fnmatch", []string{"fnmatch.py"}},
	{"test.test_posixpath", []string{"posixpath.py", "genericpath.py"}},
	{"test.test_pprint", []string{"pprint.py"}},
	{"test.test_reprlib", []string{"reprlib.py"}},
	{"test.test_tomllib", []string{"tomllib/"}},
	{"test.test_base64", []string{"base64.py"}},
	{"test.test_quopri", []string{"quopri.py"}},
	{"test.test_dataclasses", []string{"dataclasses.py"}},
	{"test.test_enum", []string{"enum.py"}},
	{"test.test_functools", []string{"functools.py"}},
	{"test.test_csv", []string{"csv.py"}},
	{"test.test_email", []string{"email/"}},
	{"test.test_gettext", []string{"gettext.py"}},
	{"test.test_glob", []string{"glob.py"}},
	{"test.test_decimal", []string{"_pydecimal.py"}},
	{"test.test_datetime", []string{"_strptime.py", "datetime.py"}},
	{"test.test_operator", []string{"operator.py"}},
	{"test.test_keyword", []string{"keyword.py"}},
	{"test.test_graphlib", []string{"graphlib.py"}},
}

// RepoPython is the interpreter that traces the repository level: Debian's own
// Python 3.11, whose standard library the test suite (libpython3.11-testsuite) tests.
const RepoPython = "/usr/bin/python3.11"

// RepoOptions configure the repository-level part of a corpus.
type RepoOptions struct {
	// Modules are traced, each once (default StdlibModules).
	Modules []RepoModule
	// Root is where the modules' roots lie and what event paths are relative to
	// (default /usr/lib/python3.11/).
	Root string
	// RepoShare is the share of all trajectories that are repository-level (default
	// 0.5, as the paper).
	RepoShare float64
	// MinStates drops scopes with fewer states (default 3).
	MinStates int
	// Limits bound each module's run (default 20,000 events, 10 s).
	Limits trace.Limits
}

func (o RepoOptions) withDefaults() RepoOptions {
	if o.Modules == nil {
		o.Modules = StdlibModules
	}
	if o.Root == "" {
		o.Root = "/usr/lib/python3.11/"
	}
	if o.RepoShare <= 0 || o.RepoShare >= 1 {
		o.RepoShare = 0.5
	}
	if o.MinStates <= 0 {
		o.MinStates = 3
	}
	return o
}

// RepoStats count the repository-level part of a corpus.
type RepoStats struct {
	Modules      map[string]int    `json:"modules"`      // usable scoped entry calls per module
	Failed       map[string]string `json:"failed"`       // modules that gave no trace, and why
	EntryCalls   int               `json:"entry_calls"`  // distinct scoped entry calls used
	Trajectories int               `json:"trajectories"` // repository-level trajectories written
	TooLong      int               `json:"too_long"`     // scopes or trajectories over MaxBytes
	Unstable     int               `json:"unstable"`     // scopes a second trace recorded otherwise
	Actions      int               `json:"actions"`
	Bytes        int64             `json:"bytes"`
}

// repoScope is one candidate entry call: a scope with its context.
type repoScope struct {
	module string
	tree   *trace.Tree
	ctx    grammar.Context
}

// BuildRepo appends repository-level trajectories to the corpus Build wrote in
// opts.Out: as many as make them RepoShare of all trajectories, given the
// fnTrajectories function-level ones there. Modules are traced in parallel on pool,
// each twice; every call node of their traces (cut with Tree.Scope) that both traces
// recorded alike is a candidate entry, so that, with pool's hash seed fixed
// (trace.PoolOptions.HashSeed), two builds give the same trajectories; and the
// candidates are drawn in a seeded order, half forward and half inverse. A module's
// trajectories go to the held-out split when its name hashes there.
func BuildRepo(ctx context.Context, pool *trace.Pool, opts Options, ro RepoOptions, fnTrajectories int) (RepoStats, error) {
	opts, ro = opts.withDefaults(), ro.withDefaults()
	st := RepoStats{Modules: map[string]int{}, Failed: map[string]string{}}
	scopes := repoScopes(ctx, pool, opts, ro, &st)
	if len(scopes) == 0 {
		return st, fmt.Errorf("no repository-level scopes (is the test suite installed? %v)", st.Failed)
	}
	want := int(float64(fnTrajectories)*ro.RepoShare/(1-ro.RepoShare) + 0.5)
	rng := rand.New(rand.NewPCG(uint64(opts.Seed), 0x5eed))
	rng.Shuffle(len(scopes), func(i, j int) { scopes[i], scopes[j] = scopes[j], scopes[i] })
	train, err := appendSplit(opts.Out, TrainText)
	if err != nil {
		return st, err
	}
	defer train.close()
	eval, err := appendSplit(opts.Out, EvalText)
	if err != nil {
		return st, err
	}
	defer eval.close()
	used := map[int]bool{}
	s := trace.NewSampler(uint64(opts.Seed)*7_000_003, trace.SampleOptions{})
	for k, miss := 0, 0; st.Trajectories < want && miss < len(scopes); k++ {
		i := k % len(scopes)
		sc := scopes[i]
		tree := sc.tree
		if k%2 == 1 {
			tree = tree.Inverse()
		}
		tr := s.Sample(tree)
		tr.Context = sc.ctx
		text, err := grammar.EncodeTrajectory(tr)
		if err != nil {
			return st, fmt.Errorf("%s: %w", sc.module, err)
		}
		if len(text) > opts.MaxBytes {
			st.TooLong++
			miss++
			continue
		}
		miss = 0
		id := moduleID(sc.module)
		out := train
		if heldOut(id, opts.HeldOut) {
			out = eval
		}
		line := Trajectory{Program: id, Level: "repository", Direction: tr.Direction.String(), Actions: len(tr.Steps), Text: text}
		if err := out.enc.Encode(line); err != nil {
			return st, err
		}
		used[i] = true
		st.Trajectories++
		st.Actions += len(tr.Steps)
		st.Bytes += int64(len(text))
	}
	st.EntryCalls = len(used)
	if err := train.close(); err != nil {
		return st, err
	}
	return st, eval.close()
}

// repoScopes traces every module and returns the usable scopes in module order.
func repoScopes(ctx context.Context, pool *trace.Pool, opts Options, ro RepoOptions, st *RepoStats) []repoScope {
	files := trace.NewRepoFiles(pool, ro.Root)
	per := make([][]repoScope, len(ro.Modules))
	why := make([]string, len(ro.Modules))
	counts := make([]scopeCounts, len(ro.Modules))
	sem := make(chan struct{}, pool.Size())
	var wg sync.WaitGroup
	for m, mod := range ro.Modules {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			per[m], counts[m], why[m] = moduleScopes(ctx, pool, files, opts, ro, mod)
		}()
	}
	wg.Wait()
	var all []repoScope
	seen := map[string]bool{}
	for m, mod := range ro.Modules {
		if seen[mod.Test] {
			continue
		}
		seen[mod.Test] = true
		st.TooLong += counts[m].tooLong
		st.Unstable += counts[m].unstable
		if why[m] != "" {
			st.Failed[mod.Test] = why[m]
			continue
		}
		st.Modules[mod.Test] = len(per[m])
		all = append(all, per[m]...)
	}
	return all
}

// moduleScopes traces one module twice and cuts its first trace into scopes,
// keeping those the second trace recorded alike (scopeCounts).
func moduleScopes(ctx context.Context, pool *trace.Pool, files *trace.RepoFiles, opts Options, ro RepoOptions, mod RepoModule) ([]repoScope, scopeCounts, string) {
	roots := make([]string, len(mod.Roots))
	for i, r := range mod.Roots {
		roots[i] = filepath.Join(ro.Root, r)
		if r[len(r)-1] == '/' {
			roots[i] += "/"
		}
	}
	var runs [2]*trace.Tree
	var events int          // of the trace the scopes are cut from (the first),
	var status trace.Status // for the reason when none is usable
	for k := range runs {
		res, err := pool.TraceTests(ctx, trace.TestsRequest{Name: mod.Test, Roots: roots, Strip: ro.Root, Limits: ro.Limits})
		switch {
		case err != nil:
			return nil, scopeCounts{}, err.Error()
		case res.Setup != nil:
			return nil, scopeCounts{}, res.Setup.Message
		}
		if runs[k], err = trace.NewForward(res); err != nil {
			return nil, scopeCounts{}, err.Error()
		}
		if k == 0 {
			events, status = len(res.Events), res.Status
		}
	}
	var out []repoScope
	var n scopeCounts
	for _, i := range trace.CallNodes(runs[0]) {
		scope, err := runs[0].Scope(i)
		if err != nil || len(scope.Nodes) < ro.MinStates {
			continue
		}
		if again, err := runs[1].Scope(i); err != nil || !sameScope(scope, again) {
			n.unstable++ // ids, temporary names, the clock: another run would differ
			continue
		}
		c, err := files.Context(ctx, scope)
		if err != nil {
			continue
		}
		if len(c.Text()) > opts.MaxBytes/2 {
			n.tooLong++ // the context alone leaves no room for the states
			continue
		}
		out = append(out, repoScope{module: mod.Test, tree: scope, ctx: c})
	}
	if len(out) == 0 {
		return nil, n, fmt.Sprintf("no usable scope in %d events (%s; %d unstable)", events, status, n.unstable)
	}
	return out, n, ""
}

// scopeCounts are the scopes of a module left out: too long, or unstable (the two
// traces of the module recorded them differently).
type scopeCounts struct{ tooLong, unstable int }

// sameScope reports whether two scopes recorded the same states and exit.
func sameScope(a, b *trace.Tree) bool {
	return a.Exit == b.Exit && reflect.DeepEqual(a.Nodes, b.Nodes)
}

// moduleID names a repository-level "program": the test module.
func moduleID(name string) string {
	sum := sha256.Sum256([]byte("repository:" + name))
	return hex.EncodeToString(sum[:8])
}

// appended is a corpus text file opened for appending.
type appended struct {
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
}

func appendSplit(dir, name string) (*appended, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	a := &appended{f: f, w: bufio.NewWriterSize(f, 1<<20)}
	a.enc = json.NewEncoder(a.w)
	a.enc.SetEscapeHTML(false)
	return a, nil
}

// close flushes and closes the file; closing twice is harmless.
func (a *appended) close() error {
	if a.f == nil {
		return nil
	}
	err := a.w.Flush()
	if e := a.f.Close(); err == nil {
		err = e
	}
	a.f = nil
	return err
}
