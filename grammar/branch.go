package grammar

// This file is the branch rule (docs/decisions.md, "Branch facts"): after a line
// state at an `if`, `elif` or `while` line whose test reads only locals with exactly
// known values, a step goes the way the test goes.

// BranchFact is what follows a branch line's line event (trace/analyze.py, _branches):
// Cond is the test as ast.unparse writes it (literals are reprs), True and False what
// follows the line event when it is true and when false.
type BranchFact struct {
	Cond  string `json:"cond"`
	True  After  `json:"true"`
	False After  `json:"false"`
}

// branchAfter returns what can follow prev (a line state of a frame of code c) in
// the frame when the facts know c's branch at that line and its test evaluates on
// prev's locals without error, or nil (then the line's facts apply unchanged).
func (p *Program) branchAfter(c int, prev *State) *After {
	b, ok := p.f.Codes[c].Branches[prev.Loc.Line]
	if !ok || !p.evaluable(c, prev) {
		return nil
	}
	v, ok := EvalBranch(b.Cond, prev.Locals.Get)
	if !ok {
		return nil
	}
	if v {
		return &b.True
	}
	return &b.False
}

// evaluable reports whether the evaluator may read prev's locals for a rule of code c
// (branch, assignment, loop and return facts): prev is a line state of a plain function
// in a program with no class and nothing dynamic, so every repr is a builtin value's,
// and a whole state (a diff form, its marker, leaves names out).
func (p *Program) evaluable(c int, prev *State) bool {
	cf := &p.f.Codes[c]
	if prev.Event != EventLine || p.f.Open || !p.f.NoClass || cf.Kind != "function" || cf.Loose || cf.Namespace || cf.OpenNames {
		return false
	}
	_, diff := prev.Locals.Get(DiffMarkerKey)
	return !diff
}

// BranchRule reports whether the branch rule chose the successors, for tests.
func (t *Targets) BranchRule() bool { return t.branch }
