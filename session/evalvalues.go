package session

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ndb-project/ndb/grammar"
)

// The operations of Eval on values, which are reprs.

func leaf(text string) *grammar.ReprNode {
	return &grammar.ReprNode{Kind: grammar.ReprLeaf, Text: text}
}

func boolNode(b bool) *grammar.ReprNode {
	if b {
		return leaf("True")
	}
	return leaf("False")
}

// describe names a value in an error message.
func describe(v *grammar.ReprNode) string {
	t := v.Text
	if len(t) > 40 {
		t = t[:40] + "..."
	}
	if strings.HasSuffix(v.Text, "...") {
		return t + " (a truncated repr: the rest of the value is not known)"
	}
	return t
}

func asInt(v *grammar.ReprNode) (int64, bool) {
	if v.Kind != grammar.ReprLeaf {
		return 0, false
	}
	switch v.Text {
	case "True":
		return 1, true
	case "False":
		return 0, true
	}
	i, err := strconv.ParseInt(v.Text, 10, 64)
	return i, err == nil
}

func asFloat(v *grammar.ReprNode) (float64, bool) {
	if i, ok := asInt(v); ok {
		return float64(i), true
	}
	if v.Kind != grammar.ReprLeaf {
		return 0, false
	}
	switch v.Text {
	case "inf":
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	if v.Text == "" || v.Text[0] == '\'' || v.Text[0] == '"' {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Text, 64)
	return f, err == nil
}

func truthy(v *grammar.ReprNode) bool {
	if v.Kind != grammar.ReprLeaf {
		return len(v.Items) > 0
	}
	if f, ok := asFloat(v); ok {
		return f != 0
	}
	if s, ok := grammar.PyStringValue(v.Text); ok {
		return s != ""
	}
	return v.Text != "None"
}

// equal compares two values: numbers by value, anything else by canonical repr.
func equal(a, b *grammar.ReprNode) bool {
	if x, ok := asFloat(a); ok {
		if y, ok := asFloat(b); ok {
			return x == y
		}
	}
	return a.Canonical() == b.Canonical()
}

func compare(op string, a, b *grammar.ReprNode) (bool, error) {
	switch op {
	case "==":
		return equal(a, b), nil
	case "!=":
		return !equal(a, b), nil
	case "in", "not in":
		in, err := contains(b, a)
		return in == (op == "in"), err
	}
	var c int
	if x, ok := asFloat(a); ok {
		y, ok := asFloat(b)
		if !ok {
			return false, fmt.Errorf("cannot compare %s with %s", describe(a), describe(b))
		}
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		case x != y:
			return false, nil // nan
		}
	} else if x, ok := grammar.PyStringValue(a.Text); ok && a.Kind == grammar.ReprLeaf {
		y, ok := grammar.PyStringValue(b.Text)
		if !ok || b.Kind != grammar.ReprLeaf {
			return false, fmt.Errorf("cannot compare %s with %s", describe(a), describe(b))
		}
		c = strings.Compare(x, y)
	} else {
		return false, fmt.Errorf("ndb compares numbers and strings only, not %s", describe(a))
	}
	switch op {
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}

func contains(container, x *grammar.ReprNode) (bool, error) {
	switch container.Kind {
	case grammar.ReprList, grammar.ReprTuple, grammar.ReprSet:
		for _, it := range container.Items {
			if equal(it.Value, x) {
				return true, nil
			}
		}
		return false, nil
	case grammar.ReprDict:
		for _, it := range container.Items {
			if equal(grammar.ParseRepr(it.Key), x) {
				return true, nil
			}
		}
		return false, nil
	}
	if s, ok := grammar.PyStringValue(container.Text); ok {
		sub, ok := grammar.PyStringValue(x.Text)
		if !ok || x.Kind != grammar.ReprLeaf {
			return false, fmt.Errorf("'in <string>' needs a string on the left, not %s", describe(x))
		}
		return strings.Contains(s, sub), nil
	}
	return false, fmt.Errorf("%s is not a container ndb can look into", describe(container))
}

func field(v *grammar.ReprNode, name string) (*grammar.ReprNode, error) {
	if v.Kind == grammar.ReprObject {
		for _, it := range v.Items {
			if it.Key == name {
				return it.Value, nil
			}
		}
	}
	return nil, fmt.Errorf("%s has no field %q that its repr shows", describe(v), name)
}

func index(v, k *grammar.ReprNode) (*grammar.ReprNode, error) {
	switch v.Kind {
	case grammar.ReprList, grammar.ReprTuple:
		i, ok := asInt(k)
		if !ok {
			return nil, fmt.Errorf("indexes must be integers, not %s", describe(k))
		}
		n := int64(len(v.Items))
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return nil, fmt.Errorf("index %s out of range (length %d)", k.Text, n)
		}
		return v.Items[i].Value, nil
	case grammar.ReprDict:
		for _, it := range v.Items {
			if equal(grammar.ParseRepr(it.Key), k) {
				return it.Value, nil
			}
		}
		return nil, fmt.Errorf("key %s is not in the dict", describe(k))
	}
	if s, ok := grammar.PyStringValue(v.Text); ok {
		i, ok := asInt(k)
		if !ok {
			return nil, fmt.Errorf("string indexes must be integers, not %s", describe(k))
		}
		rs := []rune(s)
		n := int64(len(rs))
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return nil, fmt.Errorf("string index %s out of range (length %d)", k.Text, n)
		}
		return leaf(grammar.PyStringRepr(string(rs[i]))), nil
	}
	return nil, fmt.Errorf("%s cannot be indexed here", describe(v))
}

func length(v *grammar.ReprNode) (*grammar.ReprNode, error) {
	if v.Kind != grammar.ReprLeaf && v.Kind != grammar.ReprObject {
		return leaf(strconv.Itoa(len(v.Items))), nil
	}
	if s, ok := grammar.PyStringValue(v.Text); ok {
		return leaf(strconv.Itoa(utf8.RuneCountInString(s))), nil
	}
	return nil, fmt.Errorf("the length of %s is not known from its repr", describe(v))
}
