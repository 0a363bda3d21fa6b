package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// MixFile records, in a mixed corpus, which corpora it was made of.
const MixFile = "mix.json"

// MixReport is what Mix writes to mix.json: the corpora, in order, and the counts of
// each split.
type MixReport struct {
	Sources           []string `json:"sources"`
	TrainTrajectories int      `json:"train_trajectories"`
	TrainTokens       int64    `json:"train_tokens"`
	EvalTrajectories  int      `json:"eval_trajectories"`
	EvalTokens        int64    `json:"eval_tokens"`
}

// Mix writes to out one corpus made of the given corpora, one after the other: each
// split's token shard, levels file, text and program list concatenated. The corpora
// must share one tokenizer (byte for byte), and no program may be held out in one of
// them and trained on in another; either is refused with the corpus named, before
// anything is written, as is an out that already holds a corpus (one of the sources,
// or an earlier mix). The trainer's batches draw windows at random, so the order of
// the sources does not weigh them; their sizes do.
func Mix(out string, sources []string) (MixReport, error) {
	report := MixReport{Sources: sources}
	if len(sources) < 2 {
		return report, errors.New("a mix needs at least two corpora")
	}
	tok, err := sameTokenizer(sources)
	if err != nil {
		return report, err
	}
	if err := checkHeldOutApart(sources); err != nil {
		return report, err
	}
	if _, err := os.Stat(filepath.Join(out, TrainShard)); err == nil {
		return report, fmt.Errorf("%s already holds a corpus: mix into a new folder", out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return report, err
	}
	if err := os.WriteFile(filepath.Join(out, TokenizerFile), tok, 0o644); err != nil {
		return report, err
	}
	for _, split := range []struct {
		shard, levels, text, programs string
		trajectories                  *int
		tokens                        *int64
	}{
		{TrainShard, TrainLevels, TrainText, TrainPrograms, &report.TrainTrajectories, &report.TrainTokens},
		{EvalShard, EvalLevels, EvalText, EvalPrograms, &report.EvalTrajectories, &report.EvalTokens},
	} {
		h, err := concatShards(filepath.Join(out, split.shard), sources, split.shard)
		if err != nil {
			return report, err
		}
		*split.trajectories, *split.tokens = h.Trajectories, h.Tokens
		for _, name := range []string{split.levels, split.text, split.programs} {
			if err := concatFiles(filepath.Join(out, name), sources, name); err != nil {
				return report, err
			}
		}
	}
	data, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return report, err
	}
	return report, os.WriteFile(filepath.Join(out, MixFile), append(data, '\n'), 0o644)
}

// sameTokenizer returns the corpora's tokenizer file, which must be the same in all.
func sameTokenizer(sources []string) ([]byte, error) {
	var first []byte
	for i, src := range sources {
		data, err := os.ReadFile(filepath.Join(src, TokenizerFile))
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = data
		} else if !bytes.Equal(data, first) {
			return nil, fmt.Errorf("%s has another tokenizer than %s: tokenize both with one (ndb data gen --tokenizer)", src, sources[0])
		}
	}
	return first, nil
}

// checkHeldOutApart refuses a mix in which a program held out by one corpus is
// trained on by another (program ids are hashes of the normalized source).
func checkHeldOutApart(sources []string) error {
	heldOut := map[string]string{}
	for _, src := range sources {
		for p, err := range readJSONL[Program](filepath.Join(src, EvalPrograms)) {
			if err != nil {
				return err
			}
			heldOut[p.ID] = src
		}
	}
	for _, src := range sources {
		for p, err := range readJSONL[Program](filepath.Join(src, TrainPrograms)) {
			if err != nil {
				return err
			}
			if in, ok := heldOut[p.ID]; ok {
				return fmt.Errorf("program %s is trained on in %s and held out in %s", p.ID, src, in)
			}
		}
	}
	return nil
}

// concatShards writes to path the token shards named name in the sources, one after
// the other, under one header.
func concatShards(path string, sources []string, name string) (ShardHeader, error) {
	var total ShardHeader
	headers := make([]ShardHeader, len(sources))
	for i, src := range sources {
		h, err := shardHeaderOf(filepath.Join(src, name))
		if err != nil {
			return total, err
		}
		if i > 0 && (h.VocabSize != total.VocabSize || h.TokenBytes != total.TokenBytes) {
			return total, fmt.Errorf("%s: a vocabulary of %d, %s has %d", filepath.Join(src, name), h.VocabSize, sources[0], total.VocabSize)
		}
		headers[i] = h
		total.VocabSize, total.TokenBytes = h.VocabSize, h.TokenBytes
		total.Trajectories += h.Trajectories
		total.Tokens += h.Tokens
	}
	f, err := os.Create(path)
	if err != nil {
		return total, err
	}
	defer f.Close()
	if _, err := f.Write(shardHeaderBytes(total)); err != nil {
		return total, err
	}
	for i, src := range sources {
		in, err := os.Open(filepath.Join(src, name))
		if err != nil {
			return total, err
		}
		body := headers[i].Tokens * int64(headers[i].TokenBytes)
		n, err := io.Copy(f, io.NewSectionReader(in, shardHeaderSize, body))
		in.Close()
		if err == nil && n != body {
			err = fmt.Errorf("%s: %d bytes of token ids, the header says %d", filepath.Join(src, name), n, body)
		}
		if err != nil {
			return total, err
		}
	}
	return total, f.Close()
}

// shardHeaderOf reads the header of the shard at path.
func shardHeaderOf(path string) (ShardHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return ShardHeader{}, err
	}
	defer f.Close()
	h, err := ReadShardHeader(f)
	if err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// concatFiles writes to path the files named name in the sources, one after the other.
func concatFiles(path string, sources []string, name string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, src := range sources {
		in, err := os.Open(filepath.Join(src, name))
		if err != nil {
			return err
		}
		_, err = io.Copy(f, in)
		in.Close()
		if err != nil {
			return err
		}
	}
	return f.Close()
}
