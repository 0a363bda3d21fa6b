package infer

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"
)

func TestConfigIsHuggingFacesLlamaConfig(t *testing.T) {
	cfg := tinyConfig()
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var hf map[string]any
	if err := json.Unmarshal(data, &hf); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"model_type": "llama", "hidden_size": 32.0, "intermediate_size": 80.0, "num_hidden_layers": 2.0,
		"num_attention_heads": 4.0, "num_key_value_heads": 2.0, "vocab_size": 61.0,
		"max_position_embeddings": 48.0, "rms_norm_eps": 1e-5, "rope_theta": 10000.0,
		"tie_word_embeddings": false, "torch_dtype": "float32", "bos_token_id": 1.0, "eos_token_id": 2.0,
		"hidden_act": "silu",
	}
	for k, v := range want {
		if hf[k] != v {
			t.Errorf("%s = %v, want %v", k, hf[k], v)
		}
	}
	if a, _ := hf["architectures"].([]any); len(a) != 1 || a[0] != "LlamaForCausalLM" {
		t.Errorf("architectures = %v", hf["architectures"])
	}

	path := filepath.Join(t.TempDir(), "config.json")
	if err := SaveConfig(cfg, path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if back != cfg.withDefaults() {
		t.Errorf("round trip gave %+v, want %+v", back, cfg.withDefaults())
	}
}

func TestConfigDefaultsAndRefusals(t *testing.T) {
	var c Config
	err := json.Unmarshal([]byte(`{"model_type":"llama","hidden_size":64,"intermediate_size":128,
		"num_hidden_layers":1,"num_attention_heads":4,"vocab_size":10,"max_position_embeddings":16}`), &c)
	if err != nil {
		t.Fatal(err)
	}
	if c.KVHeads != 4 || c.RopeTheta != 10000 || c.NormEps != 1e-6 || c.BOS != -1 || c.EOS != -1 {
		t.Errorf("defaults: %+v", c)
	}
	for _, bad := range []string{
		`{"model_type":"gpt2","hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,"num_attention_heads":4,"vocab_size":10,"max_position_embeddings":16}`,
		`{"hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,"num_attention_heads":4,"vocab_size":10,"max_position_embeddings":16,"attention_bias":true}`,
		`{"hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,"num_attention_heads":4,"vocab_size":10,"max_position_embeddings":16,"rope_scaling":{"type":"linear","factor":2}}`,
		`{"hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,"num_attention_heads":3,"vocab_size":10,"max_position_embeddings":16}`,
	} {
		if err := json.Unmarshal([]byte(bad), &c); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestHalfAndBFloat16(t *testing.T) {
	for _, c := range []struct {
		bits uint16
		want float32
	}{{0x3c00, 1}, {0xc000, -2}, {0x7bff, 65504}, {0x0001, 5.9604645e-08}, {0x3555, 0.33325195}, {0x8000, 0}} {
		if got := halfToFloat(c.bits); got != c.want {
			t.Errorf("halfToFloat(%#04x) = %g, want %g", c.bits, got, c.want)
		}
	}
	if !math.IsInf(float64(halfToFloat(0xfc00)), -1) || !math.IsNaN(float64(halfToFloat(0x7e00))) {
		t.Error("half infinities or NaN")
	}
	// 1.0, -2.5 as bf16 and as f16, through toF32.
	for _, c := range []struct {
		dtype string
		raw   []byte
	}{{"BF16", []byte{0x80, 0x3f, 0x20, 0xc0}}, {"F16", []byte{0x00, 0x3c, 0x00, 0xc1}}} {
		b, err := toF32(c.raw, c.dtype, 2)
		if err != nil {
			t.Fatal(err)
		}
		f := []float32{math.Float32frombits(le32(b[0:])), math.Float32frombits(le32(b[4:]))}
		if f[0] != 1 || f[1] != -2.5 {
			t.Errorf("%s: %v, want [1 -2.5]", c.dtype, f)
		}
	}
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
