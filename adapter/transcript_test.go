package adapter

import (
	"strings"
	"testing"

	"github.com/google/go-dap"
)

// These tests read as transcripts: ">>" is what the client sends, "<<" what the
// server answers, in order. They run a recorded session on the testdata programs.

func TestInitializeCapabilities(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.initialize()                          // >> initialize
	r := expect[*dap.InitializeResponse](c) // << initialize
	caps := r.Body
	if !caps.SupportsConfigurationDoneRequest || !caps.SupportsStepBack || !caps.SupportsSetVariable ||
		!caps.SupportsEvaluateForHovers || !caps.SupportsTerminateRequest || !caps.SupportsExceptionInfoRequest ||
		!caps.SupportsBreakpointLocationsRequest || len(caps.ExceptionBreakpointFilters) != 2 {
		t.Errorf("capabilities: %+v", caps)
	}
	if caps.SupportsConditionalBreakpoints || caps.SupportsFunctionBreakpoints || caps.SupportsRestartRequest || caps.SupportsGotoTargetsRequest {
		t.Errorf("capabilities claim what ndb does not do: %+v", caps)
	}
	c.disconnect()                     // >> disconnect
	expect[*dap.DisconnectResponse](c) // << disconnect
	c.expectClosed()
}

func TestStepThroughCount(t *testing.T) {
	transports(t, func(t *testing.T, c *client) {
		path := program(t, "count.py")
		c.start(launchArgs(t, "count.py", "stopOnEntry", true))
		c.setBreakpoints(path, 5, 7)                                   // >> setBreakpoints 5, 7
		bps := expect[*dap.SetBreakpointsResponse](c).Body.Breakpoints // << setBreakpoints
		if len(bps) != 2 || !bps[0].Verified || bps[1].Verified || !strings.Contains(bps[1].Message, "not an executable statement") {
			t.Fatalf("breakpoints: %+v", bps)
		}
		c.setExceptionBreakpoints()                     // >> setExceptionBreakpoints
		expect[*dap.SetExceptionBreakpointsResponse](c) // << setExceptionBreakpoints
		c.configurationDone()                           // >> configurationDone
		expect[*dap.ConfigurationDoneResponse](c)       // << configurationDone
		c.expectStopped("entry")                        // << stopped (entry)

		c.threads() // >> threads
		if th := expect[*dap.ThreadsResponse](c).Body.Threads; len(th) != 1 || th[0].Name != "main" || th[0].Id != 1 {
			t.Errorf("threads: %+v", th) // << threads
		}
		frames := c.stack(1) // >> stackTrace << stackTrace
		if len(frames) != 1 || frames[0].Name != "count" || frames[0].Line != 1 || frames[0].Source.Path != path || frames[0].Id < 1000 {
			t.Fatalf("stack at entry: %+v", frames)
		}
		if got := c.locals(); got != "s='berry' t='r'" {
			t.Errorf("locals at entry: %s", got)
		}

		c.step("next")               // >> next
		expect[*dap.NextResponse](c) // << next
		c.expectStopped("step")      // << stopped (step)
		c.at("count", 2)

		c.step("continue")                 // >> continue
		expect[*dap.ContinueResponse](c)   // << continue
		e := c.expectStopped("breakpoint") // << stopped (breakpoint)
		if len(e.Body.HitBreakpointIds) != 1 || e.Body.HitBreakpointIds[0] != 5 {
			t.Errorf("hit breakpoints: %v", e.Body.HitBreakpointIds)
		}
		frames = c.stack(1)
		if frames[0].Line != 5 {
			t.Fatalf("stopped at line %d, want 5", frames[0].Line)
		}
		for expr, want := range map[string]string{"n": "0", "c == t": "True", "len(s)": "5", "s[-1]": "'y'", "c in s and n < 1": "True", "[n, c]": "[0, 'r']"} {
			c.evaluate(expr, frames[0].Id)        // >> evaluate
			r := expect[*dap.EvaluateResponse](c) // << evaluate
			if r.Body.Result != want {
				t.Errorf("evaluate %s = %s, want %s", expr, r.Body.Result, want)
			}
		}
		c.evaluate("nosuch", frames[0].Id)
		if msg := c.expectError("evaluate", ErrEvaluate); !strings.Contains(msg, "not a local") {
			t.Errorf("evaluate error: %s", msg)
		}

		c.step("stepBack")               // >> stepBack
		expect[*dap.StepBackResponse](c) // << stepBack
		c.expectStopped("step")          // << stopped
		c.at("count", 4)

		c.setBreakpoints(path)                 // >> setBreakpoints (none)
		expect[*dap.SetBreakpointsResponse](c) // << setBreakpoints
		c.step("continue")                     // >> continue
		expect[*dap.ContinueResponse](c)       // << continue
		c.expectExit(0)                        // << exited 0, << terminated

		c.step("next")                         // >> next
		c.expectError("next", ErrProgramEnded) // << error: the program has ended
		c.disconnect()                         // >> disconnect
		expect[*dap.DisconnectResponse](c)     // << disconnect
		c.expectClosed()
	})
}

