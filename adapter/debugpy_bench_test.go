package adapter

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The figure: a 20-step session on a testdata program in ndb's recorded mode
// against the same session in debugpy, driven by the same client in the same run.
// debugpy is Debian's python3-debugpy, run by Debian's /usr/bin/python3.11 as
// `python3.11 -m debugpy.adapter`; both are skipped, with a message, without it.
//
//	go test -run X -bench DebugpyVsRecorded -benchtime 5x ./adapter/
//	go test -run DebugpySession -v ./adapter/   # the paths of both, side by side

const (
	compareProgram = "nested_calls.py" // entry total_price([3, 5, 2], 0.25), from entries.txt
	compareSteps   = 20
)

// TestDebugpySession checks that the debugpy session of the comparison works: it
// stops at the breakpoint on total_price's first line and takes its 20 steps inside
// the program, then steps out. It logs where each step of ndb's and debugpy's
// sessions landed, side by side (docs/dap.md, "ndb and debugpy").
func TestDebugpySession(t *testing.T) {
	needDebugpy(t)
	var outs [2]stopAt
	probe := func(i int) func(c *wireClient, thread int) {
		return func(c *wireClient, thread int) {
			c.Call("stepOut", map[string]any{"threadId": thread}, nil)
			st, ok := c.StoppedOrEnd()
			if ok {
				outs[i] = view(t, c, st, thread)
			}
		}
	}
	_, dp := dapSession(t, debugpyTarget(), compareProgram, compareSteps, probe(0))
	_, nd := dapSession(t, ndbInProcess(NewServer(testConfig(t))), compareProgram, compareSteps, probe(1))

	if len(dp) != compareSteps+1 {
		t.Fatalf("debugpy: %d stops, want %d", len(dp), compareSteps+1)
	}
	if s := dp[0]; s.fn != "total_price" || s.line != 13 || s.reason != "breakpoint" || s.file != compareProgram {
		t.Errorf("debugpy's first stop is %v, want total_price %s:13 (breakpoint)", s, compareProgram)
	}
	fns := map[string]bool{}
	for _, s := range dp[1:] {
		if s.file != compareProgram || s.reason != "step" {
			t.Errorf("debugpy stepped to %v, outside the program or not a step", s)
		}
		fns[s.fn] = true
	}
	for _, fn := range []string{"total_price", "line_price", "discount"} {
		if !fns[fn] {
			t.Errorf("debugpy's steps never reached %s: %v", fn, dp)
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %-42s %s\n", "step", "ndb (recorded)", "debugpy")
	for i := range max(len(nd), len(dp)) {
		var l, r string
		if i < len(nd) {
			l = nd[i].String()
		}
		if i < len(dp) {
			r = dp[i].String()
		}
		fmt.Fprintf(&b, "%-4d %-42s %s\n", i, l, r)
	}
	fmt.Fprintf(&b, "%-4s %-42s %s\n", "out", outs[1], outs[0])
	t.Logf("where each stop landed:\n%s", b.String())

	// Other stepping requests from the same stops: stepping out of discount (from its
	// first line) up to the wrapper, and stepping over total_price's lines.
	for _, p := range []struct {
		fn   string
		cmds []string
	}{
		{"discount", []string{"stepOut", "stepOut", "stepOut"}},
		{"line_price", []string{"next", "next", "next", "next", "next"}},
	} {
		var got [2][]stopAt
		for i, a := range []dapTarget{ndbInProcess(NewServer(testConfig(t))), debugpyTarget()} {
			_, first := dapSessionAt(t, a, compareProgram, p.fn, 0, func(c *wireClient, thread int) {
				got[i] = stepsFrom(t, c, thread, p.cmds...)
			})
			got[i] = append(first, got[i]...)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%-8s %-42s %s\n", "", "ndb (recorded)", "debugpy")
		for i := range max(len(got[0]), len(got[1])) {
			cmd := "bp"
			if i > 0 && i <= len(p.cmds) {
				cmd = p.cmds[i-1]
			}
			var l, r string
			if i < len(got[0]) {
				l = got[0][i].String()
			}
			if i < len(got[1]) {
				r = got[1][i].String()
			}
			fmt.Fprintf(&b, "%-8s %-42s %s\n", cmd, l, r)
		}
		t.Logf("from %s's first line:\n%s", p.fn, b.String())
	}
}

// stepsFrom sends stepping requests one at a time and returns where each landed,
// stopping at the end of the program.
func stepsFrom(t testing.TB, c *wireClient, thread int, cmds ...string) []stopAt {
	t.Helper()
	var path []stopAt
	for _, cmd := range cmds {
		c.Call(cmd, map[string]any{"threadId": thread}, nil)
		st, ok := c.StoppedOrEnd()
		if !ok {
			return append(path, stopAt{})
		}
		path = append(path, view(t, c, st, thread))
	}
	return path
}

// BenchmarkDebugpyVsRecorded runs, in every iteration, the same 20-step session
// (dapSession) against ndb in recorded mode served in-process over OS pipes, against
// the `ndb dap` binary when there is one ($NDB_BIN or bin/ndb; process start and the
// tracer's workers included; it traces with debugpy's interpreter, samePython), and
// against debugpy, all through the same wireClient.
// Per adapter it reports the time per step (stepIn sent to the refreshed view:
// stopped event, stackTrace, scopes, variables), per stop (stepIn to the stopped
// event), per launch (adapter start to the first stop) and per session (adapter start
// to the disconnect response), and how many times slower debugpy is than ndb.
func BenchmarkDebugpyVsRecorded(b *testing.B) {
	needDebugpy(b)
	targets := []dapTarget{ndbInProcess(NewServer(testConfig(b))), debugpyTarget()}
	if bin := ndbBinary(); bin != "" {
		targets = append(targets, ndbSubprocess(bin))
		b.Logf("ndb dap: %s", bin)
	} else {
		b.Log("no ndb binary (set NDB_BIN or make build): the `ndb dap` subprocess is left out")
	}
	// One untimed session each: the tracer pool, Go's and Python's file caches.
	for _, a := range targets {
		dapSession(b, a, compareProgram, compareSteps, nil)
	}
	sums := make([]sessionTimes, len(targets))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, a := range targets {
			st, _ := dapSession(b, a, compareProgram, compareSteps, nil)
			sums[j].launch += st.launch
			sums[j].stops += st.stops
			sums[j].steps += st.steps
			sums[j].total += st.total
		}
	}
	b.StopTimer()
	perStep := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N*compareSteps) }
	perSession := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	keys := []string{"ndb", "debugpy", "ndb-bin"}
	for j := range targets {
		k := keys[j]
		b.ReportMetric(perStep(sums[j].steps), k+"-µs/step")
		b.ReportMetric(perStep(sums[j].stops), k+"-µs/stop")
		b.ReportMetric(perSession(sums[j].launch), k+"-ms/launch")
		b.ReportMetric(perSession(sums[j].total), k+"-ms/session")
	}
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
	b.ReportMetric(ratio(sums[1].steps, sums[0].steps), "debugpy/ndb-step")
	b.ReportMetric(ratio(sums[1].total, sums[0].total), "debugpy/ndb-session")
	if len(targets) == 3 {
		b.ReportMetric(ratio(sums[1].steps, sums[2].steps), "debugpy/ndb-bin-step")
		b.ReportMetric(ratio(sums[1].total, sums[2].total), "debugpy/ndb-bin-session")
		b.ReportMetric(ratio(sums[1].launch, sums[2].launch), "debugpy/ndb-bin-launch")
	}
}
