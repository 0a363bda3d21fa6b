package mcp

import (
	"os/exec"
	"strings"
	"testing"
)

// The MCP server builds and tests without libtorch, and reaches debugging only
// through package session: it imports neither the model nor the DAP server.
func TestDependencies(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-test", "github.com/ndb-project/ndb/adapter/mcp").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const ndb = "github.com/ndb-project/ndb/"
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "sugarme/gotch") {
			t.Errorf("adapter/mcp depends on %s", dep)
		}
		if rest, ok := strings.CutPrefix(dep, ndb); ok && !strings.HasPrefix(rest, "adapter/mcp") &&
			!strings.HasPrefix(rest, "session") && !strings.HasPrefix(rest, "grammar") && !strings.HasPrefix(rest, "trace") {
			t.Errorf("adapter/mcp depends on %s: it may use session, grammar (and trace, under session) only", dep)
		}
	}
}