func TestStepInAndOut(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	path := program(t, "nested_calls.py")
	c.start(launchArgs(t, "nested_calls.py"))
	c.setBreakpoints(path, 15)                // >> setBreakpoints 15
	expect[*dap.SetBreakpointsResponse](c)    // << setBreakpoints
	c.configurationDone()                     // >> configurationDone
	expect[*dap.ConfigurationDoneResponse](c) // << configurationDone
	c.expectStopped("breakpoint")             // << stopped (breakpoint)
	c.at("total_price", 15)

	c.step("stepIn")               // >> stepIn
	expect[*dap.StepInResponse](c) // << stepIn
	c.expectStopped("step")        // << stopped
	frames := c.stack(1)
	if len(frames) != 2 || frames[0].Name != "line_price" || frames[0].Line != 6 || frames[1].Name != "total_price" || frames[1].Line != 15 {
		t.Fatalf("stack after stepIn: %+v", frames)
	}
	if got := c.locals(); got != "qty=3 unit=1.5 rate=0.25" {
		t.Errorf("line_price's inputs: %s", got)
	}
	// The caller's frame shows its locals as of the call.
	callerVars, _ := c.vars(c.scopeNamed(frames[1].Id, "Locals"))
	if callerVars["qty"].Value != "3" || callerVars["i"].Value != "0" {
		t.Errorf("caller's locals: %+v", callerVars)
	}

	c.step("stepOut")               // >> stepOut
	expect[*dap.StepOutResponse](c) // << stepOut
	c.expectStopped("step")         // << stopped
	frames = c.stack(1)
	if frames[0].Name != "line_price" || frames[0].Line != 9 {
		t.Fatalf("stepOut lands on the return: %+v", frames)
	}
	rv, _ := c.vars(c.scopeNamed(frames[0].Id, "Return value"))
	if rv["(return)"].Value != "3.38" {
		t.Errorf("return value: %+v", rv)
	}
	c.evaluate("__return__ > 3", frames[0].Id)
	if r := expect[*dap.EvaluateResponse](c); r.Body.Result != "True" {
		t.Errorf("__return__ > 3 = %s", r.Body.Result)
	}

	c.step("next")               // >> next
	expect[*dap.NextResponse](c) // << next
	c.expectStopped("step")      // << stopped
	frames = c.stack(1)
	if len(frames) != 1 || frames[0].Name != "total_price" {
		t.Fatalf("back in the caller: %+v", frames)
	}
	// A stale frame id is refused.
	c.scopes(1000 + 50)
	c.expectError("scopes", ErrUnknownReference)
}

