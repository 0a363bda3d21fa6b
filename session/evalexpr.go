package session

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ndb-project/ndb/grammar"
)

// Eval evaluates a small expression language over a frame's locals, on their
// reprs alone: nothing of the program is run, so it answers the same in every mode
// and every front end. env gives a name's repr.
//
//	names                  a local of the frame (True, False, None are literals)
//	literals               numbers, 'strings', [lists], (tuples,), {dicts: ...}, {sets}
//	x.f   x[i]   d[k]      a field of a keyword object (Point(x=1)), an element of a
//	                       list, tuple or string (negative indexes too), a dict's value
//	len(x)   -x            length; negation of a number
//	== != < <= > >= in, not in, not, and, or
//
// Values are reprs (grammar.ReprNode); the result is one too.
func Eval(expr string, env func(name string) (string, bool)) (*grammar.ReprNode, error) {
	toks, err := tokenize(expr)
	if err != nil {
		return nil, err
	}
	p := &exprParser{toks: toks, env: env, built: map[*grammar.ReprNode]bool{}}
	v, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q", p.toks[p.i].text)
	}
	return v, nil
}

// ExprPath is an expression as the prefix of its elements' evaluateNames: wrapped in
// parentheses unless it is a name with fields and indexes; "" when it does not
// tokenize.
func ExprPath(expr string) string {
	toks, err := tokenize(expr)
	if err != nil {
		return ""
	}
	for _, t := range toks {
		if t.kind == tokOp && t.text != "." && t.text != "[" && t.text != "]" || t.kind == tokName && (t.text == "and" || t.text == "or" || t.text == "not" || t.text == "in") {
			return "(" + expr + ")"
		}
	}
	return expr
}

// maxExprDepth bounds the nesting of an expression.
const maxExprDepth = 64

type tokKind uint8

const (
	tokName tokKind = iota + 1
	tokNumber
	tokString
	tokOp
)

type token struct {
	kind tokKind
	text string
}

func tokenize(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80 && r != utf8.RuneError {
					j += n
					continue
				}
				break
			}
			if j == i {
				return nil, fmt.Errorf("unexpected byte %q", c)
			}
			toks = append(toks, token{tokName, s[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == '_' || s[j] == 'e' || s[j] == 'E' ||
				(s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			toks = append(toks, token{tokNumber, s[i:j]})
			i = j
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated string")
			}
			toks = append(toks, token{tokString, s[i : j+1]})
			i = j + 1
		default:
			op := ""
			for _, o := range []string{"==", "!=", "<=", ">=", "<", ">", "(", ")", "[", "]", "{", "}", ".", ",", ":", "-"} {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return nil, fmt.Errorf("unsupported character %q (ndb evaluates names, literals, indexing, len and comparisons, without running the program)", c)
			}
			toks = append(toks, token{tokOp, op})
			i += len(op)
		}
	}
	return toks, nil
}

type exprParser struct {
	toks []token
	i    int
	env  func(string) (string, bool)
	// built marks the literal containers this parser made: their Text is their
	// canonical repr already (see canonicalText).
	built map[*grammar.ReprNode]bool
}

func (p *exprParser) peek(text string) bool {
	return p.i < len(p.toks) && p.toks[p.i].text == text && p.toks[p.i].kind != tokString
}

func (p *exprParser) accept(text string) bool {
	if p.peek(text) {
		p.i++
		return true
	}
	return false
}

func (p *exprParser) expect(text string) error {
	if p.accept(text) {
		return nil
	}
	if p.i >= len(p.toks) {
		return fmt.Errorf("expected %q at the end", text)
	}
	return fmt.Errorf("expected %q, found %q", text, p.toks[p.i].text)
}

