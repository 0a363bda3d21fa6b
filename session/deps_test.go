package session

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoLibtorchInPurePackages keeps the rule of the architecture: the protocol, the
// session and the grammar build and test without libtorch (gotch), and so does the
// tracer and the corpus pipeline that the GPU bundle builds with CGO_ENABLED=0.
func TestNoLibtorchInPurePackages(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	pkgs := []string{"adapter", "adapter/daptest", "session", "session/comparereport", "grammar", "grammar/tokenizer", "trace", "models",
		"train/corpus", "train/synth", "train/decontam", "train/eval/evalcmd"}
	args := []string{"list", "-deps", "-test"}
	for _, p := range pkgs {
		args = append(args, "github.com/ndb-project/ndb/"+p)
	}
	out, err := exec.Command(goBin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "sugarme/gotch") || strings.HasSuffix(dep, "/ndb/infer") {
			t.Errorf("a libtorch-free package depends on %s", dep)
		}
	}
}
