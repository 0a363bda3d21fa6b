package grammar

import (
	"strings"
	"testing"
)

func TestNewContext(t *testing.T) {
	c := NewContext("", "a = 1  \r\n\r\n\tb = 2\rc\n")
	want := "  1| a = 1\n  2|\n  3| \tb = 2\n  4| c\n"
	if got := c.Text(); got != want {
		t.Fatalf("Text = %q, want %q", got, want)
	}
	if len(c.Files) != 1 || len(c.Files[0].Lines) != 4 || c.Files[0].Lines[0].Text != "a = 1" {
		t.Fatalf("Files = %+v", c.Files)
	}
	if src, ok := c.Src(Loc{Line: 3}); !ok || src != "  3| \tb = 2" {
		t.Fatalf("Src = %q %v", src, ok)
	}
	if src, ok := c.Src(Loc{Line: 2}); !ok || src != "  2|" {
		t.Fatalf("Src of an empty line = %q %v", src, ok)
	}
	if _, ok := c.Src(Loc{Line: 5}); ok {
		t.Fatal("line 5 is not in the context")
	}
	if _, ok := c.Src(Loc{File: "other.py", Line: 1}); ok {
		t.Fatal("a location in another file is not in the context")
	}
	if loc, ok := c.Lookup("  4| c"); !ok || loc != (Loc{Line: 4}) {
		t.Fatalf("Lookup = %v %v", loc, ok)
	}
	if _, ok := c.Lookup("  4| c "); ok {
		t.Fatal("Lookup must match exactly")
	}
	if got := c.Lines(); len(got) != 4 || got[3] != (Loc{Line: 4}) {
		t.Fatalf("Lines = %v", got)
	}
	if NewContext("", "").Text() != "" || NewContext("", "x").Text() != "  1| x\n" {
		t.Fatal("empty source or missing final newline")
	}
}

func TestContextPathAndWideNumbers(t *testing.T) {
	src := strings.Repeat("x\n", 1000) + "last\n"
	c := NewContext("prog.py", src)
	text := c.Text()
	if !strings.HasPrefix(text, "# file: prog.py\n  1| x\n") || !strings.HasSuffix(text, "\n999| x\n1000| x\n1001| last\n") {
		t.Fatalf("Text = %q...%q", text[:40], text[len(text)-40:])
	}
	if src, ok := c.Src(Loc{File: "prog.py", Line: 1001}); !ok || src != "1001| last" {
		t.Fatalf("Src with the file's own path = %q %v", src, ok)
	}
	if loc, _ := c.Lookup("1001| last"); loc != (Loc{Line: 1001}) {
		t.Fatalf("Lookup = %v", loc)
	}
}