func (p *exprParser) or(d int) (*grammar.ReprNode, error) {
	if d > maxExprDepth {
		return nil, fmt.Errorf("the expression is nested too deeply")
	}
	v, err := p.and(d)
	for err == nil && p.accept("or") {
		var w *grammar.ReprNode
		if w, err = p.and(d); err == nil && !truthy(v) {
			v = w
		}
	}
	return v, err
}

func (p *exprParser) and(d int) (*grammar.ReprNode, error) {
	v, err := p.not(d)
	for err == nil && p.accept("and") {
		var w *grammar.ReprNode
		if w, err = p.not(d); err == nil && truthy(v) {
			v = w
		}
	}
	return v, err
}

func (p *exprParser) not(d int) (*grammar.ReprNode, error) {
	if p.accept("not") {
		if d > maxExprDepth {
			return nil, fmt.Errorf("the expression is nested too deeply")
		}
		v, err := p.not(d + 1)
		if err != nil {
			return nil, err
		}
		return boolNode(!truthy(v)), nil
	}
	return p.comparison(d)
}

func (p *exprParser) comparison(d int) (*grammar.ReprNode, error) {
	v, err := p.unary(d)
	if err != nil {
		return nil, err
	}
	op := p.compareOp()
	if op == "" {
		return v, nil
	}
	// A chain (a < b < c) holds when every comparison does, as in Python.
	result := true
	for op != "" {
		w, err := p.unary(d)
		if err != nil {
			return nil, err
		}
		if result {
			if result, err = compare(op, v, w); err != nil {
				return nil, err
			}
		}
		v, op = w, p.compareOp()
	}
	return boolNode(result), nil
}

// compareOp consumes a comparison operator, or returns "".
func (p *exprParser) compareOp() string {
	if p.i >= len(p.toks) {
		return ""
	}
	t := p.toks[p.i]
	switch {
	case t.kind == tokOp && isCompareOp(t.text):
		p.i++
		return t.text
	case t.kind == tokName && t.text == "in":
		p.i++
		return "in"
	case t.kind == tokName && t.text == "not" && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tokName && p.toks[p.i+1].text == "in":
		p.i += 2
		return "not in"
	}
	return ""
}

