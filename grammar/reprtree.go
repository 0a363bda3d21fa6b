package grammar

import (
	"strings"
	"unicode/utf8"
)

// ReprKind is the shape of a parsed repr.
type ReprKind uint8

// The shapes of a repr. Only containers have items; everything else (numbers, strings,
// None, objects with their own repr, truncated reprs) is a leaf.
const (
	ReprLeaf   ReprKind = iota // not expandable
	ReprList                   // [a, b]
	ReprTuple                  // (a, b), (a,), ()
	ReprDict                   // {k: v}, {}
	ReprSet                    // {a, b}, set(), frozenset({a})
	ReprObject                 // Name(field=value, ...): dataclasses, namedtuples
)

var reprKindNames = [...]string{"leaf", "list", "tuple", "dict", "set", "object"}

// String returns "leaf", "list", "tuple", "dict", "set" or "object".
func (k ReprKind) String() string {
	if int(k) < len(reprKindNames) {
		return reprKindNames[k]
	}
	return "invalid"
}

// ReprNode is a Python repr parsed into a tree, so that a debugger can expand lists,
// tuples, dicts, sets and keyword-constructor objects. Nothing is evaluated: the tree
// is read off the text.
type ReprNode struct {
	Kind ReprKind
	// Text is the node's repr exactly as it appears in the parsed text.
	Text string
	// Type is the constructor name of an object ("Point") or "frozenset"; else "".
	Type  string
	Items []ReprItem
}

// ReprItem is one element of a container: Key is the key's repr in a dict, the field
// name in an object, and "" in a list, tuple or set.
type ReprItem struct {
	Key   string
	Value *ReprNode
}

// Expandable reports whether the node has elements to show (an empty container has
// none).
func (n *ReprNode) Expandable() bool { return n.Kind != ReprLeaf && len(n.Items) > 0 }

// maxReprDepth bounds the nesting the parser follows; deeper text is a leaf.
const maxReprDepth = 64

// ParseRepr parses the repr of a Python value. It never fails: anything it cannot read
// as a literal container (an object's own repr, a truncated repr ending in "...", text
// with unbalanced brackets) is returned as a single leaf holding the whole text.
func ParseRepr(s string) *ReprNode {
	text := strings.TrimSpace(s)
	leaf := &ReprNode{Kind: ReprLeaf, Text: text}
	if strings.HasSuffix(text, "...") {
		return leaf // truncated by the tracer's repr bound
	}
	p := reprParser{s: text}
	n, ok := p.value(0, "")
	p.space()
	if !ok || p.i != len(p.s) {
		return leaf
	}
	return n
}

// reprParser reads s from i; every method returns ok = false on text it cannot parse.
type reprParser struct {
	s string
	i int
}

