package grammar

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Facts are what a program's text says about its execution (issue 12), computed by
// the tracer's static analysis (trace/analyze.py: compile, ast and dis, never running
// the program) for a single-file program. They are conservative: what a real run
// does is always allowed. Codes[0] is the module.
type Facts struct {
	Version int  `json:"version"`
	Open    bool `json:"open"` // dynamic code: every function callable from anywhere
	// NoClass: no class is made (a repr such as 1 or 'a' is an immutable builtin's);
	// Closed: besides, only call instructions can run code of the program.
	NoClass bool        `json:"noclass"`
	Closed  bool        `json:"closed"`
	Codes   []CodeFacts `json:"codes"`
	// EntryCode is the function the run's entry expression calls once and no line of
	// the program can call: the run has a single frame of it (nil: none, or the entry
	// was not given).
	EntryCode *int `json:"entry_code,omitempty"`
	// EntryOpen: the entry expression can call several functions of the program one
	// after another (f(g(1)), f(1) + f(2)), so a return of its call can be followed
	// by any call. Without it a run is one call of the entry (or the entry is not
	// known, and assumed to be such a call).
	EntryOpen bool `json:"entry_open,omitempty"`
}

// CodeFacts are the facts of one code object (module, function, lambda,
// comprehension, class body).
type CodeFacts struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	FirstLine int    `json:"first_line"`
	// Loose: a generator or coroutine, resumed by whoever iterates it; any event of
	// its frame may follow any other.
	Loose     bool     `json:"loose"`
	Namespace bool     `json:"namespace"` // module or class body: locals are a dict
	Names     []string `json:"names"`
	OpenNames bool     `json:"open_names"` // any name (a namespace changed by dynamic code)
	Params    []string `json:"params"`     // a call state's keys, in order ...
	Free      []string `json:"free"`       // ... then any of these
	Lines     []int    `json:"lines"`      // where a line event can happen
	AllLines  []int    `json:"all_lines"`  // every line of the code object's line table
	Returns   []int    `json:"returns"`    // where a return event can happen (returns, yields)
	CallLines []int    `json:"call_lines"` // where its call event can happen
	// Callees are the code objects each line can call; AnyCaller marks one that
	// any line may call (escaping, decorated, dunder, lambda, generator ...).
	Callees   map[int][]int `json:"callees"`
	AnyCaller bool          `json:"any_caller"`
	Entry     After         `json:"entry"`      // after the call event
	AfterLine map[int]After `json:"after_line"` // after a line event at the line
	AfterExc  map[int]After `json:"after_exc"`  // after an exception event at the line
	// Parent is the code whose constant this one is, and MadeLines the lines where
	// Parent's instructions load it to make a function: no frame of this code can
	// exist before a frame of Parent has run one of them (empty: unknown).
	Parent    int   `json:"parent"`
	MadeLines []int `json:"made_lines"`
	// Values are the value facts of a function (nil for the rest: no value rules).
	Values *ValueFacts `json:"values"`
	// Branches are the branch facts of a function's if/elif/while lines (branch.go).
	Branches map[int]BranchFact `json:"branches"`
	// Assigns are the lines of a function that are one assignment (assign.go).
	Assigns map[int]AssignFact `json:"assigns"`
	// Fors are the `for NAME in EXPR:` headers of a function (fors.go).
	Fors map[int]ForFact `json:"fors"`
	// RetExprs are the lines of a function that are one `return EXPR` with EXPR in the
	// evaluator's subset (assign.go).
	RetExprs map[int]string `json:"ret_exprs"`
}

// After is what can follow an event in the same frame before the next line event: line
// events (Next), return events (Ret), exception events (Exc), and whether an exception
// can leave the frame (Escapes).
type After struct {
	Next    []int `json:"next"`
	Ret     []int `json:"ret"`
	Exc     []int `json:"exc"`
	Escapes bool  `json:"escapes"`
}

// maxCodes bounds the code objects the automaton tracks (a bit set); a program with
// more is left to the grammar.
const maxCodes = 128

