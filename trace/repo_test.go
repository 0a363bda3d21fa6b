package trace_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// stdlibTests is where Debian's libpython3.11-testsuite puts the standard library's
// tests (scripts/install-testsuite.sh installs it).
const stdlibTests = "/usr/lib/python3.11/test"

func TestTraceTestsStdlib(t *testing.T) {
	if _, err := os.Stat(stdlibTests + "/test_textwrap.py"); err != nil {
		t.Skip("the Python 3.11 test suite is not installed (run scripts/install-testsuite.sh)")
	}
	p := tpNew(t, trace.PoolOptions{Workers: 1, Python: "/usr/bin/python3.11"})
	ctx := context.Background()
	res, err := p.TraceTests(ctx, trace.TestsRequest{
		Name:  "test.test_textwrap",
		Roots: []string{"/usr/lib/python3.11/textwrap.py"},
		Strip: "/usr/lib/python3.11/",
		// Generous: a loaded CI machine must not turn this into a time-limit stop.
		Limits: trace.Limits{WallSecs: 60},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Setup != nil {
		t.Fatalf("setup error: %+v", res.Setup)
	}
	roots := 0
	for _, e := range res.Events {
		if e.File != "textwrap.py" {
			t.Fatalf("event outside the package: %+v", e)
		}
		if e.Depth == 0 && e.Event == "call" {
			roots++
		}
	}
	if roots < 5 {
		t.Fatalf("%d root calls in %d events, want several", roots, len(res.Events))
	}
	fwd, err := trace.NewForward(res)
	if err != nil {
		t.Fatal(err)
	}
	files := trace.NewRepoFiles(p, "/usr/lib/python3.11")
	s := trace.NewSampler(1, trace.SampleOptions{})
	checked := 0
	for _, i := range trace.CallNodes(fwd) {
		scope, err := fwd.Scope(i)
		if err != nil {
			t.Fatal(err)
		}
		if len(scope.Nodes) < 3 {
			continue
		}
		c, err := files.Context(ctx, scope)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(c.Text(), grammar.FileHeader+"textwrap.py\n") {
			t.Fatalf("context without a file header:\n%s", c.Text())
		}
		tr := s.Sample(scope)
		tr.Context = c
		text, err := grammar.EncodeTrajectory(tr)
		if err != nil {
			t.Fatal(err)
		}
		back, err := grammar.DecodeTrajectory(text)
		if err != nil {
			t.Fatalf("decode: %v\n%s", err, text)
		}
		again, err := grammar.EncodeTrajectory(back)
		if err != nil || again != text {
			t.Fatalf("round trip differs (%v)", err)
		}
		if checked++; checked == 20 {
			break
		}
	}
	if checked == 0 {
		t.Fatal("no scope with 3 or more states")
	}
}

func TestTraceTestsDenied(t *testing.T) {
	p := tpShared(t)
	res, err := p.TraceTests(context.Background(), trace.TestsRequest{Name: "test.test_subprocess", Roots: []string{"/x/"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Setup == nil || !strings.Contains(res.Setup.Message, "denied") {
		t.Fatalf("want a denial, got %+v", res)
	}
}
