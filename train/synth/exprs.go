package synth

import (
	"fmt"
	"strconv"
)

// Element-level expressions: conditions and transforms of one int, char or word. They
// never raise for any value of their kind. src, when not nil, is the collection the
// element comes from; its known value steers the constants (see threshold).

func itoa(n int) string { return strconv.Itoa(n) }

// intCond returns a condition on the int expression x.
func (f *fn) intCond(x string, src *variable) string {
	g := f.g
	k := g.threshold(orNil(src))
	var c string
	switch g.intn(12) {
	case 0, 1:
		c = fmt.Sprintf("%s > %d", x, k)
	case 2:
		c = fmt.Sprintf("%s < %d", x, k)
	case 3:
		m := g.between(3, 5)
		c = fmt.Sprintf("%s %% %d == %d", x, m, g.intn(m))
	case 4:
		c = fmt.Sprintf("%s %% 2 == %d", x, g.intn(2))
	case 5:
		c = fmt.Sprintf("%s >= %d", x, k)
	case 6:
		c = fmt.Sprintf("%s != %d", x, k)
	case 7:
		c = fmt.Sprintf("%d <= %s <= %d", k-g.between(0, 3), x, k+g.between(2, 8))
	case 8:
		c = fmt.Sprintf("%s in (%d, %d, %d)", x, g.elemFor(orNil(src)), g.between(0, 9), g.elemFor(orNil(src)))
	case 9:
		c = fmt.Sprintf("abs(%s - %d) <= %d", x, k, g.between(1, 4))
	case 10:
		c = fmt.Sprintf("%s * %d > %d", x, g.between(2, 3), k+g.between(0, 10))
	default:
		c = fmt.Sprintf("%s <= %d", x, k)
	}
	if g.chance(0.08) {
		c = fmt.Sprintf("%s and %s %% 2 == 0", c, x)
	} else if g.chance(0.05) {
		c = "not " + c
	}
	return c
}

// charCond returns a condition on the one-character expression c.
func (f *fn) charCond(c string, src *variable) string {
	g := f.g
	switch g.intn(16) {
	case 13:
		return c + ".isdecimal()"
	case 14:
		return c + ".isnumeric()"
	case 15:
		return fmt.Sprintf("%s.isascii() and %s.isalpha()", c, c)
	case 0, 1:
		return c + ".isdigit()"
	case 2:
		return c + ".isalpha()"
	case 3, 4:
		return fmt.Sprintf("%s in %s", c, g.str(pick(g, []string{"aeiou", "aeiouAEIOU", "xyz", "abc", "0123456789", ",.;:", "rst", "mno"})))
	case 5:
		return fmt.Sprintf("%s == %s", c, g.str(g.charFor(orNil(src))))
	case 6:
		return c + ".isupper()"
	case 7:
		return c + ".islower()"
	case 8:
		return c + ".isspace()"
	case 9:
		return fmt.Sprintf("%s not in %s", c, g.str(pick(g, []string{"aeiou", " -", "xyz", "0123"})))
	case 10:
		return c + ".isalnum()"
	case 11:
		return fmt.Sprintf("%s >= %s", c, g.str(pick(g, []string{"a", "m", "n", "t", "A", "5"})))
	}
	return fmt.Sprintf("%s != %s", c, g.str(g.charFor(orNil(src))))
}

// wordCond returns a condition on the str expression w.
func (f *fn) wordCond(w string, src *variable) string {
	g := f.g
	word := g.wordFor(orNil(src))
	switch g.intn(16) {
	case 13:
		return w + ".istitle()"
	case 14:
		return w + ".isdecimal()"
	case 15:
		return w + ".isnumeric()"
	case 0, 1:
		return fmt.Sprintf("%s.startswith(%s)", w, g.str(prefixOf(g, word)))
	case 2:
		return fmt.Sprintf("%s.endswith(%s)", w, g.str(word[max(0, len(word)-g.between(1, 2)):]))
	case 3, 4:
		return fmt.Sprintf("len(%s) > %d", w, g.threshold(orNil(src)))
	case 5:
		return w + ".isalpha()"
	case 6:
		return w + ".isdigit()"
	case 7:
		return fmt.Sprintf("%s == %s[::-1]", w, w)
	case 8:
		return fmt.Sprintf("%s in %s", g.str(g.charFor(orNil(src))), w)
	case 9:
		return w + ".islower()"
	case 10:
		return fmt.Sprintf("%s.count(%s) >= %d", w, g.str(g.charFor(orNil(src))), g.between(1, 2))
	case 11:
		return fmt.Sprintf("%s[:1].isupper()", w)
	}
	return fmt.Sprintf("len(%s) <= %d", w, g.between(2, 5))
}

