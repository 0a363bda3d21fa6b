package synth

// Small classes: an accumulator, a stack, a 2-D point with __add__, an inventory whose
// method raises, a range tracker and a bounded buffer. Every class defines __repr__,
// so the repr of an instance (in a trace's locals) has no memory address.

type classTemplate func(f *fn) *variable

var classTemplates = []classTemplate{classTally, classStack, classPoint, classInventory, classTracker, classBuffer}

// classBlock adds a class and code in f that uses it.
func (f *fn) classBlock() {
	f.produce(pick(f.g, classTemplates)(f))
	f.tag("class")
}

// defineClass adds the class definition lines (without the trailing blank line).
func (f *fn) defineClass(lines []string) {
	f.p.defs = append(f.p.defs, lines)
}

func classTally(f *fn) *variable {
	g := f.g
	xs := f.use(kIntList, flAny)
	start := f.use(kInt, flSmall)
	cls := f.p.globalName("Tally", "Accumulator", "Meter", "Counter")
	total, log := pick(g, []string{"total", "value", "level"}), pick(g, []string{"history", "seen", "log"})
	add := pick(g, []string{"add", "feed", "push_value", "record"})
	f.defineClass([]string{
		"class " + cls + ":",
		"    def __init__(self, start):",
		"        self." + total + " = start",
		"        self." + log + " = []",
		"",
		"    def " + add + "(self, amount):",
		"        self." + total + " += amount",
		"        self." + log + ".append(amount)",
		"        return self." + total,
		"",
		"    def __repr__(self):",
		"        return f'" + cls + "(" + total + "={self." + total + "})'",
	})
	obj := f.reserve([]string{"acc", "meter", "tally", "box"})
	x := f.reserve(intElemNames)
	f.line("%s = %s(%s)", obj, cls, start.name)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("if %s:", f.pred(kInt, x, xs))
	f.in()
	f.line("%s.%s(%s)", obj, add, x)
	f.out()
	f.out()
	out := f.result(kOther, []string{"summary", "state", "outcome"})
	f.line("%s = (%s.%s, len(%s.%s))", out.name, obj, total, obj, log)
	f.tag("loop", "for", "if", "tuple")
	return out
}

func classStack(f *fn) *variable {
	g := f.g
	s := f.use(kStr, flMixed)
	cls := f.p.globalName("Stack", "Pile", "LifoStack")
	push, pop := pick(g, []string{"push", "put"}), pick(g, []string{"pop", "take"})
	f.defineClass([]string{
		"class " + cls + ":",
		"    def __init__(self):",
		"        self.items = []",
		"",
		"    def " + push + "(self, item):",
		"        self.items.append(item)",
		"",
		"    def " + pop + "(self):",
		"        if not self.items:",
		"            return None",
		"        return self.items.pop()",
		"",
		"    def size(self):",
		"        return len(self.items)",
		"",
		"    def __repr__(self):",
		"        return f'" + cls + "({self.items!r})'",
	})
	obj := f.reserve([]string{"st", "stack", "pile"})
	c := f.reserve(charElemNames)
	f.line("%s = %s()", obj, cls)
	f.line("for %s in %s:", c, s.name)
	f.in()
	f.line("if %s:", f.charCond(c, s))
	f.in()
	f.line("%s.%s(%s)", obj, push, c)
	f.out()
	f.line("elif %s.size() > %d:", obj, g.between(0, 2))
	f.in()
	f.line("%s.%s()", obj, pop)
	f.out()
	f.out()
	out := f.result(kStr, []string{"remaining", "leftover", "stacked"})
	f.line("%s = ''.join(%s.items)", out.name, obj)
	f.tag("loop", "for", "if", "elif", "stack")
	return out
}

func classPoint(f *fn) *variable {
	g := f.g
	xs := f.use(kIntList, flAny)
	ys := f.useExcept(kIntList, flAny, xs)
	cls := f.p.globalName("Point", "Vec", "Pos")
	norm := pick(g, []string{"manhattan", "size", "norm1"})
	f.defineClass([]string{
		"class " + cls + ":",
		"    def __init__(self, x, y):",
		"        self.x = x",
		"        self.y = y",
		"",
		"    def __add__(self, other):",
		"        return " + cls + "(self.x + other.x, self.y + other.y)",
		"",
		"    def " + norm + "(self):",
		"        return abs(self.x) + abs(self.y)",
		"",
		"    def __repr__(self):",
		"        return f'" + cls + "({self.x}, {self.y})'",
	})
	acc := f.reserve([]string{"acc", "pos", "where"})
	a, b := f.reserve([]string{"a", "dx"}), f.reserve([]string{"b", "dy"})
	f.line("%s = %s(0, 0)", acc, cls)
	f.line("for %s, %s in zip(%s, %s):", a, b, xs.name, ys.name)
	f.in()
	f.line("%s = %s + %s(%s, -%s)", acc, acc, cls, a, b)
	f.out()
	out := f.result(kOther, []string{"where", "final_pos", "spot"})
	if g.chance(0.5) {
		f.line("%s = (%s.x, %s.y, %s.%s())", out.name, acc, acc, acc, norm)
		f.tag("tuple")
	} else {
		f.line("%s = %s.%s()", out.name, acc, norm)
	}
	f.tag("loop", "for", "zip", "unpacking", "dunder")
	return out
}

