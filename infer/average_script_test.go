package infer

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeTinyCheckpoint writes a folder that scripts/average-checkpoints.py accepts: a
// config, a tokenizer and two float32 tensors holding vals.
func writeTinyCheckpoint(t *testing.T, config string, vals []float32) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"config.json": config, "tokenizer.json": `{"model":{}}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tensors := map[string]f32Tensor{
		"a.weight": {shape: []int64{2, 2}, data: floatsToBytes(vals[:4])},
		"b.bias":   {shape: []int64{2}, data: floatsToBytes(vals[4:])},
	}
	if err := writeSafetensors(filepath.Join(dir, WeightsFile), []string{"b.bias", "a.weight"}, tensors); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The averaging script writes the weighted mean of checkpoints in a file the model's
// loader reads, and refuses checkpoints of two models.
func TestAverageCheckpointsScript(t *testing.T) {
	script := filepath.Join("..", "scripts", "average-checkpoints.py")
	a := writeTinyCheckpoint(t, `{"hidden_size": 2}`, []float32{1, 2, 3, 4, 10, -10})
	b := writeTinyCheckpoint(t, `{"hidden_size": 2}`, []float32{5, 6, 7, 8, 0, 10})
	out := filepath.Join(t.TempDir(), "avg")
	if msg, err := exec.Command("python3", script, "--out", out, "--weights", "3,1", a, b).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, msg)
	}
	got, err := readSafetensors(filepath.Join(out, WeightsFile))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]float32{"a.weight": {2, 3, 4, 5}, "b.bias": {7.5, -5}}
	for name, w := range want {
		tt, ok := got[name]
		if !ok || len(tt.data) != 4*len(w) {
			t.Fatalf("%s: %+v, want %d floats", name, tt, len(w))
		}
		for i, v := range w {
			if g := math.Float32frombits(binary.LittleEndian.Uint32(tt.data[4*i:])); g != v {
				t.Errorf("%s[%d] = %v, want %v (3:1 of %s and %s)", name, i, g, v, a, b)
			}
		}
	}
	if s := got["a.weight"].shape; len(s) != 2 || s[0] != 2 || s[1] != 2 {
		t.Errorf("a.weight shape %v, want [2 2]", s)
	}
	other := writeTinyCheckpoint(t, `{"hidden_size": 4}`, []float32{1, 2, 3, 4, 5, 6})
	msg, err := exec.Command("python3", script, "--out", filepath.Join(t.TempDir(), "x"), a, other).CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "config.json differs") {
		t.Errorf("checkpoints of two configs averaged: %v, %s", err, msg)
	}
}