// codeSet is a set of code object indexes.
type codeSet [maxCodes / 64]uint64

func (s *codeSet) add(i int)     { s[i>>6] |= 1 << (i & 63) }
func (s codeSet) has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }
func (s codeSet) empty() bool    { return s == codeSet{} }
func (s codeSet) and(o codeSet) (r codeSet) {
	for i := range s {
		r[i] = s[i] & o[i]
	}
	return r
}
func (s codeSet) or(o codeSet) (r codeSet) {
	for i := range s {
		r[i] = s[i] | o[i]
	}
	return r
}

// Validate checks what the automaton relies on.
func (f *Facts) Validate() error {
	if f == nil {
		return fmt.Errorf("no facts")
	}
	if len(f.Codes) == 0 || len(f.Codes) > maxCodes {
		return fmt.Errorf("facts of %d code objects (1 to %d)", len(f.Codes), maxCodes)
	}
	if e := f.EntryCode; e != nil && (*e < 0 || *e >= len(f.Codes)) {
		return fmt.Errorf("entry code %d of %d", *e, len(f.Codes))
	}
	for i, c := range f.Codes {
		if len(c.MadeLines) > 0 && (c.Parent < 0 || c.Parent >= i) {
			return fmt.Errorf("code %d: made in code %d (an earlier code object)", i, c.Parent)
		}
		for l, cs := range c.Callees {
			for _, g := range cs {
				if g < 0 || g >= len(f.Codes) {
					return fmt.Errorf("code %d line %d: callee %d of %d", i, l, g, len(f.Codes))
				}
			}
		}
	}
	return nil
}

// Program is a context with the facts of its program: it gives the targets of each
// action (targets.go) and the tries the automaton walks. Nil (from a multi-file
// context or failed facts) leaves the grammar alone. A Program is read-only once
// built and safe for concurrent use.
type Program struct {
	f   *Facts
	ctx Context
	src *trie // the context's SRC strings, with line numbers and an Euler tour

	names     *trie // every code's names (JSON string content)
	nameCodes []codeSet
	nameTerm  []codeSet
	openNames codeSet
	loose     codeSet // call keys unconstrained (loose or namespace)

	// each code's names, parameters and free variables as JSON string content
	namesJSON, paramsJSON, freeJSON [][]string

	lineTin map[int]int32 // a line's SRC terminal node's tin
	srcText map[int]string

	// per code and line: the sets the targets use
	lines, all, rets, calls []map[int]bool
	callers                 [][]site // who can call each code (nil entries: any line)
	anyCaller               []bool
	everySite               []site

	pred     *predIndex // the inverse relations, built on first use
	predOnce sync.Once
}

// site is a line of a code object that can make a call.
type site struct{ code, line int }

