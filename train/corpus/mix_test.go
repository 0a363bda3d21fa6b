package corpus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar/tokenizer"
)

// writeSmallCorpus writes a tokenized corpus folder: each split's trajectories from
// texts (their levels cycling as given), a program list naming trainIDs and evalIDs,
// and the shards. With tok nil it trains the tokenizer on this corpus.
func writeSmallCorpus(t *testing.T, texts, levels, trainIDs, evalIDs []string, tok *tokenizer.Tokenizer) (string, *tokenizer.Tokenizer) {
	t.Helper()
	dir := t.TempDir()
	for _, split := range []struct {
		text, programs string
		ids            []string
	}{{TrainText, TrainPrograms, trainIDs}, {EvalText, EvalPrograms, evalIDs}} {
		var text, progs strings.Builder
		for i, tx := range texts {
			line, _ := json.Marshal(Trajectory{Program: split.ids[0], Level: levels[i%len(levels)], Text: tx})
			text.Write(append(line, '\n'))
		}
		for _, id := range split.ids {
			line, _ := json.Marshal(Program{ID: id, Level: "function", Source: "def f():\n    return " + id + "\n", Entry: "f"})
			progs.Write(append(line, '\n'))
		}
		if err := os.WriteFile(filepath.Join(dir, split.text), []byte(text.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, split.programs), []byte(progs.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	if tok == nil {
		if tok, err = TrainTokenizer(dir, 400, 1<<20); err != nil {
			t.Fatal(err)
		}
	} else if err := tok.SaveFile(filepath.Join(dir, TokenizerFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Tokenize(dir, tok); err != nil {
		t.Fatal(err)
	}
	return dir, tok
}

// A mix is its corpora one after the other: the trainer reads every trajectory of
// both, with its level, and the held-out sets of both stay held out.
func TestMixConcatenatesCorpora(t *testing.T) {
	count, loops := goldenTrajectories(t, "count.txt"), goldenTrajectories(t, "loops.txt")
	a, tok := writeSmallCorpus(t, count, []string{"function", "repository"}, []string{"a1", "a2"}, []string{"a9"}, nil)
	b, _ := writeSmallCorpus(t, loops, []string{"function"}, []string{"b1"}, []string{"b9"}, tok)
	out := filepath.Join(t.TempDir(), "mix")
	report, err := Mix(out, []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if report.TrainTrajectories != len(count)+len(loops) || report.EvalTrajectories != len(count)+len(loops) {
		t.Errorf("report %+v, want %d trajectories a split", report, len(count)+len(loops))
	}
	for _, split := range []struct{ shard, levels string }{{TrainShard, TrainLevels}, {EvalShard, EvalLevels}} {
		_, idsA, _ := ReadShard(filepath.Join(a, split.shard))
		_, idsB, _ := ReadShard(filepath.Join(b, split.shard))
		h, ids, err := ReadShard(filepath.Join(out, split.shard))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids, append(idsA, idsB...)) || h.Tokens != int64(len(idsA)+len(idsB)) {
			t.Errorf("%s: %d ids (header %d), want the %d of a then the %d of b", split.shard, len(ids), h.Tokens, len(idsA), len(idsB))
		}
		levels, err := ReadLevels(filepath.Join(out, split.levels), h.Trajectories)
		if err != nil {
			t.Fatal(err)
		}
		levA, _ := os.ReadFile(filepath.Join(a, split.levels))
		levB, _ := os.ReadFile(filepath.Join(b, split.levels))
		if want := string(levA) + string(levB); string(levels) != want || !strings.Contains(want, "r") {
			t.Errorf("%s: levels %q, want %q with both levels", split.levels, levels, want)
		}
	}
	var ids []string
	for p, err := range readJSONL[Program](filepath.Join(out, EvalPrograms)) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if !slices.Equal(ids, []string{"a9", "b9"}) {
		t.Errorf("held-out programs %v, want a9 and b9", ids)
	}
	if _, err := tokenizer.LoadFile(filepath.Join(out, TokenizerFile)); err != nil {
		t.Errorf("the mix's tokenizer: %v", err)
	}
}

// A mix that would train on a program another corpus holds out, or that joins shards
// of two tokenizers, is refused before anything is written.
func TestMixRefusesLeaksAndMismatches(t *testing.T) {
	count, loops := goldenTrajectories(t, "count.txt"), goldenTrajectories(t, "loops.txt")
	a, tok := writeSmallCorpus(t, count, []string{"function"}, []string{"a1"}, []string{"shared"}, nil)
	leaky, _ := writeSmallCorpus(t, loops, []string{"function"}, []string{"shared"}, []string{"b9"}, tok)
	other, _ := writeSmallCorpus(t, loops, []string{"function"}, []string{"c1"}, []string{"c9"}, nil)
	for _, tc := range []struct {
		name    string
		sources []string
		want    string
	}{
		{"leak", []string{a, leaky}, "held out in " + a},
		{"tokenizer", []string{a, other}, "another tokenizer"},
		{"one corpus", []string{a}, "at least two"},
	} {
		out := filepath.Join(t.TempDir(), "mix")
		_, err := Mix(out, tc.sources)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one that says %q", tc.name, err, tc.want)
		}
		if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
			t.Errorf("%s: %s was written", tc.name, out)
		}
	} // A mix into one of its sources would overwrite it: refused, the source intact.
	before, _ := os.ReadFile(filepath.Join(a, TrainShard))
	b, _ := writeSmallCorpus(t, loops, []string{"function"}, []string{"b1"}, []string{"b9"}, tok)
	if _, err := Mix(a, []string{a, b}); err == nil || !strings.Contains(err.Error(), "already holds a corpus") {
		t.Errorf("a mix into its source: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(a, TrainShard)); string(after) != string(before) {
		t.Error("the source's shard changed")
	}
}