func TestVariablesExpansion(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.start(launchArgs(t, "comprehensions.py"))
	c.setBreakpoints(program(t, "comprehensions.py"), 6)
	expect[*dap.SetBreakpointsResponse](c)
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("breakpoint")
	frames := c.stack(1)
	vs, names := c.vars(c.scopeNamed(frames[0].Id, "Locals"))
	if strings.Join(names, " ") != "text words lengths counts longest" {
		t.Errorf("locals: %v", names)
	}
	lengths := vs["lengths"]
	if lengths.Type != "list" || lengths.VariablesReference < 1000 || lengths.IndexedVariables != 5 {
		t.Fatalf("lengths: %+v", lengths)
	}
	items, inames := c.vars(lengths.VariablesReference) // >> variables (the list) << its elements
	if strings.Join(inames, " ") != "0 1 2 3 4" || items["0"].Value != "3" || items["0"].EvaluateName != "lengths[0]" || items["0"].Type != "int" {
		t.Errorf("list elements: %v %+v", inames, items)
	}
	counts := vs["counts"]
	if counts.Type != "dict" || counts.NamedVariables != 4 {
		t.Fatalf("counts: %+v", counts)
	}
	entries, _ := c.vars(counts.VariablesReference) // >> variables (the dict) << its entries
	if entries["'the'"].Value != "2" || entries["'the'"].EvaluateName != "counts['the']" {
		t.Errorf("dict entries: %+v", entries)
	}
	c.evaluate(entries["'the'"].EvaluateName, frames[0].Id)
	if r := expect[*dap.EvaluateResponse](c); r.Body.Result != "2" {
		t.Errorf("counts['the'] = %s", r.Body.Result)
	}
	c.evaluate("words", frames[0].Id)
	r := expect[*dap.EvaluateResponse](c)
	if r.Body.VariablesReference == 0 || r.Body.Type != "list" {
		t.Errorf("evaluate words: %+v", r.Body)
	}
	// Setting a variable of a real execution is refused.
	c.request("setVariable", map[string]any{"variablesReference": c.scopeNamed(frames[0].Id, "Locals"), "name": "longest", "value": "'x'"})
	if msg := c.expectError("setVariable", ErrSetVariable); !strings.Contains(msg, "replays a real execution") {
		t.Errorf("setVariable in recorded mode: %s", msg)
	}
	c.request("setVariable", map[string]any{"variablesReference": lengths.VariablesReference, "name": "0", "value": "1"})
	c.expectError("setVariable", ErrSetVariable)
}

func TestReverseSteps(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	path := program(t, "count.py")
	c.start(launchArgs(t, "count.py", "stopOnEntry", true))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")

	// A reverse step at the first state stays put and says so.
	c.step("stepBack")               // >> stepBack
	expect[*dap.StepBackResponse](c) // << stepBack
	if out := c.expectOutput("console"); !strings.Contains(out, "already at the first state") {
		t.Errorf("console: %q", out) // << output
	}
	c.expectStopped("step") // << stopped
	c.at("count", 1)

	c.setBreakpoints(path, 6)
	expect[*dap.SetBreakpointsResponse](c)
	c.step("continue")
	expect[*dap.ContinueResponse](c)
	c.expectStopped("breakpoint")
	c.at("count", 6)

	c.reverseStep("into")           // >> ndbReverseStep into
	expect[*ReverseStepResponse](c) // << ndbReverseStep
	c.expectStopped("step")         // << stopped
	c.at("count", 3)                // the loop's last test, when it ended

	c.reverseStep("call") // >> ndbReverseStep call: the inputs
	expect[*ReverseStepResponse](c)
	c.expectStopped("step")
	c.at("count", 1)
	if got := c.locals(); got != "s='berry' t='r'" {
		t.Errorf("inputs: %s", got)
	}

	c.step("continue")
	expect[*dap.ContinueResponse](c)
	c.expectStopped("breakpoint")
	c.step("reverseContinue")               // >> reverseContinue
	expect[*dap.ReverseContinueResponse](c) // << reverseContinue
	c.expectStopped("entry")                // << stopped: no earlier breakpoint line, the entry
	c.at("count", 1)

	c.reverseStep("sideways") // >> ndbReverseStep with a bad kind
	if msg := c.expectError(ReverseStepCommand, ErrBadArguments); !strings.Contains(msg, `"into", "over" or "call"`) {
		t.Errorf("bad kind: %s", msg)
	}

	// From the exit, a reverse step walks back into the execution.
	c.setBreakpoints(path)
	expect[*dap.SetBreakpointsResponse](c)
	c.step("continue")
	expect[*dap.ContinueResponse](c)
	c.expectExit(0)
	c.reverseStep("over")
	expect[*ReverseStepResponse](c)
	c.expectStopped("step")
	c.at("count", 6)
}

