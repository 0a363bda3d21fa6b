package synth

import (
	"slices"
	"strconv"
	"strings"
)

// Concrete inputs. Values are short (lists of at most 8 items, strings of at most a few
// words) so traces stay small, and they are shaped by the flavor a template asks for.
// Strings never contain quotes or backslashes, so their literals are trivial.

// dictVal is a dict[str, int] value in insertion order.
type dictVal []kv

type kv struct {
	k string
	v int
}

// setVal is a set of small ints.
type setVal []int

var vocabulary = []string{
	"apple", "river", "stone", "cloud", "maple", "tiger", "lemon", "pixel", "orbit", "delta",
	"ember", "frost", "grape", "harbor", "ivy", "jolt", "kiwi", "lunar", "mango", "nova",
	"ocean", "pearl", "quill", "raven", "sage", "tulip", "vivid", "willow", "yarn", "zest",
	"bob", "level", "noon", "radar", "kayak", "cat", "dog", "sun", "sky", "tea", "owl",
	"bee", "an", "to", "of", "go", "map", "red", "blue", "green", "amber", "cedar", "dune",
	"echo", "fern", "glade", "hill", "iris", "jade", "kite", "lake", "moss", "nest", "oak",
	"plum", "quartz", "reed", "silk", "tide", "urn", "vale", "wren", "yew", "zinc", "data",
	"code", "loop", "node", "tree", "leaf", "root", "path", "byte", "bit", "key", "lock",
	"door", "mist", "rain", "snow", "wind", "fire", "sand", "salt", "pepper", "bread",
}

const letters = "abcdeilmnorstuxyz"

func (g *Generator) value(k kind, fl flavor) any {
	switch k {
	case kInt:
		return g.intValue(fl)
	case kStr:
		return g.strValue(fl)
	case kChar:
		return g.charValue()
	case kIntList:
		return g.intList(fl)
	case kStrList:
		return g.strList()
	case kDict:
		return g.dictValue()
	case kIntSet:
		return g.setValue()
	case kBool:
		return g.chance(0.5)
	}
	return nil
}

func (g *Generator) intValue(fl flavor) int {
	switch fl {
	case flSmall:
		return g.between(0, 9)
	case flPos:
		return g.between(1, 40)
	case flIndex:
		return g.between(-3, 9)
	}
	if g.chance(0.7) {
		return g.between(0, 12)
	}
	return g.between(-15, 60)
}

func (g *Generator) word() string {
	w := pick(g, vocabulary)
	switch g.intn(12) {
	case 0:
		return strings.ToUpper(w[:1]) + w[1:]
	case 1:
		return strings.ToUpper(w)
	case 2:
		return w + strconv.Itoa(g.intn(10))
	}
	return w
}

func (g *Generator) randomLetters(lo, hi int) string {
	n := g.between(lo, hi)
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[g.intn(len(letters))]
	}
	return string(b)
}

func (g *Generator) strValue(fl flavor) string {
	if fl == flAny {
		fl = pick(g, []flavor{flWord, flWord, flSentence, flMixed, flCSV, flDigits})
		if g.chance(0.15) {
			return g.randomLetters(0, 8)
		}
	}
	switch fl {
	case flWord:
		return g.word()
	case flSentence:
		n := g.between(1, 4)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = g.word()
		}
		s := strings.Join(ws, " ")
		switch g.intn(9) {
		case 8:
			for i, w := range ws {
				ws[i] = strings.ToUpper(w[:1]) + w[1:]
			}
			s = strings.Join(ws, " ")
		case 0:
			s = "  " + s + " "
		case 1:
			s += "!"
		case 2:
			s += "."
		case 3:
			s = strings.Replace(s, " ", "  ", 1)
		}
		return s
	case flMixed:
		n := g.between(2, 9)
		b := make([]byte, n)
		for i := range b {
			switch g.intn(5) {
			case 0, 1:
				b[i] = byte('0' + g.intn(10))
			case 2:
				b[i] = byte('A' + g.intn(6))
			default:
				b[i] = letters[g.intn(len(letters))]
			}
		}
		return string(b)
	case flCSV:
		sep := pick(g, []string{",", ";", "-", ":", "|", "/"})
		n := g.between(1, 5)
		parts := make([]string, n)
		for i := range parts {
			if g.chance(0.4) {
				parts[i] = strconv.Itoa(g.between(0, 40))
			} else {
				parts[i] = pick(g, vocabulary)
			}
		}
		if g.chance(0.1) {
			parts = append(parts, "")
		}
		return strings.Join(parts, sep)
	case flDigits:
		n := g.between(1, 6)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + g.intn(10))
		}
		if g.chance(0.2) {
			b[g.intn(n)] = letters[g.intn(len(letters))]
		}
		return string(b)
	case flBrackets:
		if g.chance(0.5) {
			return g.balanced(g.between(0, 3))
		}
		n := g.between(0, 8)
		b := make([]byte, n)
		for i := range b {
			b[i] = "()[]{}"[g.intn(6)]
		}
		return string(b)
	}
	return g.word()
}

func (g *Generator) balanced(depth int) string {
	if depth == 0 {
		return ""
	}
	var sb strings.Builder
	for range g.between(1, 2) {
		o := g.intn(3)
		sb.WriteByte("([{"[o])
		sb.WriteString(g.balanced(depth - 1))
		sb.WriteByte(")]}"[o])
	}
	return sb.String()
}

func (g *Generator) charValue() string {
	return string("aeioubcdrstxyz0123 -,.:"[g.intn(23)])
}

func (g *Generator) listLen() int {
	if g.chance(0.06) {
		return 0
	}
	return g.between(1, 8)
}

