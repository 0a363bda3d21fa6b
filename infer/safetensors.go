package infer

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
)

// The safetensors format: an 8-byte little-endian header length N, N bytes of JSON
// {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}
// (padded with spaces to a multiple of 8), then the raw little-endian data, offsets
// counted from its start.

// stEntry is one header entry.
type stEntry struct {
	Dtype   string   `json:"dtype"`
	Shape   []int64  `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// f32Tensor is a float32 tensor in Go memory, little-endian bytes.
type f32Tensor struct {
	shape []int64
	data  []byte // 4 bytes per element, little-endian
}

// writeSafetensors writes tensors in the order of names as F32 with metadata
// {"format": "pt"} (which transformers checks for).
func writeSafetensors(path string, names []string, tensors map[string]f32Tensor) error {
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var off int64
	for _, n := range names {
		t := tensors[n]
		end := off + int64(len(t.data))
		header[n] = stEntry{Dtype: "F32", Shape: nonNil(t.shape), Offsets: [2]int64{off, end}}
		off = end
	}
	h, err := json.Marshal(header)
	if err != nil {
		return err
	}
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(h)))
	_, err = f.Write(n[:])
	if err == nil {
		_, err = f.Write(h)
	}
	for _, name := range names {
		if err == nil {
			_, err = f.Write(tensors[name].data)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

func nonNil(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}

// readSafetensors reads every tensor of a safetensors file, converting F32, F16, BF16
// and F64 to float32.
func readSafetensors(path string) (map[string]f32Tensor, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(buf) < 8 {
		return nil, fmt.Errorf("%s: too short for safetensors", path)
	}
	hlen := binary.LittleEndian.Uint64(buf[:8])
	if hlen > uint64(len(buf)-8) {
		return nil, fmt.Errorf("%s: header length %d beyond the file's %d bytes", path, hlen, len(buf))
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(buf[8:8+hlen], &header); err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	data := buf[8+hlen:]
	out := make(map[string]f32Tensor, len(header))
	for name, raw := range header {
		if name == "__metadata__" {
			continue
		}
		var e stEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, name, err)
		}
		numel := int64(1)
		for _, d := range e.Shape {
			numel *= d
		}
		b, end := e.Offsets[0], e.Offsets[1]
		if b < 0 || end < b || end > int64(len(data)) {
			return nil, fmt.Errorf("%s: %s: data offsets %v outside %d bytes", path, name, e.Offsets, len(data))
		}
		t, err := toF32(data[b:end], e.Dtype, numel)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, name, err)
		}
		out[name] = f32Tensor{shape: nonNil(e.Shape), data: t}
	}
	return out, nil
}

// toF32 converts numel little-endian elements of dtype to float32 bytes.
func toF32(src []byte, dtype string, numel int64) ([]byte, error) {
	size := map[string]int64{"F32": 4, "F16": 2, "BF16": 2, "F64": 8}[dtype]
	if size == 0 {
		return nil, fmt.Errorf("dtype %s not supported (want F32, F16, BF16 or F64)", dtype)
	}
	if int64(len(src)) != numel*size {
		return nil, fmt.Errorf("%d bytes for %d elements of %s", len(src), numel, dtype)
	}
	if dtype == "F32" {
		return src, nil
	}
	dst := make([]byte, 4*numel)
	for i := int64(0); i < numel; i++ {
		var f float32
		switch dtype {
		case "F16":
			f = halfToFloat(binary.LittleEndian.Uint16(src[2*i:]))
		case "BF16":
			f = math.Float32frombits(uint32(binary.LittleEndian.Uint16(src[2*i:])) << 16)
		case "F64":
			f = float32(math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:])))
		}
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(f))
	}
	return dst, nil
}

// halfToFloat converts IEEE 754 binary16 bits to a float32.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0: // ±0
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac · 2^-24
		f := float32(frac) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}

// floatsToBytes encodes float32s little-endian.
func floatsToBytes(f []float32) []byte {
	b := make([]byte, 4*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
