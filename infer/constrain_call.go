package infer

import (
	"strings"

	"github.com/ndb-project/ndb/grammar"
)

// callLoc is where the call state of the function around prev's line is: its def line,
// or its first decorator's line (where Python reports a decorated function's call).
// It is found in the source alone, by indentation; ok is false at module level, for a
// location outside the context, or when the enclosing block is not a def (a lambda or
// a comprehension with a frame of its own cannot be told apart from its function, so
// the caller then leaves the line to the model).
func callLoc(ctx grammar.Context, prev grammar.Loc) (grammar.Loc, bool) {
	var lines []grammar.SourceLine
	for _, f := range ctx.Files {
		if len(ctx.Files) == 1 || f.Path == prev.File {
			lines = f.Lines
			break
		}
	}
	at := -1
	for i, l := range lines {
		if l.N == prev.Line {
			at = i
			break
		}
	}
	if at < 0 {
		return grammar.Loc{}, false
	}
	def := -1
	if isDef(lines[at].Text) {
		def = at
	} else {
		limit := indent(lines[at].Text)
		for j := at - 1; j >= 0 && limit > 0; j-- {
			t := lines[j].Text
			if blank(t) {
				continue
			}
			if in := indent(t); in < limit {
				if isDef(t) {
					def = j
					break
				}
				limit = in
			}
		}
	}
	if def < 0 {
		return grammar.Loc{}, false
	}
	first := def
	for j := def - 1; j >= 0; j-- {
		t := lines[j].Text
		if blank(t) {
			continue
		}
		if indent(t) != indent(lines[def].Text) || !strings.HasPrefix(strings.TrimSpace(t), "@") {
			break
		}
		first = j
	}
	return grammar.Loc{File: prev.File, Line: lines[first].N}, true
}

func isDef(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ")
}

func blank(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " \t")) }

// srcTrieAt is the trie of one location's SRC.
func srcTrieAt(ctx grammar.Context, loc grammar.Loc) (*trie, bool) {
	s, ok := ctx.Src(loc)
	if !ok {
		return nil, false
	}
	return newTrie([]string{s}), true
}
