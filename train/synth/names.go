package synth

// Name pools. Every name here is a plausible identifier for the role; none shadows a
// built-in that the templates call. The pools are slices, never maps, so that choices
// are reproducible.

var (
	intNames     = []string{"n", "k", "count", "limit", "step", "base", "offset", "size", "target", "width", "depth", "start", "stop", "threshold", "num", "value", "shift", "factor", "idx", "pos", "level", "amount", "bound", "m", "x", "y", "low", "high", "cap", "budget", "rounds", "seed_value", "goal", "margin", "span", "code"}
	strNames     = []string{"text", "s", "word", "line", "name", "phrase", "label", "message", "token", "title", "sentence", "key", "pattern", "record", "entry", "raw", "note", "code_str", "header", "path", "query", "tag", "source", "content", "greeting", "motto", "slug"}
	charNames    = []string{"ch", "c", "char", "sep", "delim", "mark", "letter", "symbol", "pad", "glue", "marker", "fill"}
	intListNames = []string{"nums", "values", "items", "arr", "data", "scores", "numbers", "xs", "digits", "weights", "counts", "seq", "prices", "ages", "lst", "stack", "queue", "readings", "heights", "costs", "points", "steps", "marks", "sizes", "amounts", "ids", "grades", "temps", "levels", "ticks", "samples"}
	strListNames = []string{"words", "names", "parts", "tokens", "lines", "tags", "labels", "fruits", "colors", "cities", "entries", "keys_list", "terms", "titles", "codes", "animals", "chunks", "fields", "pieces", "items_str", "notes", "guests", "users"}
	dictNames    = []string{"counts", "freq", "mapping", "table", "index", "lookup", "inventory", "stock", "registry", "totals", "prices_by_name", "tally", "ledger", "scores_by_name", "catalog", "bank", "weights_by_key", "book", "stats", "limits"}
	setNames     = []string{"seen", "visited", "uniq", "pool", "allowed", "blocked", "picked", "taken", "present", "members", "chosen", "marked"}
	boolNames    = []string{"ok", "found", "valid", "done", "flag", "matched", "is_sorted", "balanced", "same", "changed", "has_digit", "good", "ready"}
	resultNames  = []string{"result", "out", "acc", "res", "answer", "buf", "collected", "kept", "output", "summary", "final", "merged", "built", "agg", "report", "picked_items"}
	otherNames   = []string{"groups", "pairs", "buckets", "grid", "rows", "chunks", "columns", "runs", "layers", "bins", "clusters", "windows"}

	intElemNames  = []string{"x", "v", "n", "num", "value", "item", "el", "d", "score", "p", "w", "t", "cur", "a"}
	strElemNames  = []string{"w", "word", "token", "part", "name", "item", "s", "t", "piece", "entry", "label", "chunk"}
	charElemNames = []string{"ch", "c", "char", "letter", "sym"}
	indexNames    = []string{"i", "j", "idx", "pos", "k", "at", "ix"}
)

// reserved holds Python keywords and the built-ins the templates use; local names and
// helper names avoid them.
var reserved = []string{
	"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
	"def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
	"in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
	"with", "yield", "abs", "all", "any", "bool", "chr", "dict", "divmod", "enumerate", "filter",
	"float", "int", "isinstance", "iter", "len", "list", "map", "max", "min", "next", "ord",
	"pow", "print", "range", "repr", "reversed", "round", "set", "sorted", "str", "sum", "tuple",
	"zip", "f", "type", "id", "input", "object", "format", "hash", "bin", "hex", "oct", "frozenset",
	"ValueError", "IndexError", "KeyError", "ZeroDivisionError", "TypeError", "Exception",
	"self", "cls",
}

func isReserved(name string) bool {
	for _, r := range reserved {
		if r == name {
			return true
		}
	}
	return false
}
