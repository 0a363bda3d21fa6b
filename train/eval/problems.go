package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Problem is one program with its entry call: a CruxEval problem (fields code, input,
// output, id: the call is f(<input>)) or a corpus program (eval_programs.jsonl:
// id, source, entry).
type Problem struct {
	ID     string
	Source string
	Entry  string // the call, such as f([1, 2])
	Output string // the expected result's repr (CruxEval only)
}

// Func is the name of the function the entry calls.
func (p Problem) Func() string {
	if i := strings.IndexByte(p.Entry, '('); i > 0 {
		return strings.TrimSpace(p.Entry[:i])
	}
	return "f"
}

// LoadProblems reads problems, one JSON object a line, in either form; limit > 0
// keeps the first limit.
func LoadProblems(r io.Reader, limit int) ([]Problem, error) {
	var out []Problem
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	line := 0
	for sc.Scan() && (limit <= 0 || len(out) < limit) {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var raw struct {
			ID     string `json:"id"`
			Code   string `json:"code"`
			Input  string `json:"input"`
			Output string `json:"output"`
			Source string `json:"source"`
			Entry  string `json:"entry"`
		}
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		p := Problem{ID: raw.ID, Source: raw.Source, Entry: raw.Entry, Output: raw.Output}
		if raw.Code != "" {
			p.Source, p.Entry = raw.Code, "f("+raw.Input+")"
		}
		if p.Source == "" || p.Entry == "" {
			return nil, fmt.Errorf("line %d: want code and input (CruxEval) or source and entry", line)
		}
		if p.ID == "" {
			p.ID = fmt.Sprintf("line%d", line)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

func sortStrings(s []string) { slices.Sort(s) }
