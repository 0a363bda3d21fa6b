//go:build ignore

// gen_tinymodel writes testdata/tinymodel: a randomly initialised tiny model (no
// training) with a small tokenizer trained on the golden trajectories, for tests of
// the decoding mechanics (constrained decoding must give decodable states whatever
// the weights). Run from the repository root: go run infer/gen_tinymodel.go
package main

import (
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/libtch"
	"github.com/sugarme/gotch/nn"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
)

func main() {
	files, err := filepath.Glob("testdata/golden/*.txt")
	if err != nil || len(files) == 0 {
		log.Fatalf("no golden trajectories: %v", err)
	}
	var texts []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		texts = append(texts, strings.Split(string(b), "\n### ")...)
	}
	tok, err := tokenizer.TrainStrings(texts, tokenizer.TrainOptions{VocabSize: 512, Special: grammar.SpecialTokens})
	if err != nil {
		log.Fatal(err)
	}
	dir := "testdata/tinymodel"
	tmp := filepath.Join(os.TempDir(), "ndb-tiny-tokenizer.json")
	if err := tok.SaveFile(tmp); err != nil {
		log.Fatal(err)
	}
	libtch.AtManualSeed(1)
	cfg := infer.Config{VocabSize: tok.VocabSize(), Dim: 32, Layers: 2, Heads: 2, Hidden: 64, MaxSeqLen: 4096, TieEmbeddings: true, BOS: -1, EOS: -1}
	m, err := infer.New(nn.NewVarStore(gotch.CPU), cfg)
	if err != nil {
		log.Fatal(err)
	}
	if err := m.Save(dir, infer.SaveOptions{Tokenizer: tmp}); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s: %d parameters, vocabulary %d", dir, cfg.NumParams(), tok.VocabSize())
}