func TestExceptionFilters(t *testing.T) {
	t.Run("uncaught", func(t *testing.T) {
		c := pipeClient(t, testConfig(t))
		c.start(launchArgs(t, "exception_uncaught.py"))
		c.setExceptionBreakpoints("uncaught")           // >> setExceptionBreakpoints uncaught
		expect[*dap.SetExceptionBreakpointsResponse](c) // << setExceptionBreakpoints
		c.configurationDone()                           // >> configurationDone
		expect[*dap.ConfigurationDoneResponse](c)       // << configurationDone
		e := c.expectStopped("exception")               // << stopped (exception)
		if e.Body.Text != "KeyError('c')" {
			t.Errorf("stopped text: %q", e.Body.Text)
		}
		c.at("lookup", 8)
		c.request("exceptionInfo", map[string]any{"threadId": 1}) // >> exceptionInfo
		info := expect[*dap.ExceptionInfoResponse](c)             // << exceptionInfo
		if info.Body.ExceptionId != "KeyError" || info.Body.BreakMode != "unhandled" {
			t.Errorf("exceptionInfo: %+v", info.Body)
		}
		frames := c.stack(1)
		ex, _ := c.vars(c.scopeNamed(frames[0].Id, "Exception"))
		if ex["(exception)"].Value != "KeyError('c')" {
			t.Errorf("exception scope: %+v", ex)
		}
		c.step("continue") // >> continue
		expect[*dap.ContinueResponse](c)
		if out := c.expectOutput("stderr"); !strings.Contains(out, "uncaught exception: KeyError('c')") {
			t.Errorf("stderr: %q", out)
		}
		c.expectExit(1) // << exited 1, terminated
	})
	t.Run("raised", func(t *testing.T) {
		c := pipeClient(t, testConfig(t))
		c.start(launchArgs(t, "exceptions_caught.py"))
		c.setExceptionBreakpoints("raised")
		expect[*dap.SetExceptionBreakpointsResponse](c)
		c.configurationDone()
		expect[*dap.ConfigurationDoneResponse](c)
		e := c.expectStopped("exception") // where ratio raises
		if !strings.HasPrefix(e.Body.Text, "ZeroDivisionError") {
			t.Errorf("stopped text: %q", e.Body.Text)
		}
		frames := c.stack(1)
		if len(frames) != 2 || frames[0].Name != "ratio" {
			t.Errorf("stack: %+v", frames)
		}
		c.request("exceptionInfo", map[string]any{"threadId": 1})
		if info := expect[*dap.ExceptionInfoResponse](c); info.Body.BreakMode != "always" {
			t.Errorf("exceptionInfo: %+v", info.Body)
		}
		// Continue: the same exception passing up to the caller does not stop again.
		c.step("continue")
		expect[*dap.ContinueResponse](c)
		c.expectExit(0)
	})
	t.Run("none", func(t *testing.T) {
		c := pipeClient(t, testConfig(t))
		c.start(launchArgs(t, "exception_uncaught.py"))
		c.setExceptionBreakpoints()
		expect[*dap.SetExceptionBreakpointsResponse](c)
		c.configurationDone()
		expect[*dap.ConfigurationDoneResponse](c)
		c.expectOutput("stderr")
		c.expectExit(1)
		c.request("exceptionInfo", map[string]any{"threadId": 1})
		c.expectError("exceptionInfo", ErrNoException)
	})
}

