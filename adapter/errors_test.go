package adapter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-dap"
)

func TestLaunchErrors(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.py")
	if err := os.WriteFile(broken, []byte("def f(:\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	count := program(t, "count.py")
	for _, tc := range []struct {
		name string
		args map[string]any
		id   int
		msg  string
	}{
		{"no program", map[string]any{"entry": "f()"}, ErrLaunchArguments, `"program" is required`},
		{"program not a string", map[string]any{"program": 3}, ErrLaunchArguments, `"program" must be a file path, got 3`},
		{"missing program", map[string]any{"program": filepath.Join(dir, "nope.py")}, ErrLaunchArguments, "no such file"},
		{"program is a directory", map[string]any{"program": dir}, ErrLaunchArguments, "is not a file"},
		{"syntax error", map[string]any{"program": broken}, ErrProgram, "broken.py:1: syntax error"},
		{"bad entry", map[string]any{"program": count, "entry": "nosuch(1)"}, ErrProgram, "nosuch"},
		{"unknown mode", map[string]any{"program": count, "mode": "psychic"}, ErrLaunchArguments, `unknown "mode" "psychic"`},
		{"mode not a string", map[string]any{"program": count, "mode": true}, ErrLaunchArguments, `"mode" must be`},
		{"neural without a model", map[string]any{"program": count, "mode": "neural"}, ErrBackend, "neural mode needs a model: this build has no neural backend"},
		{"compare without a model", map[string]any{"program": count, "mode": "compare"}, ErrBackend, "compare mode needs a model"},
		{"missing model", map[string]any{"program": count, "model": filepath.Join(dir, "none.ckpt")}, ErrLaunchArguments, "model"},
		{"negative temperature", map[string]any{"program": count, "temperature": -0.5}, ErrLaunchArguments, `"temperature" must be a number >= 0`},
		{"temperature as a string", map[string]any{"program": count, "temperature": "0.5"}, ErrLaunchArguments, `"temperature"`},
		{"fractional seed", map[string]any{"program": count, "seed": 1.5}, ErrLaunchArguments, `"seed" must be an integer`},
		{"stopOnEntry not a bool", map[string]any{"program": count, "stopOnEntry": "yes"}, ErrLaunchArguments, `"stopOnEntry" must be true or false`},
		{"maxSteps zero", map[string]any{"program": count, "maxSteps": 0}, ErrLaunchArguments, `"maxSteps" must be a positive integer`},
		{"maxSteps as text", map[string]any{"program": count, "maxSteps": "ten"}, ErrLaunchArguments, `"maxSteps" must be a positive integer, got "ten"`},
		{"entry not a string", map[string]any{"program": count, "entry": []int{1}}, ErrLaunchArguments, `"entry" must be`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := pipeClient(t, testConfig(t))
			c.initialize()
			expect[*dap.InitializeResponse](c)
			c.launch(tc.args)                     // >> launch
			msg := c.expectError("launch", tc.id) // << error response
			if !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q does not say %q", msg, tc.msg)
			}
		})
	}
}

func TestLaunchArgumentsNotAnObject(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.request("launch", []int{1, 2})
	c.expectError("launch", ErrLaunchArguments)
	c.request("launch", "program.py")
	c.expectError("launch", ErrLaunchArguments)
}

func TestLaunchIgnoresUnknownFields(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.start(launchArgs(t, "count.py", "__sessionId", "abc", "console", "integratedTerminal", "seed", 7, "temperature", 0))
	c.request("launch", launchArgs(t, "count.py"))
	c.expectError("launch", ErrAlreadyLaunched)
}

func TestProtocolErrors(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.request("fooBar", map[string]any{}) // >> a request the protocol does not know
	if msg := c.expectError("fooBar", ErrUnsupportedRequest); !strings.Contains(msg, `"fooBar"`) {
		t.Errorf("unknown request: %s", msg)
	}
	for _, cmd := range []string{"attach", "restart", "goto", "setFunctionBreakpoints", "completions", "source", "cancel"} {
		c.request(cmd, map[string]any{}) // >> a request ndb does not implement
		c.expectError(cmd, ErrUnsupportedRequest)
	}
	c.raw([]byte(`{not json`)) // >> garbage with a valid header
	r := expect[*dap.ErrorResponse](c)
	if r.RequestSeq != 0 || r.Body.Error.Id != ErrMalformedMessage {
		t.Errorf("malformed JSON: %s", dump(r))
	}
	c.raw([]byte(`{"seq": 41, "type": "telegram"}`))
	if r := expect[*dap.ErrorResponse](c); r.RequestSeq != 41 || r.Body.Error.Id != ErrMalformedMessage {
		t.Errorf("unknown message type: %s", dump(r))
	}
	c.raw([]byte(`{"seq": 42, "type": "request", "command": "next", "arguments": {"threadId": "one"}}`))
	r = expect[*dap.ErrorResponse](c)
	if r.RequestSeq != 42 || r.Command != "next" || r.Body.Error.Id != ErrBadArguments || !strings.Contains(r.Message, "threadId") {
		t.Errorf("wrong argument type: %s", dump(r))
	}
	c.raw([]byte(`{"seq": 43, "type": "event", "event": "whatever"}`)) // a client event: ignored
	c.stackTrace(1)                                                    // >> stackTrace before launch
	c.expectError("stackTrace", ErrNotLaunched)
	c.step("next")
	c.expectError("next", ErrNotLaunched)
	c.threads() // threads is answered any time
	expect[*dap.ThreadsResponse](c)

	c.start(launchArgs(t, "count.py"))
	c.step("next") // >> next before configurationDone
	c.expectError("next", ErrNotConfigured)
	c.request("next", map[string]any{"threadId": 7})
	c.expectError("next", ErrNotConfigured)
	c.disconnect()
	expect[*dap.DisconnectResponse](c)
	c.expectClosed()
}

func TestBadThreadAndReferences(t *testing.T) {
	c := pipeClient(t, testConfig(t))
	c.start(launchArgs(t, "count.py", "stopOnEntry", true))
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	c.request("next", map[string]any{"threadId": 7})
	c.expectError("next", ErrUnknownReference)
	c.stackTrace(2)
	c.expectError("stackTrace", ErrUnknownReference)
	c.variables(5)
	c.expectError("variables", ErrUnknownReference)
	c.evaluate("1 +", 0)
	c.expectError("evaluate", ErrEvaluate)
}

func TestMalformedHeaderClosesTheConnection(t *testing.T) {
	for _, header := range []string{"Content-Length: abc\r\n\r\n{}", "Content-Type: json\r\n\r\n", "Content-Length: 5\r\n\n\n{}"} {
		c := pipeClient(t, testConfig(t))
		c.initialize()
		expect[*dap.InitializeResponse](c)
		if _, err := c.conn.Write([]byte(header)); err != nil {
			t.Fatal(err)
		}
		if out := c.expectOutput("console"); !strings.Contains(out, "malformed message header") {
			t.Errorf("%q: console %q", header, out)
		}
		c.expectClosed()
	}
}