func (p *reprParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *reprParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// value parses one value; stops are the bytes that end an atom at this level.
func (p *reprParser) value(depth int, stops string) (*ReprNode, bool) {
	if depth > maxReprDepth {
		return nil, false
	}
	p.space()
	start := p.i
	var n *ReprNode
	ok := true
	switch c := p.peek(); {
	case c == '[':
		p.i++
		n, ok = p.seq(depth, ']', ReprList)
	case c == '(':
		p.i++
		n, ok = p.seq(depth, ')', ReprTuple)
	case c == '{':
		p.i++
		n, ok = p.braces(depth)
	case c == '\'' || c == '"':
		ok = p.quoted()
		n = &ReprNode{Kind: ReprLeaf}
	case c == 0:
		return nil, false
	default:
		n, ok = p.atom(depth, stops)
	}
	if !ok {
		return nil, false
	}
	n.Text = p.s[start:p.i]
	return n, true
}

// seq parses the rest of a list or tuple after its opening bracket.
func (p *reprParser) seq(depth int, end byte, kind ReprKind) (*ReprNode, bool) {
	n := &ReprNode{Kind: kind}
	commas := 0
	for {
		p.space()
		if p.peek() == end {
			p.i++
			break
		}
		if len(n.Items) > commas {
			return nil, false // two values without a comma
		}
		v, ok := p.value(depth+1, ","+string(end))
		if !ok {
			return nil, false
		}
		n.Items = append(n.Items, ReprItem{Value: v})
		p.space()
		switch p.peek() {
		case ',':
			p.i++
			commas++
		case end:
		default:
			return nil, false
		}
	}
	if kind == ReprTuple && len(n.Items) == 1 && commas == 0 {
		return nil, false // (x) is not a tuple; Python's repr never writes it
	}
	return n, true
}

// braces parses the rest of a dict or a set after "{".
func (p *reprParser) braces(depth int) (*ReprNode, bool) {
	n := &ReprNode{Kind: ReprDict}
	for first := true; ; first = false {
		p.space()
		if p.peek() == '}' {
			p.i++
			return n, true
		}
		if !first {
			if p.peek() != ',' {
				return nil, false
			}
			p.i++
			p.space()
			if p.peek() == '}' {
				return nil, false // Python writes no trailing comma in a dict or set
			}
		}
		k, ok := p.value(depth+1, ",:}")
		if !ok {
			return nil, false
		}
		p.space()
		if first && p.peek() != ':' {
			n.Kind = ReprSet
		}
		if n.Kind == ReprSet {
			n.Items = append(n.Items, ReprItem{Value: k})
			continue
		}
		if p.peek() != ':' {
			return nil, false
		}
		p.i++
		v, ok := p.value(depth+1, ",}")
		if !ok {
			return nil, false
		}
		n.Items = append(n.Items, ReprItem{Key: k.Text, Value: v})
	}
}

// quoted skips a string literal starting at the quote under i.
func (p *reprParser) quoted() bool {
	q := p.s[p.i]
	for j := p.i + 1; j < len(p.s); j++ {
		switch p.s[j] {
		case '\\':
			j++
		case q:
			p.i = j + 1
			return true
		}
	}
	return false
}

// atom parses a value that is not a bracketed literal: a number, a name, a prefixed
// string (b'..'), an object's repr such as <Foo object> or Point(x=1, y=2). It ends at
// a top-level byte of stops.
func (p *reprParser) atom(depth int, stops string) (*ReprNode, bool) {
	start := p.i
	if p.peek() == '<' {
		return &ReprNode{Kind: ReprLeaf}, p.angles()
	}
	name := p.ident()
	if name != "" && p.peek() == '(' {
		return p.call(depth, name)
	}
	if name != "" && (p.peek() == '\'' || p.peek() == '"') && len(name) <= 2 {
		// A prefixed string literal: b'..', rb'..'.
		return &ReprNode{Kind: ReprLeaf}, p.quoted()
	}
	// Anything else up to a top-level stop: numbers, names, odd custom reprs.
	var closers []byte
	for p.i < len(p.s) {
		c := p.s[p.i]
		if len(closers) == 0 && strings.IndexByte(stops, c) >= 0 {
			break
		}
		switch c {
		case '(', '[', '{':
			closers = append(closers, map[byte]byte{'(': ')', '[': ']', '{': '}'}[c])
		case ')', ']', '}':
			if len(closers) == 0 || closers[len(closers)-1] != c {
				return nil, false
			}
			closers = closers[:len(closers)-1]
		case '\'', '"':
			if !p.quoted() {
				return nil, false
			}
			continue
		}
		p.i++
	}
	if len(closers) > 0 {
		return nil, false
	}
	if strings.TrimSpace(p.s[start:p.i]) == "" {
		return nil, false
	}
	// Drop trailing spaces from the atom's text (value() slices from start to p.i).
	for p.i > start && p.s[p.i-1] == ' ' {
		p.i--
	}
	return &ReprNode{Kind: ReprLeaf}, true
}

// angles skips a <...> repr, nesting included.
func (p *reprParser) angles() bool {
	depth := 0
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				p.i++
				return true
			}
		case '\'', '"':
			if !p.quoted() {
				return false
			}
			continue
		}
		p.i++
	}
	return false
}

