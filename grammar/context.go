package grammar

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// FileHeader starts the header line written before a file of the context: the line is
// FileHeader + PATH + "\n".
const FileHeader = "# file: "

// trailingSpace is what Text trims from the end of a source line (decision: ASCII
// whitespace only, so a line ending in e.g. a no-break space inside a string literal
// keeps it).
const trailingSpace = " \t\r\v\f"

// contextIndex is what a Context precomputes for fast encoding and decoding: the SRC of
// every location and back, and the CONTEXT text.
type contextIndex struct {
	// files is the Files slice the index was built from; an index is used only while
	// the context still holds this very slice (same backing array and length).
	files []ContextFile
	err   error
	multi bool
	text  string
	src   map[Loc]string
	loc   map[string]Loc
	lines []Loc
	// single is the path of the only file when there is exactly one.
	single string
	// maxSrc is the length of the longest SRC.
	maxSrc int
}

// NewContext returns a single-file context holding every line of source, numbered
// from 1. Lines are split at "\n", "\r\n" and "\r" (Python's universal newlines, so the
// numbers match the tracer's), a final line break does not start a new line, and
// trailing whitespace is trimmed from each line (decision: see Text). A non-empty path
// is kept and written as a `# file: PATH` header line (so it survives a round trip);
// path "" means no header, as in the spec's example. Locations in a single-file context
// carry no file name (Loc.File is "").
func NewContext(path, source string) Context {
	var lines []SourceLine
	n := 0
	for len(source) > 0 {
		i := strings.IndexAny(source, "\r\n")
		line, rest := source, ""
		if i >= 0 {
			line, rest = source[:i], source[i+1:]
			if source[i] == '\r' && strings.HasPrefix(rest, "\n") {
				rest = rest[1:]
			}
		}
		n++
		lines = append(lines, SourceLine{N: n, Text: strings.TrimRight(line, trailingSpace)})
		source = rest
	}
	c := Context{Files: []ContextFile{{Path: path, Lines: lines}}}
	c.idx = buildIndex(c.Files)
	return c
}

// NewContextFiles returns a context of the given files, with trailing whitespace trimmed
// from every line (the files are copied, the arguments are not changed) and its index
// built, or an error when the files do not make a valid context (see Validate).
func NewContextFiles(files ...ContextFile) (Context, error) {
	cp := make([]ContextFile, len(files))
	for i, f := range files {
		cp[i].Path = f.Path
		if f.Lines != nil {
			cp[i].Lines = make([]SourceLine, len(f.Lines))
			for j, l := range f.Lines {
				cp[i].Lines[j] = SourceLine{N: l.N, Text: strings.TrimRight(l.Text, trailingSpace)}
			}
		}
	}
	c := Context{Files: cp}
	c.idx = buildIndex(cp)
	return c, c.idx.err
}

// Indexed returns c with its lookup index built. Contexts made by NewContext,
// NewContextFiles or decoding already have one; a Context written as a literal does
// not, and then every Src, Lookup, Lines and Text call (and every encoder made from it)
// rebuilds it. Treat a Context as immutable once built: the index notices a replaced
// Files slice but not lines changed in place. An index is never modified after it is
// built, so contexts may be shared between goroutines.
func (c Context) Indexed() Context {
	c.idx = c.index()
	return c
}

// Validate reports whether the context can be written and read back: with several
// files every file needs a distinct non-empty path; no path may contain a line break;
// line numbers are positive and distinct within a file; line texts hold no "\n".
func (c Context) Validate() error { return c.index().err }

// index returns the context's index, building a fresh one when there is none or it was
// built for other files.
func (c Context) index() *contextIndex {
	if ix := c.idx; ix != nil && len(ix.files) == len(c.Files) &&
		(len(c.Files) == 0 || &ix.files[0] == &c.Files[0]) {
		return ix
	}
	return buildIndex(c.Files)
}

// lineForm returns a line as CONTEXT writes it, without the "\n": `%3d| text`, or just
// `%3d|` when the (trimmed) text is empty.
func lineForm(n int, text string) string {
	text = strings.TrimRight(text, trailingSpace)
	num := strconv.Itoa(n)
	var b strings.Builder
	b.Grow(len(num) + len(text) + 5)
	for i := len(num); i < 3; i++ {
		b.WriteByte(' ')
	}
	b.WriteString(num)
	b.WriteByte('|')
	if text != "" {
		b.WriteByte(' ')
		b.WriteString(text)
	}
	return b.String()
}