func prefixOf(g *Generator, w string) string {
	if w == "" {
		return "a"
	}
	return w[:min(len(w), g.between(1, 2))]
}

func orNil(v *variable) *variable {
	if v == nil {
		return &variable{}
	}
	return v
}

// intMap returns an int expression computed from the int expression x.
func (f *fn) intMap(x string) string {
	g := f.g
	k := g.between(1, 9)
	switch g.intn(15) {
	case 14:
		return fmt.Sprintf("%s ** 2", x)
	case 0:
		return fmt.Sprintf("%s * %d", x, g.between(2, 4))
	case 1:
		return fmt.Sprintf("%s + %d", x, k)
	case 2:
		return fmt.Sprintf("%s - %d", x, k)
	case 3:
		return fmt.Sprintf("%s // %d", x, g.between(2, 4))
	case 4:
		return fmt.Sprintf("%s %% %d", x, g.between(2, 7))
	case 5:
		return fmt.Sprintf("abs(%s - %d)", x, k)
	case 6:
		return fmt.Sprintf("%s * %s", x, x)
	case 7:
		return "-" + x
	case 8:
		return fmt.Sprintf("(%s + %d) %% %d", x, k, g.between(5, 11))
	case 9:
		return fmt.Sprintf("max(%s, %d)", x, k)
	case 10:
		return fmt.Sprintf("min(%s, %d)", x, k)
	case 11:
		return fmt.Sprintf("%s // 2 if %s %% 2 == 0 else %s * 3 + 1", x, x, x)
	case 12:
		return fmt.Sprintf("%s * 10 + %d", x, k)
	}
	return fmt.Sprintf("%s - %s %% %d", x, x, g.between(2, 5))
}

// wordMap returns a str expression computed from the str expression w.
func (f *fn) wordMap(w string) string {
	g := f.g
	switch g.intn(15) {
	case 0:
		return w + ".upper()"
	case 1:
		return w + "[::-1]"
	case 2:
		return w + ".capitalize()"
	case 3:
		return fmt.Sprintf("%s + %s", w, g.str(pick(g, []string{"!", "s", "_x", "-", "ed", "?"})))
	case 4:
		return fmt.Sprintf("%s[:%d]", w, g.between(1, 4))
	case 5:
		return fmt.Sprintf("%s.replace(%s, %s)", w, g.str(g.charFor(&variable{})), g.str(pick(g, []string{"", "*", "0", "_", "ee"})))
	case 6:
		return w + " * 2"
	case 7:
		return w + ".title()"
	case 8:
		return fmt.Sprintf("%s.center(%d, %s)", w, g.between(3, 9), g.str(pick(g, []string{"*", "-", ".", "="})))
	case 9:
		return fmt.Sprintf("%s.zfill(%d)", w, g.between(3, 7))
	case 10:
		return w + ".swapcase()"
	case 11:
		return fmt.Sprintf("%s.strip(%s)", w, g.str(pick(g, []string{"a", "e", "xy", "s", "o"})))
	case 12:
		return fmt.Sprintf("%s[1:] + %s[:1]", w, w)
	case 13:
		return fmt.Sprintf("%s.ljust(%d, %s)", w, g.between(3, 8), g.str(pick(g, []string{".", "_", "~"})))
	}
	return w + ".lower()"
}

// charMap returns a str expression computed from the one-character expression c.
func (f *fn) charMap(c string) string {
	g := f.g
	switch g.intn(8) {
	case 0:
		return c + ".upper()"
	case 1:
		return c + ".swapcase()"
	case 2:
		return c + " * 2"
	case 3:
		return fmt.Sprintf("chr(ord(%s) + %d)", c, g.between(1, 3))
	case 4:
		return fmt.Sprintf("%s if %s.isalpha() else %s", c, c, g.str(pick(g, []string{"_", "", "#", "."})))
	case 5:
		return fmt.Sprintf("%s if %s.isdigit() else %s", g.str(pick(g, []string{"#", "*", "9"})), c, c)
	case 6:
		return fmt.Sprintf("%s.lower() if %s.isupper() else %s.upper()", c, c, c)
	}
	return fmt.Sprintf("%s + %s", c, g.str(pick(g, []string{"-", ".", " "})))
}

