package synth

// Line and tab handling: splitlines on text joined or rebuilt with newlines, and
// expandtabs on text with tabs.

func init() {
	register(
		block{[]string{"to_lines", "line_list", "break_lines"}, kStrList, 2, strSplitLines},
		block{[]string{"lines_of", "rows_of", "split_rows"}, kStr, 2, strTextLines},
		block{[]string{"tab_align", "expand_tabs", "tabulate"}, kStrList, 2, strExpandTabs},
	)
}

// strSplitLines joins words into lines and reads them back.
func strSplitLines(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	g := f.g
	text := f.reserve([]string{"block", "doc", "body", "page"})
	out := f.result(kStrList, []string{"rows", "lines_out", "kept_lines"})
	f.line("%s = '\\n'.join(%s)", text, ws.name)
	if g.chance(0.5) {
		f.line("%s = %s.splitlines()[%d:]", out.name, text, g.between(0, 1))
		f.tag("slicing")
	} else {
		r := f.reserve([]string{"row", "ln", "entry"})
		f.line("%s = [%s for %s in %s.splitlines() if %s]", out.name, f.mapped(kStr, r), r, text, f.pred(kStr, r, ws))
		f.tag("comprehension")
	}
	f.tag("join", "splitlines")
	return out
}

// strTextLines turns separators into line breaks and splits on them.
func strTextLines(f *fn) *variable {
	s := f.use(kStr, flCSV)
	g := f.g
	out := f.result(kStrList, []string{"rows", "lines_found", "records"})
	f.line("%s = %s.replace(%s, '\\n').splitlines(%s)", out.name, s.name, g.str(g.sepFor(s)), pick(g, []string{"", "", "True"}))
	f.tag("replace", "splitlines")
	return out
}

// strExpandTabs joins words with tabs and expands them to columns.
func strExpandTabs(f *fn) *variable {
	ws := f.use(kStrList, flAny)
	g := f.g
	out := f.result(kStr, []string{"aligned", "columns_text", "padded_row"})
	if g.chance(0.5) {
		f.line("%s = '\\t'.join(%s).expandtabs(%d)", out.name, ws.name, g.between(2, 8))
	} else {
		w := f.reserve(strElemNames)
		f.line("%s = ''", out.name)
		f.line("for %s in %s:", w, ws.name)
		f.in()
		f.line("%s = (%s + %s + '\\t').expandtabs(%d)", out.name, out.name, w, g.between(3, 6))
		f.out()
		f.tag("loop", "for")
	}
	f.tag("join", "expandtabs")
	return out
}
