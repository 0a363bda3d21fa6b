package train

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/train/corpus"
)

// trainingData is what a run reads from its corpus folder.
type trainingData struct {
	tok          *tokenizer.Tokenizer
	tokenizer    string // the tokenizer file, copied into every checkpoint
	train, eval  *tokenStream
	trainSHA256  string
	functionEval bool // eval.levels says which held-out windows are function level
}

// loadData reads the corpus folder's tokenizer, shards and levels. The levels are
// needed only when functionShare > 0; without them the held-out loss is not split.
func loadData(dir string, functionShare float64) (*trainingData, error) {
	d := &trainingData{tokenizer: filepath.Join(dir, corpus.TokenizerFile)}
	var err error
	if d.tok, err = tokenizer.LoadFile(d.tokenizer); err != nil {
		return nil, err
	}
	trainPath := filepath.Join(dir, corpus.TrainShard)
	if d.train, err = loadStream(trainPath, filepath.Join(dir, corpus.TrainLevels), d.tok); err != nil {
		return nil, err
	}
	if functionShare > 0 && !d.train.leveled {
		return nil, fmt.Errorf("a function share needs %s beside %s, which `ndb data gen` writes since the corpus keeps the two levels apart: regenerate the corpus",
			corpus.TrainLevels, trainPath)
	}
	if d.eval, err = loadStream(filepath.Join(dir, corpus.EvalShard), filepath.Join(dir, corpus.EvalLevels), d.tok); err != nil {
		return nil, err
	}
	d.functionEval = d.eval.leveled && len(d.eval.byLevel[0]) > 0
	if d.trainSHA256, err = fileSHA256(trainPath); err != nil {
		return nil, err
	}
	return d, nil
}

// loadStream reads a token shard and, when there is one, its levels file.
func loadStream(path, levelsPath string, tok *tokenizer.Tokenizer) (*tokenStream, error) {
	h, ids, err := corpus.ReadShard(path)
	if err != nil {
		return nil, err
	}
	if h.VocabSize != tok.VocabSize() {
		return nil, fmt.Errorf("%s: vocabulary of %d, the tokenizer has %d", path, h.VocabSize, tok.VocabSize())
	}
	s, err := newTokenStream(ids, tok)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	levels, err := corpus.ReadLevels(levelsPath, len(s.starts))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err == nil {
		err = s.setLevels(levels)
	}
	return s, err
}
