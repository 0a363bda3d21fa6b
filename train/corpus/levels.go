package corpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// A levels file sits beside a token shard (train.levels beside train.bin): one byte
// per trajectory of the shard, in the shard's order, saying which level it comes from,
// so the trainer can choose the mix of the two in its batches. Corpora tokenized
// before it existed lack it; the trainer then cannot weigh the levels.
const (
	TrainLevels = "train.levels"
	EvalLevels  = "eval.levels"
)

// The bytes of a levels file.
const (
	LevelFunction   byte = 'f' // a generated program (train/synth)
	LevelRepository byte = 'r' // the standard library's tests
)

// levelByte is the levels-file byte of a trajectory's level field.
func levelByte(level string) (byte, error) {
	switch level {
	case "function":
		return LevelFunction, nil
	case "repository":
		return LevelRepository, nil
	}
	return 0, fmt.Errorf("trajectory level %q (want function or repository)", level)
}

// levelsWriter writes a levels file.
type levelsWriter struct {
	f *os.File
	w *bufio.Writer
}

func createLevels(path string) (*levelsWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &levelsWriter{f: f, w: bufio.NewWriter(f)}, nil
}

func (l *levelsWriter) append(level string) error {
	b, err := levelByte(level)
	if err != nil {
		return err
	}
	return l.w.WriteByte(b)
}

func (l *levelsWriter) Close() error {
	if err := l.w.Flush(); err != nil {
		l.f.Close()
		return err
	}
	return l.f.Close()
}

// ReadLevels reads a levels file and checks that it has one valid byte for each of
// the shard's trajectories. A missing file is an error that os.IsNotExist reports.
func ReadLevels(path string, trajectories int) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) != trajectories {
		return nil, fmt.Errorf("%s: %d levels for %d trajectories (tokenized apart from its shard?)", path, len(data), trajectories)
	}
	for i, b := range data {
		if b != LevelFunction && b != LevelRepository {
			return nil, fmt.Errorf("%s: byte %d is %q, not a level", path, i, b)
		}
	}
	return data, nil
}

// WriteLevels writes the levels files of a corpus tokenized before they existed,
// without tokenizing again: it reads each split's text file, skips what tokenization
// skipped, and checks the count against the shard's header.
func WriteLevels(dir string) error {
	for _, split := range []struct{ text, shard, levels string }{
		{TrainText, TrainShard, TrainLevels},
		{EvalText, EvalShard, EvalLevels},
	} {
		if err := writeLevels(dir, split.text, split.shard, split.levels); err != nil {
			return err
		}
	}
	return nil
}

func writeLevels(dir, text, shard, levels string) error {
	h, err := shardHeaderOf(filepath.Join(dir, shard))
	if err != nil {
		return err
	}
	path := filepath.Join(dir, levels)
	lw, err := createLevels(path + ".tmp")
	if err != nil {
		return err
	}
	n := 0
	for t, err := range readTrajectories(filepath.Join(dir, text)) {
		if err == nil && !specialInContent(t.Text) {
			err = lw.append(t.Level)
			n++
		}
		if err != nil {
			lw.Close()
			os.Remove(path + ".tmp")
			return err
		}
	}
	if err := lw.Close(); err != nil {
		return err
	}
	if n != h.Trajectories {
		os.Remove(path + ".tmp")
		return fmt.Errorf("%s has %d trajectories to tokenize, %s %d: not the text it was tokenized from", text, n, shard, h.Trajectories)
	}
	return os.Rename(path+".tmp", path)
}
