package corpus

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// TestBuildRepo traces a few standard-library test modules and appends
// repository-level trajectories. NDB_REPO_ALL=1 runs every module of StdlibModules and
// logs the counts per module.
func TestBuildRepo(t *testing.T) {
	if _, err := os.Stat("/usr/lib/python3.11/test/test_json"); err != nil {
		t.Skip("the Python 3.11 test suite is not installed (run scripts/install-testsuite.sh)")
	}
	pool, err := trace.NewPool(context.Background(), trace.PoolOptions{Python: "/usr/bin/python3.11"})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ro := RepoOptions{Modules: []RepoModule{
		{"test.test_textwrap", []string{"textwrap.py"}},
		{"test.test_colorsys", []string{"colorsys.py"}},
		{"test.test_subprocess", []string{"subprocess.py"}}, // denied
	}, Limits: trace.Limits{WallSecs: 60}} // generous: a loaded machine must not cut the runs
	want := 200
	if os.Getenv("NDB_REPO_ALL") != "" {
		ro.Modules, want = nil, 20000
	}
	dir := t.TempDir()
	st, err := BuildRepo(context.Background(), pool, Options{Out: dir, Seed: 3}, ro, want)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for m, n := range st.Modules {
		t.Logf("%s: %d entry calls", m, n)
		total += n
	}
	t.Logf("failed: %v", st.Failed)
	t.Logf("total candidate entry calls %d, used %d, trajectories %d, too long %d, mean actions %.2f, mean bytes %.0f",
		total, st.EntryCalls, st.Trajectories, st.TooLong,
		float64(st.Actions)/float64(st.Trajectories), float64(st.Bytes)/float64(st.Trajectories))
	if _, ok := st.Failed["test.test_subprocess"]; !ok && os.Getenv("NDB_REPO_ALL") == "" {
		t.Error("test_subprocess was not refused")
	}
	if st.Trajectories != want {
		t.Fatalf("%d trajectories, want %d", st.Trajectories, want)
	}
	f, err := os.Open(filepath.Join(dir, TrainText))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for n := 0; sc.Scan() && n < 50; n++ {
		var line Trajectory
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if line.Level != "repository" {
			t.Fatalf("level %q", line.Level)
		}
		if _, err := grammar.DecodeTrajectory(line.Text); err != nil {
			t.Fatalf("decode: %v", err)
		}
	}
}

// TestBuildRepoTwiceIsTheSame: two builds of the repository level, each with fresh
// workers, write the same trajectories, although the modules' tests draw random
// numbers (test_bisect) and name temporary files after the process (test_glob).
func TestBuildRepoTwiceIsTheSame(t *testing.T) {
	if _, err := os.Stat("/usr/lib/python3.11/test/test_bisect.py"); err != nil {
		t.Skip("the Python 3.11 test suite is not installed (run scripts/install-testsuite.sh)")
	}
	ro := RepoOptions{Modules: []RepoModule{
		{"test.test_bisect", []string{"bisect.py"}},
		{"test.test_glob", []string{"glob.py"}},
	}, Limits: trace.Limits{WallSecs: 60}}
	var texts [2]string
	var unstable int
	for k := range texts {
		pool, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 2, Python: RepoPython, HashSeed: "0"})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		st, err := BuildRepo(context.Background(), pool, Options{Out: dir, Seed: 3}, ro, 300)
		pool.Close()
		if err != nil {
			t.Fatal(err)
		}
		unstable = st.Unstable
		for _, name := range []string{TrainText, EvalText} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			texts[k] += string(b)
		}
	}
	if texts[0] == "" {
		t.Fatal("no trajectories written")
	}
	if texts[0] != texts[1] {
		t.Errorf("two builds differ (%d and %d bytes; %d unstable entry calls left out)", len(texts[0]), len(texts[1]), unstable)
	}
	if unstable == 0 {
		t.Errorf("no entry call was left out as unstable: test_glob's temporary names should differ between the two traces")
	}
}