func TestExitCodesAndOutput(t *testing.T) {
	run := func(t *testing.T, name string) *client {
		c := pipeClient(t, testConfig(t))
		c.start(launchArgs(t, name))
		c.configurationDone()
		expect[*dap.ConfigurationDoneResponse](c)
		return c
	}
	t.Run("normal", func(t *testing.T) {
		c := run(t, "prints.py")
		out := c.expectOutput("stdout") // << output: the program's own
		if out != "check 0: ok\ncheck 1: warn\ncheck 2: fail\nbad: 2\n" {
			t.Errorf("program output: %q", out)
		}
		c.expectExit(0)
	})
	t.Run("never", func(t *testing.T) {
		c := run(t, "forever.py")
		if out := c.expectOutput("console"); !strings.Contains(out, "recorded not to terminate") {
			t.Errorf("console: %q", out)
		}
		c.expectExit(ExitCodeNever)
	})
	t.Run("script", func(t *testing.T) {
		c := run(t, "script.py")
		if out := c.expectOutput("stdout"); out != "total 14\n" {
			t.Errorf("program output: %q", out)
		}
		c.expectExit(0)
	})
}

func TestBreakpointLocations(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	path := program(t, "exception_uncaught.py")
	c.setBreakpoints(path, 2) // before launch: kept, but not verified yet
	if bps := expect[*dap.SetBreakpointsResponse](c).Body.Breakpoints; bps[0].Verified {
		t.Errorf("verified before launch: %+v", bps)
	}
	c.start(launchArgs(t, "exception_uncaught.py"))
	c.request("breakpointLocations", map[string]any{"source": map[string]any{"path": path}, "line": 1, "endLine": 6})
	var lines []int
	for _, l := range expect[*dap.BreakpointLocationsResponse](c).Body.Breakpoints {
		lines = append(lines, l.Line)
	}
	if len(lines) != 4 || lines[0] != 1 || lines[1] != 2 || lines[2] != 5 || lines[3] != 6 {
		t.Errorf("breakpoint locations 1-6: %v", lines)
	}
	c.setBreakpoints(path, 2, 3)
	bps := expect[*dap.SetBreakpointsResponse](c).Body.Breakpoints
	if !bps[0].Verified || bps[1].Verified || !strings.Contains(bps[1].Message, "line 3") {
		t.Errorf("breakpoints: %+v", bps)
	}
	c.setBreakpoints("/elsewhere/other.py", 1)
	if bps := expect[*dap.SetBreakpointsResponse](c).Body.Breakpoints; bps[0].Verified || !strings.Contains(bps[0].Message, "not the launched program") {
		t.Errorf("breakpoint in another file: %+v", bps)
	}
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("breakpoint") // the breakpoint on line 2 survived the other file's request
	c.at("get", 2)
}

func TestMaxSteps(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.start(launchArgs(t, "count.py", "stopOnEntry", true, "maxSteps", 2))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	for range 2 {
		c.step("stepIn")
		expect[*dap.StepInResponse](c)
		c.expectStopped("step")
	}
	c.step("stepIn") // >> stepIn past the cap
	if msg := c.expectError("stepIn", ErrMaxSteps); !strings.Contains(msg, "maxSteps (2)") {
		t.Errorf("maxSteps: %s", msg)
	}
}

func TestMaxStepsDuringRaisedWalk(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.start(launchArgs(t, "exceptions_caught.py", "maxSteps", 3))
	c.setExceptionBreakpoints("raised")
	expect[*dap.SetExceptionBreakpointsResponse](c)
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	if out := c.expectOutput("console"); !strings.Contains(out, "maxSteps") {
		t.Errorf("console: %q", out)
	}
	c.expectStopped("pause")
}