func isCompareOp(s string) bool {
	switch s {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func (p *exprParser) unary(d int) (*grammar.ReprNode, error) {
	if p.accept("-") {
		if d > maxExprDepth {
			return nil, fmt.Errorf("the expression is nested too deeply")
		}
		v, err := p.unary(d + 1)
		if err != nil {
			return nil, err
		}
		if i, ok := asInt(v); ok && i != math.MinInt64 {
			return leaf(strconv.FormatInt(-i, 10)), nil
		}
		if f, ok := asFloat(v); ok {
			return leaf(strconv.FormatFloat(-f, 'g', -1, 64)), nil
		}
		return nil, fmt.Errorf("cannot negate %s", describe(v))
	}
	return p.postfix(d)
}

func (p *exprParser) postfix(d int) (*grammar.ReprNode, error) {
	v, err := p.primary(d)
	for err == nil {
		switch {
		case p.accept("."):
			if p.i >= len(p.toks) || p.toks[p.i].kind != tokName {
				return nil, fmt.Errorf("expected a field name after \".\"")
			}
			v, err = field(v, p.toks[p.i].text)
			p.i++
		case p.accept("["):
			var k *grammar.ReprNode
			if k, err = p.or(d + 1); err == nil {
				if err = p.expect("]"); err == nil {
					v, err = index(v, k)
				}
			}
		default:
			return v, nil
		}
	}
	return nil, err
}

func (p *exprParser) primary(d int) (*grammar.ReprNode, error) {
	if d > maxExprDepth {
		return nil, fmt.Errorf("the expression is nested too deeply")
	}
	if p.i >= len(p.toks) {
		return nil, fmt.Errorf("the expression ends too early")
	}
	t := p.toks[p.i]
	p.i++
	switch t.kind {
	case tokNumber:
		if _, err := strconv.ParseFloat(strings.ReplaceAll(t.text, "_", ""), 64); err != nil {
			return nil, fmt.Errorf("bad number %q", t.text)
		}
		return leaf(strings.ReplaceAll(t.text, "_", "")), nil
	case tokString:
		s, ok := grammar.PyStringValue(t.text)
		if !ok {
			return nil, fmt.Errorf("bad string literal %s", t.text)
		}
		return leaf(grammar.PyStringRepr(s)), nil
	case tokName:
		if t.text == "len" && p.accept("(") {
			v, err := p.or(d + 1)
			if err != nil {
				return nil, err
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			return length(v)
		}
		if repr, ok := p.env(t.text); ok {
			return grammar.ParseRepr(repr), nil
		}
		switch t.text {
		case "True", "False", "None":
			return leaf(t.text), nil
		}
		return nil, fmt.Errorf("name %q is not a local of this frame", t.text)
	}
	switch t.text {
	case "(":
		return p.container(d, ")", grammar.ReprTuple)
	case "[":
		return p.container(d, "]", grammar.ReprList)
	case "{":
		return p.container(d, "}", grammar.ReprDict)
	}
	return nil, fmt.Errorf("unexpected %q", t.text)
}

// container parses a literal list, tuple, dict or set after its opening bracket.
func (p *exprParser) container(d int, end string, kind grammar.ReprKind) (*grammar.ReprNode, error) {
	n := &grammar.ReprNode{Kind: kind}
	commas := 0
	for !p.accept(end) {
		if len(n.Items) > commas {
			if err := p.expect(","); err != nil {
				return nil, err
			}
			commas++
			if p.accept(end) {
				break
			}
		}
		v, err := p.or(d + 1)
		if err != nil {
			return nil, err
		}
		it := grammar.ReprItem{Value: v}
		if kind == grammar.ReprDict || kind == grammar.ReprSet {
			if len(n.Items) == 0 && !p.peek(":") {
				kind, n.Kind = grammar.ReprSet, grammar.ReprSet
			}
			if kind == grammar.ReprDict {
				if err := p.expect(":"); err != nil {
					return nil, err
				}
				w, err := p.or(d + 1)
				if err != nil {
					return nil, err
				}
				it = grammar.ReprItem{Key: p.canonicalText(v), Value: w}
			}
		}
		n.Items = append(n.Items, it)
	}
	if kind == grammar.ReprTuple && len(n.Items) == 1 && commas == 0 {
		return n.Items[0].Value, nil // (x) is x
	}
	n.Text = p.literalText(n)
	p.built[n] = true
	return n, nil
}

// canonicalText is v's canonical repr. A literal container this parser built
// carries it as its Text, so that a literal nested d deep costs O(d * size), not
// a re-parse of every dict key at every level: grammar's Canonical re-parses keys,
// and calling it at each level made 60 nested dict keys take ~100 ms (found by
// fuzzwatch; kept as a seed of FuzzEvalExpr).
func (p *exprParser) canonicalText(v *grammar.ReprNode) string {
	if p.built[v] {
		return v.Text
	}
	return v.Canonical()
}

// literalText writes a literal container the way grammar's Canonical does, from
// its items' canonical texts.
func (p *exprParser) literalText(n *grammar.ReprNode) string {
	open, close := "[", "]"
	switch n.Kind {
	case grammar.ReprTuple:
		open, close = "(", ")"
	case grammar.ReprDict, grammar.ReprSet:
		open, close = "{", "}"
	}
	var b strings.Builder
	b.WriteString(open)
	for i, it := range n.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		if n.Kind == grammar.ReprDict {
			b.WriteString(it.Key)
			b.WriteString(": ")
		}
		b.WriteString(p.canonicalText(it.Value))
	}
	if n.Kind == grammar.ReprTuple && len(n.Items) == 1 {
		b.WriteByte(',')
	}
	b.WriteString(close)
	return b.String()
}