// NewProgram indexes facts over ctx. It fails for a context of several files or
// facts the automaton cannot use; callers then leave the grammar alone.
func NewProgram(ctx Context, f *Facts) (*Program, error) {
	if len(ctx.Files) != 1 {
		return nil, fmt.Errorf("program facts need a single-file context (%d files)", len(ctx.Files))
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if err := ctx.Validate(); err != nil {
		return nil, err
	}
	p := &Program{f: f, ctx: ctx, lineTin: map[int]int32{}, srcText: map[int]string{}}
	p.src = srcTrie(ctx)
	p.src.tour()
	for _, l := range ctx.Lines() {
		s, _ := ctx.Src(l)
		n := p.src.find(s)
		p.lineTin[l.Line] = p.src.nodes[n].tin
		p.srcText[l.Line] = s
	}
	var names []string
	owner := map[string]codeSet{}
	js := func(ns []string) []string {
		out := make([]string, len(ns))
		for i, n := range ns {
			out[i] = jsonContent(n)
		}
		return out
	}
	for _, c := range f.Codes {
		p.namesJSON = append(p.namesJSON, js(c.Names))
		p.paramsJSON = append(p.paramsJSON, js(c.Params))
		p.freeJSON = append(p.freeJSON, js(c.Free))
	}
	for i, c := range f.Codes {
		if c.OpenNames {
			p.openNames.add(i)
		}
		if c.Loose || c.Namespace {
			p.loose.add(i)
		}
		for _, n := range c.Names {
			k := jsonContent(n)
			if _, ok := owner[k]; !ok {
				names = append(names, k)
			}
			s := owner[k]
			s.add(i)
			owner[k] = s
		}
	}
	sort.Strings(names)
	p.names = newTrie(names)
	p.nameCodes = make([]codeSet, len(p.names.nodes))
	p.nameTerm = make([]codeSet, len(p.names.nodes))
	for _, k := range names {
		n := int32(0)
		p.nameCodes[0] = p.nameCodes[0].or(owner[k])
		for i := 0; i < len(k); i++ {
			n = p.names.child(n, k[i])
			p.nameCodes[n] = p.nameCodes[n].or(owner[k])
		}
		p.nameTerm[n] = owner[k]
	}
	set := func(ls []int) map[int]bool {
		m := make(map[int]bool, len(ls))
		for _, l := range ls {
			m[l] = true
		}
		return m
	}
	nc := len(f.Codes)
	p.lines, p.all, p.rets, p.calls = make([]map[int]bool, nc), make([]map[int]bool, nc), make([]map[int]bool, nc), make([]map[int]bool, nc)
	p.callers, p.anyCaller = make([][]site, nc), make([]bool, nc)
	for i, c := range f.Codes {
		p.lines[i], p.all[i], p.rets[i], p.calls[i] = set(c.Lines), set(c.AllLines), set(c.Returns), set(c.CallLines)
		p.anyCaller[i] = c.AnyCaller || f.Open
		for _, l := range c.AllLines {
			p.everySite = append(p.everySite, site{i, l})
		}
	}
	for i, c := range f.Codes {
		for l, gs := range c.Callees {
			for _, g := range gs {
				p.callers[g] = append(p.callers[g], site{i, l})
			}
		}
	}
	return p, nil
}

// jsonContent is name as the content of a canonical JSON string (ASCII escapes).
func jsonContent(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r >= 0x7f:
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&b, "\\u%04x\\u%04x", 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&b, "\\u%04x", r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Facts returns the facts the program was built from.
func (p *Program) Facts() *Facts { return p.f }

// codesAt are the code objects a state of event ev at line can belong to.
func (p *Program) codesAt(ev Event, line int) []int {
	var out []int
	for i := range p.f.Codes {
		var ok bool
		switch ev {
		case EventCall:
			ok = p.calls[i][line]
		case EventLine, EventInvLineCall:
			ok = p.lines[i][line]
		case EventReturn:
			ok = p.rets[i][line]
		case EventException:
			ok = p.all[i][line]
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// callersOf are the lines that can call code g.
func (p *Program) callersOf(g int) []site {
	if p.anyCaller[g] {
		return p.everySite
	}
	return p.callers[g]
}

// calleesOf are the code objects line l of code c can call.
func (p *Program) calleesOf(c, l int) []int {
	out := slices.Clone(p.f.Codes[c].Callees[l])
	for g := range p.f.Codes {
		if p.anyCaller[g] && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// Invented reports whether state s names a line, an event at a line, or a local that
// the program does not have: the count the evaluations print beside accuracy.
func (p *Program) Invented(s State) bool {
	if s.Loc.File != "" {
		return true
	}
	codes := p.codesAt(s.Event, s.Loc.Line)
	if len(codes) == 0 {
		return true
	}
	if !s.Event.HasLocals() {
		return false
	}
	for _, c := range codes {
		cf := p.f.Codes[c]
		if cf.OpenNames {
			return false
		}
		ok := true
		for _, v := range s.Locals {
			if v.Name != DiffMarkerKey && !slices.Contains(cf.Names, v.Name) {
				ok = false
				break
			}
		}
		if ok {
			return false
		}
	}
	return true
}
