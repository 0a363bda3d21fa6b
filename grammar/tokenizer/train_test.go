package tokenizer

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// refTrain is a slow reference for the trainer: at every step it recounts all pairs.
func refTrain(counts map[string]int64, special []string, vocabSize int, minFreq int64) ([][]byte, [][2]int32) {
	var tokens [][]byte
	for b := range 256 {
		tokens = append(tokens, []byte{byte(b)})
	}
	for _, s := range special {
		tokens = append(tokens, []byte(s))
	}
	var words [][]int32
	var weights []int64
	for w, c := range counts {
		var syms []int32
		for i := range len(w) {
			syms = append(syms, int32(w[i]))
		}
		words = append(words, syms)
		weights = append(weights, c)
	}
	var merges [][2]int32
	for len(tokens) < vocabSize {
		pc := map[[2]int32]int64{}
		for i, w := range words {
			for j := 0; j+1 < len(w); j++ {
				pc[[2]int32{w[j], w[j+1]}] += weights[i]
			}
		}
		var best [2]int32
		bestCount := int64(0)
		for p, c := range pc {
			better := c > bestCount
			if c == bestCount {
				if d := bytes.Compare(tokens[p[0]], tokens[best[0]]); d != 0 {
					better = d < 0
				} else {
					better = bytes.Compare(tokens[p[1]], tokens[best[1]]) < 0
				}
			}
			if better {
				best, bestCount = p, c
			}
		}
		if bestCount < minFreq {
			break
		}
		id := int32(len(tokens))
		tokens = append(tokens, append(slices.Clip(tokens[best[0]]), tokens[best[1]]...))
		merges = append(merges, best)
		for i, w := range words {
			var out []int32
			for j := 0; j < len(w); j++ {
				if j+1 < len(w) && w[j] == best[0] && w[j+1] == best[1] {
					out = append(out, id)
					j++
				} else {
					out = append(out, w[j])
				}
			}
			words[i] = out
		}
	}
	return tokens, merges
}

// TestTrainMatchesReference compares the incremental trainer with refTrain on random
// corpora over tiny alphabets, full of ties and of runs like "aaaa" and "abab".
func TestTrainMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for round := range 40 {
		alphabet := "ab c"[:2+r.IntN(3)]
		counts := map[string]int64{}
		for range 1 + r.IntN(30) {
			var sb strings.Builder
			for range 2 + r.IntN(12) {
				sb.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
			counts[sb.String()] += int64(1 + r.IntN(5))
		}
		vocab := 256 + 1 + r.IntN(40)
		minFreq := int64(1 + r.IntN(2))
		tr := newTrainer(counts, []string{"<s>"})
		tr.run(vocab, minFreq)
		wantTokens, wantMerges := refTrain(counts, []string{"<s>"}, vocab, minFreq)
		if !slices.Equal(tr.merges, wantMerges) {
			t.Fatalf("round %d: merges %v, reference %v (counts %v)", round, tr.merges, wantMerges, counts)
		}
		for i := range wantTokens {
			if !bytes.Equal(tr.tokens[i], wantTokens[i]) {
				t.Fatalf("round %d: token %d = %q, reference %q", round, i, tr.tokens[i], wantTokens[i])
			}
		}
	}
}

func TestTrainDeterministic(t *testing.T) {
	corpus := append(synthCorpus(3, 150<<10), handExamples...)
	opts := TrainOptions{VocabSize: 1024, Special: grammar.SpecialTokens}
	save := func(texts []string) []byte {
		tok, err := TrainStrings(texts, opts)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := tok.Save(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a := save(corpus)
	if b := save(corpus); !bytes.Equal(a, b) {
		t.Fatal("two trainings on the same texts wrote different tokenizer.json files")
	}
	// The result depends on the multiset of texts only.
	rev := slices.Clone(corpus)
	slices.Reverse(rev)
	if b := save(rev); !bytes.Equal(a, b) {
		t.Fatal("training on the texts in another order wrote a different tokenizer.json file")
	}
}

// TestTrainSpecExample trains a 512-token vocabulary on trajectories like the spec's
// example and checks that the language's common pieces became single tokens.
func TestTrainSpecExample(t *testing.T) {
	corpus := append(synthCorpus(4, 200<<10), handExamples...)
	tok, err := TrainStrings(corpus, TrainOptions{VocabSize: 512, Special: grammar.SpecialTokens})
	if err != nil {
		t.Fatal(err)
	}
	if tok.VocabSize() != 512 {
		t.Fatalf("vocabulary size %d, want 512", tok.VocabSize())
	}
	ids := tok.Encode(specExample)
	var got []string
	for _, id := range ids {
		got = append(got, string(tok.DecodeToken(id)))
	}
	t.Logf("spec example: %d bytes, %d tokens: %q", len(specExample), len(ids), got)
	for _, want := range []string{
		"  1|", "  6|", "    ", "        ", " return", " n", `":`, ` "'`, `{"..":`, ` ".."}`, "\n",
		grammar.TokenFrameSep, grammar.TokenActionSep, grammar.TokenStepInto,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("%q is not a token of the spec example's encoding", want)
		}
	}
	if n := len(ids); n > 110 {
		t.Errorf("spec example takes %d tokens, want at most 110", n)
	}
}

func TestTrainStopsAtMinFrequency(t *testing.T) {
	tok, err := TrainStrings([]string{"abab", "cd"}, TrainOptions{VocabSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	// Only "ab" occurs twice.
	if tok.NumMerges() != 1 || tok.VocabSize() != 257 || string(tok.DecodeToken(256)) != "ab" {
		t.Fatalf("merges %d, vocabulary %d, token 256 %q; want only the merge ab", tok.NumMerges(), tok.VocabSize(), tok.DecodeToken(256))
	}
	tok, err = TrainStrings([]string{"abab", "cd"}, TrainOptions{VocabSize: 1000, MinFrequency: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tok.NumMerges() != 3 { // ab, abab, cd
		t.Fatalf("%d merges with MinFrequency 1, want 3", tok.NumMerges())
	}
}

func TestTrainOptionErrors(t *testing.T) {
	for _, o := range []TrainOptions{
		{VocabSize: 300, Special: make([]string, 50)},
		{Special: []string{""}},
		{Special: []string{"<a>", "<a>"}},
		{Special: []string{"\xff"}},
		{MinFrequency: -1},
	} {
		if _, err := TrainStrings([]string{"x"}, o); err == nil {
			t.Errorf("TrainOptions %+v: no error", o)
		}
	}
}

func TestTrainSpecialTokenIDs(t *testing.T) {
	tok, err := TrainStrings([]string{specExample}, TrainOptions{VocabSize: 300, Special: grammar.SpecialTokens})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range grammar.SpecialTokens {
		if id, ok := tok.TokenID(s); !ok || id != 256+i || !tok.IsSpecial(id) {
			t.Errorf("TokenID(%q) = %d, %v; want %d", s, id, ok, 256+i)
		}
	}
	if !slices.Equal(tok.SpecialTokens(), grammar.SpecialTokens) {
		t.Errorf("SpecialTokens() = %q", tok.SpecialTokens())
	}
	for b := range 256 {
		if tok.IsSpecial(b) || !bytes.Equal(tok.DecodeToken(b), []byte{byte(b)}) {
			t.Fatalf("token %d is not byte %d", b, b)
		}
	}
}
