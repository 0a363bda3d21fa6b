package modelserver

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNdbIsPureGo keeps the split: ndb (cmd/ndb, its tests included) and this client
// link no libtorch; only ndb-infer does.
func TestNdbIsPureGo(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-test", "github.com/ndb-project/ndb/modelserver", "github.com/ndb-project/ndb/cmd/ndb").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "sugarme/gotch") || strings.HasSuffix(dep, "/ndb/infer") || strings.Contains(dep, "/ndb/infer/") || strings.HasSuffix(dep, "/ndb/train") {
			t.Errorf("ndb depends on %s", dep)
		}
	}
}