func classInventory(f *fn) *variable {
	g := f.g
	ws := f.use(kStrList, flAny)
	xs := f.use(kIntList, flPos)
	cls := f.p.globalName("Inventory", "Store", "Pantry")
	add, take := pick(g, []string{"add", "stock_up", "put"}), pick(g, []string{"take", "remove", "use"})
	f.defineClass([]string{
		"class " + cls + ":",
		"    def __init__(self):",
		"        self.stock = {}",
		"",
		"    def " + add + "(self, name, qty):",
		"        self.stock[name] = self.stock.get(name, 0) + qty",
		"",
		"    def " + take + "(self, name, qty):",
		"        have = self.stock.get(name, 0)",
		"        if have < qty:",
		"            raise ValueError('not enough ' + name)",
		"        self.stock[name] = have - qty",
		"        return have - qty",
		"",
		"    def __repr__(self):",
		"        return f'" + cls + "({self.stock})'",
	})
	inv := f.reserve([]string{"inv", "store", "shelf"})
	w, n := f.reserve(strElemNames), f.reserve(intElemNames)
	fails := f.reserve([]string{"failures", "short", "misses"})
	f.line("%s = %s()", inv, cls)
	f.line("for %s, %s in zip(%s, %s):", w, n, ws.name, xs.name)
	f.in()
	f.line("%s.%s(%s, %s)", inv, add, w, n)
	f.out()
	f.line("%s = 0", fails)
	f.line("for %s in %s[:%d]:", w, ws.name, g.between(2, 4))
	f.in()
	f.line("try:")
	f.in()
	f.line("%s.%s(%s, %d)", inv, take, w, g.threshold(xs))
	f.out()
	f.line("except ValueError:")
	f.in()
	f.line("%s += 1", fails)
	f.out()
	f.out()
	out := f.result(kOther, []string{"report", "state", "outcome"})
	f.line("%s = (%s.stock, %s)", out.name, inv, fails)
	f.tag("loop", "for", "zip", "unpacking", "try", "exception", "raise", "dict", "tuple")
	return out
}

func classTracker(f *fn) *variable {
	g := f.g
	xs := f.use(kIntList, flAny)
	cls := f.p.globalName("RangeTracker", "Bounds", "Extremes")
	upd := pick(g, []string{"update", "see", "observe"})
	f.defineClass([]string{
		"class " + cls + ":",
		"    def __init__(self):",
		"        self.low = None",
		"        self.high = None",
		"",
		"    def " + upd + "(self, value):",
		"        if self.low is None or value < self.low:",
		"            self.low = value",
		"        if self.high is None or value > self.high:",
		"            self.high = value",
		"",
		"    def span(self):",
		"        if self.low is None:",
		"            return 0",
		"        return self.high - self.low",
		"",
		"    def __repr__(self):",
		"        return f'" + cls + "({self.low}, {self.high})'",
	})
	obj := f.reserve([]string{"tracker", "rng", "bounds"})
	x := f.reserve(intElemNames)
	f.line("%s = %s()", obj, cls)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("%s.%s(%s)", obj, upd, f.mapped(kInt, x))
	f.out()
	out := f.result(kInt, []string{"width", "span", "range_size"})
	f.line("%s = %s.span()", out.name, obj)
	f.tag("loop", "for", "if")
	return out
}

func classBuffer(f *fn) *variable {
	g := f.g
	xs := f.use(kIntList, flAny)
	cls := f.p.globalName("RingBuffer", "Window", "Recent")
	capacity := g.between(2, 4)
	f.defineClass([]string{
		"class " + cls + ":",
		"    def __init__(self, capacity):",
		"        self.capacity = capacity",
		"        self.data = []",
		"",
		"    def push(self, item):",
		"        self.data.append(item)",
		"        if len(self.data) > self.capacity:",
		"            self.data.pop(0)",
		"",
		"    def average(self):",
		"        return sum(self.data) // len(self.data) if self.data else 0",
		"",
		"    def __repr__(self):",
		"        return f'" + cls + "({self.data})'",
	})
	buf := f.reserve([]string{"buf", "window", "recent"})
	x := f.reserve(intElemNames)
	out := f.result(kIntList, []string{"averages", "smoothed", "means"})
	f.line("%s = %s(%d)", buf, cls, capacity)
	f.line("%s = []", out.name)
	f.line("for %s in %s:", x, xs.name)
	f.in()
	f.line("%s.push(%s)", buf, x)
	f.line("%s.append(%s.average())", out.name, buf)
	f.out()
	f.tag("loop", "for", "append")
	return out
}
