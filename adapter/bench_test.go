package adapter

import (
	"testing"
	"time"

	"github.com/google/go-dap"
)

// BenchmarkRecordedSession drives a 20-step recorded session the way an editor does:
// launch, then for every step the request, its response, the stopped event, and the
// stackTrace, scopes and variables that refresh the view. It reports the time per
// step (request to refreshed view), per launch (recording the program included) and
// per whole session.
func BenchmarkRecordedSession(b *testing.B) {
	const steps = 20
	cfg := testConfig(b)
	srv := NewServer(cfg)
	var stepTime, launchTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := pipeClientOf(b, srv)
		t0 := time.Now()
		c.start(launchArgs(b, "nested_calls.py", "stopOnEntry", true))
		c.configurationDone()
		expect[*dap.ConfigurationDoneResponse](c)
		c.expectStopped("entry")
		t1 := time.Now()
		for range steps {
			c.step("stepIn")
			expect[*dap.StepInResponse](c)
			c.expectStopped("step")
			frames := c.stack(1)
			c.vars(c.scopeNamed(frames[0].Id, "Locals"))
		}
		t2 := time.Now()
		c.disconnect()
		expect[*dap.DisconnectResponse](c)
		c.expectClosed()
		launchTime += t1.Sub(t0)
		stepTime += t2.Sub(t1)
	}
	b.ReportMetric(float64(stepTime.Microseconds())/float64(b.N*steps), "µs/step")
	b.ReportMetric(float64(launchTime.Microseconds())/1000/float64(b.N), "ms/launch")
	b.ReportMetric(float64((stepTime+launchTime).Microseconds())/1000/float64(b.N), "ms/session")
}