func TestMultiFileContext(t *testing.T) {
	c, err := NewContextFiles(
		ContextFile{Path: "main.py", Lines: []SourceLine{{1, "import util"}, {2, "util.f()  "}}},
		ContextFile{Path: "util.py", Lines: []SourceLine{{10, "def f():"}, {11, ""}, {12, "    return 1"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	want := "# file: main.py\n  1| import util\n  2| util.f()\n# file: util.py\n 10| def f():\n 11|\n 12|     return 1\n"
	if c.Text() != want {
		t.Fatalf("Text = %q", c.Text())
	}
	if src, ok := c.Src(Loc{File: "util.py", Line: 12}); !ok || src != "util.py: 12|     return 1" {
		t.Fatalf("Src = %q", src)
	}
	if _, ok := c.Src(Loc{Line: 12}); ok {
		t.Fatal("a multi-file location needs its file")
	}
	if loc, ok := c.Lookup("main.py:  2| util.f()"); !ok || loc != (Loc{File: "main.py", Line: 2}) {
		t.Fatalf("Lookup = %v %v", loc, ok)
	}
	if len(c.Lines()) != 5 {
		t.Fatalf("Lines = %v", c.Lines())
	}
	// The source was not modified, the context's copy was trimmed.
	text := TokenTraceContextStart + c.Text() + TokenForward
	back, dir, n, err := DecodeHeader(text)
	if err != nil || dir != Forward || n != len(text) || !back.Equal(c) || len(back.Files) != 2 || back.Files[1].Lines[2].Text != "    return 1" {
		t.Fatalf("DecodeHeader = %+v %v %d %v", back, dir, n, err)
	}
}

func TestInvalidContexts(t *testing.T) {
	bad := [][]ContextFile{
		{{Path: "a"}, {Path: ""}},
		{{Path: "a"}, {Path: "a"}},
		{{Path: "a\nb"}},
		{{Lines: []SourceLine{{0, "x"}}}},
		{{Lines: []SourceLine{{1, "x"}, {1, "y"}}}},
		{{Lines: []SourceLine{{1, "x\ny"}}}},
	}
	for _, files := range bad {
		if _, err := NewContextFiles(files...); err == nil {
			t.Errorf("NewContextFiles(%+v) succeeded", files)
		}
		c := Context{Files: files}
		if c.Validate() == nil {
			t.Errorf("Validate(%+v) succeeded", files)
		}
		if _, err := NewEncoder(c, Forward).Start(State{Event: EventReturn, Loc: Loc{Line: 1}}); err == nil {
			t.Errorf("encoding over %+v succeeded", files)
		}
	}
}

// TestLiteralContext checks that a Context written as a literal (no index) works, and
// that an index follows a replaced Files slice.
func TestLiteralContext(t *testing.T) {
	c := Context{Files: []ContextFile{{Lines: []SourceLine{{1, "x = 1"}, {3, "y = 2 "}}}}}
	if c.Text() != "  1| x = 1\n  3| y = 2\n" {
		t.Fatalf("Text = %q", c.Text())
	}
	if src, ok := c.Src(Loc{Line: 3}); !ok || src != "  3| y = 2" {
		t.Fatalf("Src = %q", src)
	}
	ic := c.Indexed()
	if ic.idx == nil || ic.index() != ic.idx {
		t.Fatal("Indexed did not keep its index")
	}
	ic.Files = []ContextFile{{Lines: []SourceLine{{7, "z"}}}}
	if ic.Text() != "  7| z\n" {
		t.Fatalf("stale index used: %q", ic.Text())
	}
}

func TestDecodeHeaderErrors(t *testing.T) {
	cases := []struct {
		in       string
		off      int
		expected string
	}{
		{"", 0, `"<|trace_context_start|>"`},
		{"<|trace_context_start|>", 23, "a source line"},
		{"<|trace_context_start|>  1| x\n", 30, "a source line"},
		{"<|trace_context_start|>  1| x\n<|step_into|>", 30, "a source line"},
		{"<|trace_context_start|>1| x\n<|forward|>", 23, `"  1|"`},
		{"<|trace_context_start|>001| x\n<|forward|>", 23, `"  1|"`},
		{"<|trace_context_start|>  0| x\n<|forward|>", 25, "from 1"},
		{"<|trace_context_start|>  1| x \n<|forward|>", 29, `"\n"`},
		{"<|trace_context_start|>  1| \n<|forward|>", 27, `"\n"`},
		{"<|trace_context_start|>  1|x\n<|forward|>", 27, `" " or "\n"`},
		{"<|trace_context_start|>  1| x", 29, `"\n"`},
		{"<|trace_context_start|>  1| x\n  1| y\n<|forward|>", 30, "not already"},
		{"<|trace_context_start|>  1| x\n# file: a\n<|forward|>", 30, "no header"},
		{"<|trace_context_start|># file: \n<|forward|>", 31, "a file path"},
		{"<|trace_context_start|># file: a\n# file: a\n<|forward|>", 41, "not already"},
		{"<|trace_context_start|># file: a", 32, `"\n"`},
	}
	for _, c := range cases {
		_, _, _, err := DecodeHeader(c.in)
		de, ok := err.(*DecodeError)
		if !ok || de.Offset != c.off || !strings.Contains(de.Expected, c.expected) {
			t.Errorf("DecodeHeader(%q) = %v; want offset %d, expected containing %s", c.in, err, c.off, c.expected)
		}
	}
	// An empty context and a header-only single file.
	for _, c := range []Context{NewContext("", ""), NewContext("a.py", "")} {
		text := TokenTraceContextStart + c.Text() + TokenInverse
		back, dir, _, err := DecodeHeader(text)
		if err != nil || dir != Inverse || !back.Equal(c) || len(back.Files) != 1 || back.Files[0].Path != c.Files[0].Path {
			t.Errorf("DecodeHeader(%q) = %+v %v", text, back, err)
		}
	}
}
