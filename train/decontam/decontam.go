// Package decontam keeps evaluation problems out of training data. It loads CruxEval
// problems (JSON lines with the fields code, input, output and id) and tells whether a
// piece of Python source matches one of them: the whole source, or any one of its
// top-level functions, compared after synth.Normalize. A function is compared under
// the name f (the name of every CruxEval function, with recursive calls renamed too),
// so a helper that is a renamed copy of a problem's function is caught as well.
//
// NewSet is the filter for training data. NewStructuralSet compares after renaming
// every identifier (synth.NormalizeNames) and so also flags copies with renamed
// variables, and independently written idioms of the same shape.
package decontam

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ndb-project/ndb/train/synth"
)

// Problem is one CruxEval problem.
type Problem struct {
	Code   string `json:"code"`
	Input  string `json:"input"`
	Output string `json:"output"`
	ID     string `json:"id"`
}

// Set is the normalized code of a collection of problems.
type Set struct {
	problems int
	keysOf   func(string) []string
	keys     map[string]string // normalized unit -> id of the first problem with it
}

// NewSet indexes problems: for each, its whole normalized code and each of its
// top-level functions and classes (see Keys).
func NewSet(problems []Problem) *Set { return newSet(problems, Keys) }

// NewStructuralSet is NewSet with a stricter comparison that also catches renamed
// copies: sources are compared after synth.NormalizeNames (see StructuralKeys). It
// flags more code, including common idioms written independently, so it suits an
// audit better than a filter.
func NewStructuralSet(problems []Problem) *Set { return newSet(problems, StructuralKeys) }

func newSet(problems []Problem, keysOf func(string) []string) *Set {
	s := &Set{problems: len(problems), keysOf: keysOf, keys: make(map[string]string)}
	for _, p := range problems {
		for _, k := range keysOf(p.Code) {
			if _, ok := s.keys[k]; !ok {
				s.keys[k] = p.ID
			}
		}
	}
	return s
}

// Load reads problems as JSON lines from r. Blank lines are skipped; a problem without
// code is an error.
func Load(r io.Reader) (*Set, error) {
	problems, err := ReadProblems(r)
	if err != nil {
		return nil, err
	}
	return NewSet(problems), nil
}

// LoadFile reads problems from a JSON lines file.
func LoadFile(path string) (*Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ReadProblems parses JSON lines of problems.
func ReadProblems(r io.Reader) ([]Problem, error) {
	var problems []Problem
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var p Problem
		if err := json.Unmarshal([]byte(text), &p); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if strings.TrimSpace(p.Code) == "" {
			return nil, fmt.Errorf("line %d: problem %q has no code", line, p.ID)
		}
		problems = append(problems, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return problems, nil
}

// Len returns the number of problems the set was built from.
func (s *Set) Len() int { return s.problems }

// Contains reports whether source, or one of its top-level functions, matches a
// problem.
func (s *Set) Contains(source string) bool {
	_, ok := s.Match(source)
	return ok
}

// Match returns the id of a problem that source, or one of its top-level functions,
// matches.
func (s *Set) Match(source string) (id string, ok bool) {
	for _, k := range s.keysOf(source) {
		if id, ok := s.keys[k]; ok {
			return id, true
		}
	}
	return "", false
}

// Keys returns the normalized units of source that are compared: the whole source,
// then each top-level def (with its name, and recursive uses of it, renamed to f) and
// each top-level class, with its decorators.
func Keys(source string) []string {
	norm := synth.Normalize(source)
	keys := []string{norm}
	for _, u := range units(norm) {
		if u != norm {
			keys = append(keys, u)
		}
	}
	return keys
}

// StructuralKeys is Keys with identifiers renamed canonically (synth.NormalizeNames),
// within the whole source and within each top-level definition separately.
func StructuralKeys(source string) []string {
	keys := []string{synth.NormalizeNames(source)}
	for _, u := range units(synth.Normalize(source)) {
		if k := synth.NormalizeNames(u); k != keys[0] {
			keys = append(keys, k)
		}
	}
	return keys
}

// units splits normalized source into its top-level definitions. Decorators stay with
// the definition they precede; other top-level statements are dropped.
func units(norm string) []string {
	var out []string
	var cur []string
	var decorators []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, canonical(strings.Join(cur, "\n")))
			cur = nil
		}
	}
	for _, line := range strings.Split(norm, "\n") {
		top := !strings.HasPrefix(line, " ")
		switch {
		case !top:
			if len(cur) > 0 {
				cur = append(cur, line)
			}
		case strings.HasPrefix(line, "@"):
			flush()
			decorators = append(decorators, line)
		case strings.HasPrefix(line, "def ") || strings.HasPrefix(line, "async def ") || strings.HasPrefix(line, "class "):
			flush()
			cur = append(decorators, line)
			decorators = nil
		default:
			flush()
			decorators = nil
		}
	}
	flush()
	return out
}

// canonical renames a function unit's own name to f wherever it occurs as a whole
// word (the def line and recursive calls). Classes keep their names.
func canonical(unit string) string {
	header := unit
	for strings.HasPrefix(header, "@") {
		_, header, _ = strings.Cut(header, "\n")
	}
	header = strings.TrimPrefix(header, "async ")
	rest, ok := strings.CutPrefix(header, "def ")
	if !ok {
		return unit
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return !isWord(r) })
	if end <= 0 {
		return unit
	}
	name := rest[:end]
	if name == "f" {
		return unit
	}
	return replaceWord(unit, name, "f")
}

func isWord(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80
}

// replaceWord replaces whole-word occurrences of old (not preceded by '.', so
// attributes of the same name stay). It does not look inside or around string
// literals: a match there only makes the comparison stricter for the renamed unit.
func replaceWord(s, old, neu string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], old)
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		j += i
		end := j + len(old)
		before := j > 0 && (isWord(rune(s[j-1])) || s[j-1] == '.')
		after := end < len(s) && isWord(rune(s[end]))
		b.WriteString(s[i:j])
		if before || after {
			b.WriteString(old)
		} else {
			b.WriteString(neu)
		}
		i = end
	}
	return b.String()
}

// Filter drops contaminated programs and counts what it saw.
type Filter struct {
	Set     *Set
	Checked int            // programs checked
	Dropped int            // programs that matched a problem
	ByID    map[string]int // dropped programs per problem id
}

// NewFilter returns a filter over set.
func NewFilter(set *Set) *Filter { return &Filter{Set: set, ByID: make(map[string]int)} }

// Keep reports whether source is clean, counting it either way.
func (f *Filter) Keep(source string) bool {
	f.Checked++
	id, ok := f.Set.Match(source)
	if !ok {
		return true
	}
	f.Dropped++
	f.ByID[id]++
	return false
}

// DevFile is the CruxEval development split's path relative to the directory that
// holds the repository (the repository's "../shared/cruxeval/dev.jsonl").
const DevFile = "shared/cruxeval/dev.jsonl"

// ErrNoDevFile is returned by FindDevFile when no ancestor holds DevFile.
var ErrNoDevFile = errors.New("decontam: " + DevFile + " not found in any parent directory")

// FindDevFile looks for DevFile in dir and each of its parents, and returns the first
// path that exists.
func FindDevFile(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, filepath.FromSlash(DevFile))
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoDevFile
		}
		dir = parent
	}
}