func (g *Generator) intList(fl flavor) []int {
	n := g.listLen()
	xs := make([]int, n)
	lo, hi := -10, 50
	switch fl {
	case flSmall:
		lo, hi = 0, 9
	case flPos:
		lo, hi = 1, 30
	default:
		if g.chance(0.5) {
			lo, hi = 0, 20
		}
	}
	for i := range xs {
		if i > 0 && g.chance(0.15) {
			xs[i] = xs[g.intn(i)]
			continue
		}
		xs[i] = g.between(lo, hi)
	}
	if fl == flSorted || g.chance(0.08) {
		slices.Sort(xs)
	}
	return xs
}

func (g *Generator) strList() []string {
	n := g.listLen()
	if n > 6 {
		n = 6
	}
	xs := make([]string, n)
	for i := range xs {
		switch {
		case i > 0 && g.chance(0.15):
			xs[i] = xs[g.intn(i)]
		case g.chance(0.04):
			xs[i] = ""
		case g.chance(0.08):
			xs[i] = strconv.Itoa(g.between(0, 99))
		default:
			xs[i] = g.word()
		}
	}
	return xs
}

func (g *Generator) dictValue() dictVal {
	n := g.between(0, 5)
	if n == 0 && g.chance(0.5) {
		n = 2
	}
	var d dictVal
	for len(d) < n {
		k := pick(g, vocabulary)
		if !slices.ContainsFunc(d, func(e kv) bool { return e.k == k }) {
			d = append(d, kv{k, g.between(-5, 30)})
		}
	}
	return d
}

func (g *Generator) setValue() setVal {
	n := g.between(0, 6)
	var s setVal
	for len(s) < n {
		x := g.between(0, 15)
		if !slices.Contains(s, x) {
			s = append(s, x)
		}
	}
	slices.Sort(s)
	return s
}

// literal renders a value as Python source (its repr).
func literal(v any) string {
	switch v := v.(type) {
	case int:
		return strconv.Itoa(v)
	case string:
		return "'" + v + "'"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case []int:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = strconv.Itoa(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []string:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = "'" + x + "'"
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case dictVal:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = "'" + e.k + "': " + strconv.Itoa(e.v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case setVal:
		if len(v) == 0 {
			return "set()"
		}
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = strconv.Itoa(x)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "None"
}

// str renders a string constant in template code, usually with single quotes.
func (g *Generator) str(s string) string {
	if g.chance(0.1) {
		return `"` + s + `"`
	}
	return "'" + s + "'"
}

// Branch-aware constants: when the value a template tests is known, constants are
// chosen near it, on either side, so that across programs both branches run.

// threshold returns an int to compare v (or the items of v) against.
func (g *Generator) threshold(v *variable) int {
	switch x := v.val.(type) {
	case int:
		return x + g.between(-2, 2)
	case []int:
		if len(x) > 0 {
			return x[g.intn(len(x))] + g.between(-1, 1)
		}
	case dictVal:
		if len(x) > 0 {
			return x[g.intn(len(x))].v + g.between(-1, 1)
		}
	case string:
		return len(x) + g.between(-2, 1)
	case []string:
		if len(x) > 0 {
			return len(x[g.intn(len(x))]) + g.between(-1, 1)
		}
	}
	return g.between(0, 12)
}

// charFor returns a single character to look for in v, usually one it contains.
func (g *Generator) charFor(v *variable) string {
	var s string
	switch x := v.val.(type) {
	case string:
		s = x
	case []string:
		s = strings.Join(x, "")
	}
	if s != "" && g.chance(0.7) {
		return string(s[g.intn(len(s))])
	}
	return string("aeiouxyz-,. 0"[g.intn(13)])
}

// subFor returns a short substring of v, or a plausible string when v is unknown.
func (g *Generator) subFor(v *variable) string {
	if s, ok := v.val.(string); ok && len(s) > 0 && g.chance(0.7) {
		i := g.intn(len(s))
		j := min(len(s), i+g.between(1, 3))
		return s[i:j]
	}
	return pick(g, []string{"a", "e", "an", "er", "o", "x", "ab", "in", "ra", "on", "-", ",", " "})
}

// wordFor returns a word, usually one of v's items when v is a known list of strs.
func (g *Generator) wordFor(v *variable) string {
	if xs, ok := v.val.([]string); ok && len(xs) > 0 && g.chance(0.65) {
		return xs[g.intn(len(xs))]
	}
	return pick(g, vocabulary)
}

// keyFor returns a key, usually one of v's keys when v is a known dict.
func (g *Generator) keyFor(v *variable) string {
	if d, ok := v.val.(dictVal); ok && len(d) > 0 && g.chance(0.65) {
		return d[g.intn(len(d))].k
	}
	return pick(g, vocabulary)
}

// elemFor returns an int, usually one of v's items when v is a known list or set.
func (g *Generator) elemFor(v *variable) int {
	switch x := v.val.(type) {
	case []int:
		if len(x) > 0 && g.chance(0.65) {
			return x[g.intn(len(x))]
		}
	case setVal:
		if len(x) > 0 && g.chance(0.65) {
			return x[g.intn(len(x))]
		}
	}
	return g.between(0, 12)
}

// sepFor returns a separator for splitting v: a punctuation character it contains when
// known, else a common one.
func (g *Generator) sepFor(v *variable) string {
	if s, ok := v.val.(string); ok && g.chance(0.8) {
		for _, c := range ",;-:|/ " {
			if strings.ContainsRune(s, c) {
				return string(c)
			}
		}
	}
	return pick(g, []string{",", ";", "-", ":", " "})
}
