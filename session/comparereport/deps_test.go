package comparereport

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoLibtorch keeps the package pure Go: it renders outcomes, never runs the model.
func TestNoLibtorch(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-test", "github.com/ndb-project/ndb/session/comparereport").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "sugarme/gotch") || strings.HasSuffix(dep, "/ndb/infer") {
			t.Errorf("comparereport depends on %s", dep)
		}
	}
}
