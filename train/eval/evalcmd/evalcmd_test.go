package evalcmd

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/ndb-project/ndb/train/eval"
)

// Problems with the user's input are InputErrors (ndb exits with status 2), found
// before any model is loaded.
func TestInputErrors(t *testing.T) {
	cfg := Config{Out: t.TempDir(), Stdout: io.Discard, Stderr: io.Discard,
		Model: func(float64, float64) (eval.Predictor, func(), error) {
			t.Fatal("the model was loaded for bad input")
			return nil, nil, nil
		}}
	missing := filepath.Join(t.TempDir(), "none")
	for name, err := range map[string]error{
		"no corpus":  NextState(context.Background(), cfg, missing, ""),
		"bad level":  NextState(context.Background(), cfg, missing, "galaxy"),
		"no problem": CruxEval(context.Background(), cfg, missing+".jsonl"),
	} {
		var ie InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: %v is no InputError", name, err)
		}
	}
}

func TestCommandLine(t *testing.T) {
	got := CommandLine([]string{"cruxeval", "dev set.jsonl", "--limit", "5", ""})
	if want := `ndb eval cruxeval 'dev set.jsonl' --limit 5 ''`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
