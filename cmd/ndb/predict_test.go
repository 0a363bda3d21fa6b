package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestPredictPrintsConfidence: `ndb predict` prints the state with the model's
// confidence in each part, probabilities, the whole state's the smallest.
func TestPredictPrintsConfidence(t *testing.T) {
	needInfer(t)
	t.Setenv("NDB_THREADS", "1")
	count := filepath.Join("..", "..", "testdata", "programs", "count.py")
	tiny := filepath.Join("..", "..", "testdata", "tinymodel")
	var code int
	out := captureStdout(t, func() {
		code = run(context.Background(), []string{"predict", count, "--entry", `count("berry", "r")`, "--action", "step_into", "--model", tiny})
	})
	if code != 0 {
		t.Fatalf("exit status %d\n%s", code, out)
	}
	var got struct {
		Exit       string
		Confidence map[string]any
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	state, ok := got.Confidence["state"].(float64)
	if !ok || state < 0 || state > 1 {
		t.Fatalf("confidence %v\n%s", got.Confidence, out)
	}
	for k, v := range got.Confidence {
		if p, ok := v.(float64); ok && (p < state || p > 1) {
			t.Errorf("%s: %v (whole state %v)", k, p, state)
		}
	}
}
