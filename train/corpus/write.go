package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// Trajectory is one line of a corpus text file.
type Trajectory struct {
	Program   string `json:"program"` // id of the program (hash of its normalized source)
	Level     string `json:"level"`   // function or repository
	Direction string `json:"direction"`
	Actions   int    `json:"actions"`
	Text      string `json:"text"`
}

// Program is one line of a split's program list: enough to trace it again.
type Program struct {
	ID     string `json:"id"`
	Level  string `json:"level"`
	Source string `json:"source"`
	Entry  string `json:"entry"`
	Exit   string `json:"exit"`
}

// The files of a corpus folder.
const (
	TrainText     = "train.jsonl"
	EvalText      = "eval.jsonl"
	TrainPrograms = "train_programs.jsonl"
	EvalPrograms  = "eval_programs.jsonl"
	StatsFile     = "stats.json"
)

type splitFiles struct {
	text, programs *os.File
	textW          *bufio.Writer
	textEnc        *json.Encoder
	progW          *bufio.Writer
	progEnc        *json.Encoder
}

type writer struct {
	opts        Options
	train, eval splitFiles
}

func newWriter(opts Options) (*writer, error) {
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, err
	}
	w := &writer{opts: opts}
	var err error
	if w.train, err = openSplit(opts.Out, TrainText, TrainPrograms); err != nil {
		return nil, err
	}
	if w.eval, err = openSplit(opts.Out, EvalText, EvalPrograms); err != nil {
		return nil, err
	}
	return w, nil
}

func openSplit(dir, text, programs string) (splitFiles, error) {
	var s splitFiles
	var err error
	if s.text, err = os.Create(filepath.Join(dir, text)); err != nil {
		return s, err
	}
	if s.programs, err = os.Create(filepath.Join(dir, programs)); err != nil {
		return s, err
	}
	s.textW = bufio.NewWriterSize(s.text, 1<<20)
	s.progW = bufio.NewWriterSize(s.programs, 1<<20)
	s.textEnc, s.progEnc = json.NewEncoder(s.textW), json.NewEncoder(s.progW)
	s.textEnc.SetEscapeHTML(false)
	s.progEnc.SetEscapeHTML(false)
	return s, nil
}

// program writes the trajectories of one program, or counts why it was dropped.
func (w *writer) program(j *job, stats *Stats) error {
	stats.Generated++
	if j.drop != nil {
		*j.drop++
		return nil
	}
	rec := j.rec
	split := &w.train
	if heldOut(j.id, w.opts.HeldOut) {
		split = &w.eval
		stats.KeptHeldOut++
	}
	stats.Kept++
	stats.count(&stats.Exits, string(rec.Result.Status), 1)
	if err := split.progEnc.Encode(Program{ID: j.id, Level: "function", Source: rec.Source, Entry: rec.Entry, Exit: string(rec.Result.Status)}); err != nil {
		return err
	}
	s := trace.NewSampler(uint64(w.opts.Seed)*1_000_003+uint64(j.index), trace.SampleOptions{Lines: rec.Lines()})
	inv := rec.Forward.Inverse()
	for k := 0; k < w.opts.Trajectories; k++ {
		tree := rec.Forward
		if k%2 == 1 {
			tree = inv
		}
		tr := s.Sample(tree)
		tr.Context = rec.Context
		text, err := grammar.EncodeTrajectory(tr)
		if err != nil {
			return fmt.Errorf("program %s: %w", j.id, err)
		}
		if len(text) > w.opts.MaxBytes {
			stats.TooLong++
			continue
		}
		countStates(tr, stats)
		line := Trajectory{Program: j.id, Level: "function", Direction: tr.Direction.String(), Actions: len(tr.Steps), Text: text}
		if err := split.textEnc.Encode(line); err != nil {
			return err
		}
		stats.Trajectories++
		stats.Actions += len(tr.Steps)
		stats.Bytes += int64(len(text))
	}
	return nil
}

func countStates(tr grammar.Trajectory, stats *Stats) {
	stats.count(&stats.Events, tr.Start.Event.String(), 1)
	for _, st := range tr.Steps {
		if st.Exit != "" {
			stats.count(&stats.Events, "exit", 1)
			continue
		}
		stats.count(&stats.Events, st.State.Event.String(), 1)
	}
}

func (w *writer) close(stats Stats) error {
	var first error
	for _, s := range []splitFiles{w.train, w.eval} {
		for _, f := range []func() error{s.textW.Flush, s.progW.Flush, s.text.Close, s.programs.Close} {
			if err := f(); err != nil && first == nil {
				first = err
			}
		}
	}
	data, err := json.MarshalIndent(stats, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w.opts.Out, StatsFile), append(data, '\n'), 0o644); err != nil && first == nil {
		first = err
	}
	return first
}
