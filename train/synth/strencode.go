package synth

// Bytes from strings: str.encode and what programs do with the bytes (their length,
// their sum, a few of them as ints).

func init() {
	register(
		block{[]string{"byte_sum", "checksum", "byte_weight"}, kStr, 2, strEncode},
	)
}

func strEncode(f *fn) *variable {
	s := f.use(kStr, flAny)
	g := f.g
	enc := pick(g, []string{"", "", "'utf-8'", "'ascii'"})
	switch g.intn(3) {
	case 0:
		out := f.result(kInt, []string{"check", "weight", "digest_value"})
		f.line("%s = sum(%s.encode(%s)) %% %d", out.name, s.name, enc, g.between(50, 256))
		f.tag("encode")
		return out
	case 1:
		out := f.result(kIntList, []string{"codes", "byte_values", "raw_bytes"})
		f.line("%s = list(%s.encode(%s))[:%d]", out.name, s.name, enc, g.between(2, 5))
		f.tag("encode", "slicing")
		return out
	}
	data := f.reserve([]string{"data", "raw", "payload", "blob"})
	out := f.result(kInt, []string{"size_bytes", "byte_count", "length_in_bytes"})
	f.line("%s = %s.encode(%s)", data, s.name, enc)
	f.line("%s = len(%s) + %s.count(%s)", out.name, data, data, pick(g, []string{"b'a'", "b' '", "b'e'", "b'0'"}))
	f.tag("encode")
	return out
}