func buildIndex(files []ContextFile) *contextIndex {
	ix := &contextIndex{files: files, multi: len(files) > 1}
	nlines := 0
	for _, f := range files {
		nlines += len(f.Lines)
	}
	ix.src = make(map[Loc]string, nlines)
	ix.loc = make(map[string]Loc, nlines)
	ix.lines = make([]Loc, 0, nlines)
	if len(files) == 1 {
		ix.single = files[0].Path
	}
	var text strings.Builder
	paths := make(map[string]bool, len(files))
	for _, f := range files {
		switch {
		case strings.Contains(f.Path, "\n"):
			ix.fail(fmt.Errorf("grammar: context file path %q contains a line break", f.Path))
		case ix.multi && f.Path == "":
			ix.fail(errors.New("grammar: a context with several files needs a path for every file"))
		case paths[f.Path]:
			ix.fail(fmt.Errorf("grammar: context file %q appears twice", f.Path))
		}
		paths[f.Path] = true
		if ix.multi || f.Path != "" {
			text.WriteString(FileHeader)
			text.WriteString(f.Path)
			text.WriteByte('\n')
		}
		for _, l := range f.Lines {
			form := lineForm(l.N, l.Text)
			text.WriteString(form)
			text.WriteByte('\n')
			loc := Loc{Line: l.N}
			src := form
			if ix.multi {
				loc.File = f.Path
				src = f.Path + ":" + form
			}
			switch {
			case l.N < 1:
				ix.fail(fmt.Errorf("grammar: context line number %d of %q is not positive", l.N, f.Path))
			case strings.Contains(l.Text, "\n"):
				ix.fail(fmt.Errorf("grammar: context line %d of %q contains a line break", l.N, f.Path))
			}
			if _, dup := ix.src[loc]; dup {
				ix.fail(fmt.Errorf("grammar: context line %d of %q appears twice", l.N, f.Path))
				continue
			}
			ix.src[loc] = src
			if _, dup := ix.loc[src]; !dup {
				ix.loc[src] = loc
			} else {
				ix.fail(fmt.Errorf("grammar: context source line %q is ambiguous", src))
			}
			ix.lines = append(ix.lines, loc)
			ix.maxSrc = max(ix.maxSrc, len(src))
		}
	}
	ix.text = text.String()
	return ix
}

func (ix *contextIndex) fail(err error) {
	if ix.err == nil {
		ix.err = err
	}
}

// canon maps a location to the form the index keys on: in a single-file context the file
// name is dropped when it is empty or the file's own path.
func (ix *contextIndex) canon(loc Loc) (Loc, bool) {
	if !ix.multi && loc.File != "" {
		if loc.File != ix.single {
			return loc, false
		}
		loc.File = ""
	}
	return loc, true
}

// srcOf returns the SRC of loc.
func (ix *contextIndex) srcOf(loc Loc) (string, bool) {
	loc, ok := ix.canon(loc)
	if !ok {
		return "", false
	}
	s, ok := ix.src[loc]
	return s, ok
}

// Text returns the CONTEXT bytes of spec section 5: every line as `%3d| text` followed
// by "\n", in the order of Files and of their Lines. Decisions: trailing whitespace of a
// line is trimmed (so an empty or blank line is just `%3d|`); line numbers wider than
// three digits are written in full (`1000| text`); a file is preceded by the header line
// `# file: PATH` when there are several files, or when the only file has a non-empty
// path.
func (c Context) Text() string { return c.index().text }

// Src returns the SRC of a location exactly as it appears in the context: `NNN| text`,
// or `PATH:NNN| text` when there are several files. In a single-file context loc.File
// may be "" or the file's path. It reports false for a location not in the context.
func (c Context) Src(loc Loc) (string, bool) { return c.index().srcOf(loc) }

// Lookup returns the location whose SRC is src (the reverse of Src). Decoded locations
// of a single-file context have File "".
func (c Context) Lookup(src string) (Loc, bool) {
	loc, ok := c.index().loc[src]
	return loc, ok
}

// Lines returns every location of the context, in context order (for constrained
// decoding: the SRCs a model may write). The slice is shared: do not modify it.
func (c Context) Lines() []Loc { return c.index().lines }

// Equal reports whether two contexts are written the same (equal Text), so a context
// compares equal to the one decoded from its text.
func (c Context) Equal(o Context) bool { return c.Text() == o.Text() }
