package trace_test

import (
	"strings"
	"testing"

	"github.com/ndb-project/ndb/trace"
)

func TestDecodeSource(t *testing.T) {
	for _, c := range []struct{ name, raw, want string }{
		{"utf-8", "s = 'café'\n", "s = 'café'\n"},
		{"bom", "\xef\xbb\xbfs = 'café'\n", "s = 'café'\n"},
		{"latin-1", "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n", "# -*- coding: latin-1 -*-\ns = 'café'\n"},
		{"line 2", "#!/usr/bin/env python3\n# vim: set fileencoding=iso-8859-15 :\ns = '\xa4'\n", "#!/usr/bin/env python3\n# vim: set fileencoding=iso-8859-15 :\ns = '€'\n"},
		{"cp1252", "# coding=cp1252\ns = '\x80'\n", "# coding=cp1252\ns = '€'\n"},
		{"declaration after code is ignored", "x = 1\n# coding: latin-1\n", "x = 1\n# coding: latin-1\n"},
		{"empty", "", ""},
	} {
		got, err := trace.DecodeSource([]byte(c.raw))
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	for _, c := range []struct{ name, raw, want string }{
		{"latin-1 bytes without a declaration", "x = 1\ns = 'caf\xe9'\n", `Non-UTF-8 code starting with '\xe9' on line 2, but no encoding declared`},
		{"unknown encoding", "# coding: klingon\n", "unknown encoding on line 1: klingon"},
		{"ascii", "# coding: ascii\ns = 'caf\xe9'\n", "not valid ascii"},
		{"bom with latin-1", "\xef\xbb\xbf# coding: latin-1\n", "byte-order mark"},
	} {
		_, err := trace.DecodeSource([]byte(c.raw))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
