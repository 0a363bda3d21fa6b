package corpus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenTrajectories reads the trajectory texts of a golden file of testdata/golden
// (sections that start with a "### direction: actions" line).
func goldenTrajectories(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sec := range strings.Split(string(data), "### ")[1:] {
		_, text, ok := strings.Cut(sec, "\n")
		if !ok {
			t.Fatalf("%s: a section without a trajectory", name)
		}
		out = append(out, strings.TrimRight(text, "\n"))
	}
	if len(out) < 2 {
		t.Fatalf("%s: %d trajectories", name, len(out))
	}
	return out
}

// The levels file lists each tokenized trajectory's level in the shard's order, so
// the trainer can weigh function against repository level.
func TestTokenizeWritesLevels(t *testing.T) {
	dir := t.TempDir()
	texts := append(goldenTrajectories(t, "count.txt"), goldenTrajectories(t, "loops.txt")...)
	var want []byte
	for _, split := range []string{TrainText, EvalText} {
		f, err := os.Create(filepath.Join(dir, split))
		if err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(f)
		for i, text := range texts {
			level := []string{"function", "repository", "repository"}[i%3]
			if err := enc.Encode(Trajectory{Program: "p", Level: level, Text: text}); err != nil {
				t.Fatal(err)
			}
			if split == TrainText {
				want = append(want, level[0])
			}
		}
		f.Close()
	}
	tok, err := TrainTokenizer(dir, 400, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Tokenize(dir, tok)
	if err != nil {
		t.Fatal(err)
	}
	if st.TrainTrajectories != len(texts) {
		t.Fatalf("%d trajectories tokenized, want %d (%+v)", st.TrainTrajectories, len(texts), st)
	}
	got, err := ReadLevels(filepath.Join(dir, TrainLevels), st.TrainTrajectories)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("levels %q, want %q", got, want)
	}
	if _, err := ReadLevels(filepath.Join(dir, EvalLevels), st.EvalTrajectories+1); err == nil {
		t.Error("a levels file of another length was accepted")
	}
	// A corpus tokenized before levels files existed gets them without tokenizing.
	for _, f := range []string{TrainLevels, EvalLevels} {
		os.Remove(filepath.Join(dir, f))
	}
	if err := WriteLevels(dir); err != nil {
		t.Fatal(err)
	}
	if again, err := ReadLevels(filepath.Join(dir, TrainLevels), st.TrainTrajectories); err != nil || string(again) != string(want) {
		t.Errorf("levels written afterwards: %q, %v; want %q", again, err, want)
	}
	// Text that is not what the shard was tokenized from is refused.
	if err := os.WriteFile(filepath.Join(dir, EvalText), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteLevels(dir); err == nil {
		t.Error("levels written from an empty eval.jsonl for a shard of trajectories")
	}
}
