package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The benchmarks drive the DAP benchmark's session (adapter.BenchmarkRecordedSession:
// nested_calls.py, 20 step_into on a recorded session) through MCP: one step call
// answers the new state with its locals, where DAP takes a request, its response, the
// stopped event, stackTrace, scopes and variables. They report the time per step
// (the step call alone, and with get_state for the call stack) and per start.

const benchSteps = 20

func benchSession(b *testing.B, cs *sdk.ClientSession) {
	var stepTime, stateTime, startTime, stepCPU time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		var out StartOutput
		callOK(b, cs, ToolStartSession, map[string]any{"program": "nested_calls.py", "entry": "total_price([3, 5, 2], 0.25)", "mode": "recorded"}, &out)
		t1, c1 := time.Now(), cpuTime()
		for range benchSteps {
			step(b, cs, out.Session, "step_into")
		}
		t2 := time.Now()
		stepCPU += cpuTime() - c1
		for range benchSteps {
			step(b, cs, out.Session, "inv_step_into")
			callOK(b, cs, ToolGetState, map[string]any{"session": out.Session}, &GetStateOutput{})
		}
		t3 := time.Now()
		callOK(b, cs, ToolEndSession, map[string]any{"session": out.Session}, &EndOutput{})
		startTime += t1.Sub(t0)
		stepTime += t2.Sub(t1)
		stateTime += t3.Sub(t2)
	}
	b.ReportMetric(float64(stepTime.Microseconds())/float64(b.N*benchSteps), "µs/step")
	b.ReportMetric(float64(stateTime.Microseconds())/float64(b.N*benchSteps), "µs/step+get_state")
	b.ReportMetric(float64(startTime.Microseconds())/1000/float64(b.N), "ms/start")
	b.ReportMetric(float64(stepCPU.Microseconds())/float64(b.N*benchSteps), "cpu-µs/step")
}

// cpuTime is the CPU time this process has used (user and system): on a loaded
// machine it tells the work a step costs apart from the time spent waiting for a
// core. In process it counts client and server; over stdio the client only.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRecordedStepInProcess: the SDK's client and the server in one process,
// over the SDK's in-memory transport (net.Pipe: every write waits for its read).
func BenchmarkRecordedStepInProcess(b *testing.B) {
	cs := connect(b, newServer(b, testConfig(b)), nil)
	b.ResetTimer()
	benchSession(b, cs)
}

// BenchmarkRecordedStepOSPipe: the same over a pair of OS pipes (buffered by the
// kernel, as stdio is), still in one process.
func BenchmarkRecordedStepOSPipe(b *testing.B) {
	srv := newServer(b, testConfig(b))
	cr, sw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	sr, cw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	go srv.ServeStdio(context.Background(), sr, sw)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil).Connect(context.Background(), &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.ResetTimer()
	benchSession(b, cs)
}

// BenchmarkRecordedStepStdio: the SDK's client and `ndb mcp` in its own process over
// stdio, as an agent runs it (NDB_BIN, default bin/ndb; skipped when missing).
func BenchmarkRecordedStepStdio(b *testing.B) {
	bin := os.Getenv("NDB_BIN")
	if bin == "" {
		bin, _ = filepath.Abs("../../bin/ndb")
	}
	if _, err := os.Stat(bin); err != nil {
		b.Skipf("no ndb binary at %s (make build, or set NDB_BIN)", bin)
	}
	cmd := exec.Command(bin, "mcp", "--workers", "1")
	cmd.Dir = programs(b)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.ResetTimer()
	benchSession(b, cs)
}
