package golden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTrajectoriesReadsEverySection(t *testing.T) {
	trs, err := Trajectories("../../testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../testdata/golden/*.txt")
	if len(trs) < 2*len(files) {
		t.Fatalf("%d trajectories from %d files: each has a forward and an inverse walk", len(trs), len(files))
	}
	for _, tr := range trs {
		if len(tr.Steps) == 0 {
			t.Fatalf("a trajectory without steps: %+v", tr.Start)
		}
	}
}

func TestTrajectoriesRefusesWhatDoesNotDecode(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.txt"), []byte("### forward\nnot a trajectory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Trajectories(dir); err == nil {
		t.Fatal("a section that does not decode gave no error")
	}
	if _, err := Trajectories(t.TempDir()); err == nil {
		t.Fatal("an empty folder gave no error")
	}
}
