package adapter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-dap"
)

// A program is read as Python reads it: a latin-1 file with a coding declaration
// shows 'café' in its locals and its source, not a replacement character.
func TestLatin1ProgramIsDecoded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "latin1.py")
	src := "# -*- coding: latin-1 -*-\ndef f():\n    s = 'caf\xe9'\n    return s\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := pipeClient(t, testConfig(t))
	c.start(map[string]any{"program": path, "entry": "f()", "mode": "recorded", "stopOnEntry": true})
	c.configurationDone()
	expect[*dap.ConfigurationDoneResponse](c)
	c.expectStopped("entry")
	for range 2 {
		c.step("stepIn")
		expect[*dap.StepInResponse](c)
		c.expectStopped("step")
	}
	if got := c.locals(); got != "s='café'" {
		t.Errorf("locals %q, want s='café'", got)
	}
	c.disconnect()
	expect[*dap.DisconnectResponse](c)
}

// An empty program (or one with only comments) is a clear launch error in neural
// mode, not a failure to find a call state.
func TestNeuralEmptyProgram(t *testing.T) {
	for _, src := range []string{"", "# nothing yet\n\n"} {
		cfg, _ := blockingConfig(t)
		c := pipeClient(t, cfg)
		path := filepath.Join(t.TempDir(), "empty.py")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		c.initialize()
		expect[*dap.InitializeResponse](c)
		c.launch(map[string]any{"program": path, "mode": "neural"})
		if msg := c.expectError("launch", ErrProgram); !strings.Contains(msg, "the program has no code to debug") {
			t.Errorf("%q: launch error %q", src, msg)
		}
	}
}

// A file that is not valid in its encoding is the error Python gives, at launch.
func TestUndecodableProgram(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.py")
	if err := os.WriteFile(path, []byte("s = 'caf\xe9'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := pipeClient(t, testConfig(t))
	c.initialize()
	expect[*dap.InitializeResponse](c)
	c.launch(map[string]any{"program": path, "mode": "recorded"})
	if msg := c.expectError("launch", ErrProgram); !strings.Contains(msg, "Non-UTF-8 code starting with '\\xe9'") {
		t.Errorf("launch error %q", msg)
	}
}