// ident reads a dotted Python name at i, or returns "".
func (p *reprParser) ident() string {
	start := p.i
	for p.i < len(p.s) {
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		if r == '_' || r == '.' && p.i > start || isLetter(r) || p.i > start && r >= '0' && r <= '9' {
			p.i += size
			continue
		}
		break
	}
	return p.s[start:p.i]
}

func isLetter(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f && r != utf8.RuneError
}

// call parses Name(...) at "(": set() and frozenset({..}) are sets, Name(k=v, ...) is
// an object, anything else (positional arguments) is a leaf.
func (p *reprParser) call(depth int, name string) (*ReprNode, bool) {
	p.i++ // "("
	type arg struct {
		key string
		val *ReprNode
	}
	var args []arg
	for {
		p.space()
		if p.peek() == ')' {
			p.i++
			break
		}
		if len(args) > 0 {
			if p.peek() != ',' {
				return nil, false
			}
			p.i++
			p.space()
		}
		mark := p.i
		key := p.ident()
		if key == "" || p.peek() != '=' || strings.Contains(key, ".") {
			p.i, key = mark, ""
		} else {
			p.i++ // "="
		}
		v, ok := p.value(depth+1, ",)")
		if !ok {
			return nil, false
		}
		args = append(args, arg{key, v})
	}
	switch {
	case (name == "set" || name == "frozenset") && len(args) == 0:
		return &ReprNode{Kind: ReprSet, Type: typeName(name)}, true
	case name == "frozenset" && len(args) == 1 && args[0].key == "" && args[0].val.Kind == ReprSet:
		return &ReprNode{Kind: ReprSet, Type: name, Items: args[0].val.Items}, true
	}
	obj := &ReprNode{Kind: ReprObject, Type: name}
	for _, a := range args {
		if a.key == "" {
			return &ReprNode{Kind: ReprLeaf}, true
		}
		obj.Items = append(obj.Items, ReprItem{Key: a.key, Value: a.val})
	}
	if len(obj.Items) == 0 {
		return &ReprNode{Kind: ReprLeaf}, true
	}
	return obj, true
}

func typeName(name string) string {
	if name == "set" {
		return ""
	}
	return name
}

// Canonical returns the node written the way Python's repr would write it: containers
// with ", " and ": " separators, string literals in Python's quoting, other leaves as
// they are. Two reprs of equal literal values have the same canonical form.
func (n *ReprNode) Canonical() string {
	var b strings.Builder
	n.canonical(&b)
	return b.String()
}

func (n *ReprNode) canonical(b *strings.Builder) {
	open, close := "", ""
	switch n.Kind {
	case ReprLeaf:
		if s, ok := PyStringValue(n.Text); ok {
			b.WriteString(PyStringRepr(s))
		} else {
			b.WriteString(n.Text)
		}
		return
	case ReprList:
		open, close = "[", "]"
	case ReprTuple:
		open, close = "(", ")"
	case ReprDict:
		open, close = "{", "}"
	case ReprSet:
		if len(n.Items) == 0 {
			if n.Type == "" {
				b.WriteString("set()")
			} else {
				b.WriteString(n.Type + "()")
			}
			return
		}
		open, close = "{", "}"
		if n.Type != "" {
			open, close = n.Type+"({", "})"
		}
	case ReprObject:
		open, close = n.Type+"(", ")"
	}
	b.WriteString(open)
	for i, it := range n.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		switch n.Kind {
		case ReprDict:
			ParseRepr(it.Key).canonical(b)
			b.WriteString(": ")
		case ReprObject:
			b.WriteString(it.Key + "=")
		}
		it.Value.canonical(b)
	}
	if n.Kind == ReprTuple && len(n.Items) == 1 {
		b.WriteByte(',')
	}
	b.WriteString(close)
}