// Predicates and transforms as helpers: with some probability the element-level
// expression becomes a small function of its own, called from the template. It may
// span several lines and call a further helper, so calls nest.

var (
	predNames  = []string{"is_big", "is_valid", "keep_item", "accept", "qualifies", "is_special", "should_keep", "passes", "is_good", "matches", "is_wanted", "is_target", "is_marked", "looks_ok", "allowed_item", "is_interesting", "fits_rule", "check_item"}
	transNames = []string{"adjust", "transform", "scale", "convert", "normalize_value", "bump", "tweak", "reshape", "encode_value", "rescale", "clean", "decorate", "mangle", "remap", "polish", "project", "step_value", "refine"}
)

// helperBudget reports whether another helper may be added here.
func (f *fn) helperBudget() bool { return f.p.helpers < 3 && f.depth < 2 }

// pred returns a condition on element x of kind k, possibly as a call of a new helper.
func (f *fn) pred(k kind, x string, src *variable) string {
	if f.helperBudget() && f.g.chance(0.12) {
		return f.predHelper(k, x, src)
	}
	return f.cond(k, x, src)
}

func (f *fn) cond(k kind, x string, src *variable) string {
	switch k {
	case kInt:
		return f.intCond(x, src)
	case kChar:
		return f.charCond(x, src)
	}
	return f.wordCond(x, src)
}

func (f *fn) elemMap(k kind, x string) string {
	switch k {
	case kInt:
		return f.intMap(x)
	case kChar:
		return f.charMap(x)
	}
	return f.wordMap(x)
}

func elemPool(k kind) []string {
	switch k {
	case kInt:
		return intElemNames
	case kChar:
		return charElemNames
	}
	return strElemNames
}

// freeHelper starts a helper with one parameter of kind k, called with explicit
// arguments rather than through use.
func (f *fn) freeHelper(names []string, k kind, src *variable) (*fn, *variable) {
	h := newFn(f.p, f.p.globalName(names...), nil)
	h.depth = f.depth + 1
	f.p.helpers++
	f.tag("helper")
	if f.depth > 0 {
		f.tag("nested-call")
	}
	pv := &variable{name: pick(f.g, elemPool(k)), k: k, param: true, ready: true}
	f.p.useLocal(pv.name)
	if src != nil {
		pv.val = nil
	}
	h.params = append(h.params, pv)
	h.vars = append(h.vars, pv)
	return h, pv
}

func (f *fn) predHelper(k kind, x string, src *variable) string {
	h, pv := f.freeHelper(predNames, k, src)
	switch f.g.intn(3) {
	case 0:
		h.line("return %s", h.cond(k, pv.name, src))
	case 1:
		h.line("if %s:", h.cond(k, pv.name, src))
		h.in()
		h.line("return %s", pick(f.g, []string{"True", "False"}))
		h.out()
		h.line("return %s", h.cond(k, pv.name, src))
		f.tag("if")
	default:
		// The predicate applies a transform first, maybe through another helper.
		t := h.mapped(k, pv.name)
		v := h.local(k, []string{"shaped", "mapped", "val", "tmp", "probe"})
		h.line("%s = %s", v.name, t)
		h.line("return %s", h.cond(k, v.name, nil))
	}
	f.p.define(h)
	return fmt.Sprintf("%s(%s)", h.name, x)
}

// mapped returns a transform of element x of kind k, possibly as a call of a helper.
func (f *fn) mapped(k kind, x string) string {
	if f.helperBudget() && f.g.chance(0.12) {
		h, pv := f.freeHelper(transNames, k, nil)
		if f.g.chance(0.5) {
			h.line("if %s:", h.cond(k, pv.name, nil))
			h.in()
			h.line("return %s", h.elemMap(k, pv.name))
			h.out()
			h.tag("if")
		}
		h.line("return %s", h.elemMap(k, pv.name))
		f.p.define(h)
		return fmt.Sprintf("%s(%s)", h.name, x)
	}
	return f.elemMap(k, x)
}
