package trace

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
)

// codingDecl is PEP 263's coding declaration, on line 1 or 2 of a source file.
var codingDecl = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)

// ReadSource reads a Python program as Python reads it (DecodeSource). A file that
// cannot be decoded is a *ProgramError of kind syntax, as Python reports it.
func ReadSource(path string) (string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	src, err := DecodeSource(raw)
	if err != nil {
		return "", &ProgramError{Path: path, Kind: "syntax", Message: err.Error()}
	}
	return src, nil
}

// DecodeSource decodes the bytes of a Python source file the way the interpreter
// does (PEP 263 and PEP 3120): UTF-8, unless a coding declaration on the first or
// second line names another encoding; a UTF-8 byte-order mark is dropped. Bytes
// that are not valid in the encoding are an error, as they are for Python ("a
// latin-1 file shows 'café'", not a replacement character).
func DecodeSource(raw []byte) (string, error) {
	if rest, ok := bytes.CutPrefix(raw, []byte("\xef\xbb\xbf")); ok {
		if name, line := declaredCoding(rest); name != "" && !isUTF8(name) {
			return "", fmt.Errorf("encoding problem on line %d: %s with a UTF-8 byte-order mark", line, name)
		}
		return decodeUTF8(rest)
	}
	name, line := declaredCoding(raw)
	if name == "" || isUTF8(name) {
		return decodeUTF8(raw)
	}
	if n := normalize(name); n == "ascii" || n == "us-ascii" || n == "646" {
		for i, b := range raw {
			if b >= 0x80 {
				return "", fmt.Errorf("the file is not valid ascii: byte 0x%02x on line %d", b, bytes.Count(raw[:i], []byte("\n"))+1)
			}
		}
		return string(raw), nil
	}
	enc := pythonEncoding(name)
	if enc == nil {
		return "", fmt.Errorf("unknown encoding on line %d: %s", line, name)
	}
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil || bytes.ContainsRune(out, utf8.RuneError) && !bytes.Contains(raw, []byte("\xef\xbf\xbd")) {
		return "", fmt.Errorf("the file is not valid %s", name)
	}
	return string(out), nil
}

// declaredCoding returns the encoding a coding declaration names and its line (1
// or 2), or "" when there is none. Line 2 counts only after a blank or comment
// line 1.
func declaredCoding(raw []byte) (string, int) {
	lines := bytes.SplitN(raw, []byte("\n"), 3)
	for i := 0; i < 2 && i < len(lines); i++ {
		if m := codingDecl.FindSubmatch(lines[i]); m != nil {
			return string(m[1]), i + 1
		}
		t := bytes.TrimSpace(lines[i])
		if len(t) > 0 && t[0] != '#' {
			break
		}
	}
	return "", 0
}

func isUTF8(name string) bool {
	n := normalize(name)
	return n == "utf-8" || n == "utf8" || strings.HasPrefix(n, "utf-8-") || strings.HasPrefix(n, "utf8-")
}

// normalize lowers a codec name and spells "_" and " " as "-", as Python's codec
// lookup treats them alike.
func normalize(name string) string {
	return strings.NewReplacer("_", "-", " ", "-").Replace(strings.ToLower(name))
}

// pythonEncoding maps a Python codec name to a decoder: Python's own spellings of
// Latin-1 and the Windows code pages, then the IANA registry.
func pythonEncoding(name string) encoding.Encoding {
	n := normalize(name)
	switch n {
	case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "8859", "cp819", "l1", "latin", "iso-ir-100":
		return charmap.ISO8859_1
	}
	if strings.HasPrefix(n, "cp125") {
		n = "windows-" + n[2:]
	} else if strings.HasPrefix(n, "iso8859-") {
		n = "iso-8859-" + n[len("iso8859-"):]
	}
	if enc, err := ianaindex.IANA.Encoding(n); err == nil && enc != nil {
		return enc
	}
	return nil
}

// decodeUTF8 checks that raw is UTF-8, as Python requires of a file without a
// declaration.
func decodeUTF8(raw []byte) (string, error) {
	if !utf8.Valid(raw) {
		i := 0
		for i < len(raw) {
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		line := bytes.Count(raw[:i], []byte("\n")) + 1
		return "", fmt.Errorf("Non-UTF-8 code starting with '\\x%02x' on line %d, but no encoding declared", raw[i], line)
	}
	return string(raw), nil
}
