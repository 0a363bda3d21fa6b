package infer

import (
	"encoding/json"
	"fmt"
	"os"
)

// Config is the shape of a model. It is saved in a checkpoint as Hugging Face's
// LlamaForCausalLM config.json, so transformers can load our checkpoints and we can
// load theirs.
type Config struct {
	VocabSize     int     // vocab_size
	Dim           int     // hidden_size: width of the residual stream
	Layers        int     // num_hidden_layers
	Heads         int     // num_attention_heads
	KVHeads       int     // num_key_value_heads; 0 means Heads (no grouped-query attention)
	Hidden        int     // intermediate_size: width of the SwiGLU feed-forward
	MaxSeqLen     int     // max_position_embeddings: the KV cache and RoPE table length
	RopeTheta     float64 // rope_theta; 0 means 10000
	NormEps       float64 // rms_norm_eps; 0 means 1e-5
	TieEmbeddings bool    // tie_word_embeddings: lm_head shares the embedding matrix
	InitStd       float64 // initializer_range: std of the normal weight init; 0 means 0.02
	BOS, EOS      int     // bos_token_id, eos_token_id; negative means none
}

// withDefaults fills the zero fields that have a default.
func (c Config) withDefaults() Config {
	if c.KVHeads == 0 {
		c.KVHeads = c.Heads
	}
	if c.RopeTheta == 0 {
		c.RopeTheta = 10000
	}
	if c.NormEps == 0 {
		c.NormEps = 1e-5
	}
	if c.InitStd == 0 {
		c.InitStd = 0.02
	}
	return c
}

// Validate reports the first inconsistency of the (defaulted) config.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.VocabSize <= 0 || c.Dim <= 0 || c.Layers <= 0 || c.Heads <= 0 || c.Hidden <= 0 || c.MaxSeqLen <= 0:
		return fmt.Errorf("config: vocab size, dim, layers, heads, hidden and max sequence length must be positive: %+v", c)
	case c.Dim%c.Heads != 0:
		return fmt.Errorf("config: dim %d is not a multiple of heads %d", c.Dim, c.Heads)
	case (c.Dim/c.Heads)%2 != 0:
		return fmt.Errorf("config: head dim %d must be even for rotary embeddings", c.Dim/c.Heads)
	case c.KVHeads <= 0 || c.Heads%c.KVHeads != 0:
		return fmt.Errorf("config: heads %d is not a multiple of kv heads %d", c.Heads, c.KVHeads)
	case c.BOS >= c.VocabSize || c.EOS >= c.VocabSize:
		return fmt.Errorf("config: bos %d or eos %d outside the vocabulary of %d", c.BOS, c.EOS, c.VocabSize)
	}
	return nil
}

// HeadDim is the width of one attention head.
func (c Config) HeadDim() int { return c.Dim / c.Heads }

// NumParams counts the model's parameters (the embedding counted once when tied).
func (c Config) NumParams() int64 {
	c = c.withDefaults()
	d, hd := int64(c.Dim), int64(c.HeadDim())
	attn := d*int64(c.Heads)*hd*2 + d*int64(c.KVHeads)*hd*2 // q, o and k, v
	ffn := 3 * d * int64(c.Hidden)
	n := int64(c.VocabSize)*d + int64(c.Layers)*(attn+ffn+2*d) + d
	if !c.TieEmbeddings {
		n += int64(c.VocabSize) * d
	}
	return n
}

// hfConfig is the subset of Hugging Face's LlamaConfig that ndb writes and reads.
type hfConfig struct {
	Architectures         []string        `json:"architectures"`
	ModelType             string          `json:"model_type"`
	VocabSize             int             `json:"vocab_size"`
	HiddenSize            int             `json:"hidden_size"`
	IntermediateSize      int             `json:"intermediate_size"`
	NumHiddenLayers       int             `json:"num_hidden_layers"`
	NumAttentionHeads     int             `json:"num_attention_heads"`
	NumKeyValueHeads      int             `json:"num_key_value_heads,omitempty"`
	HeadDim               int             `json:"head_dim,omitempty"`
	MaxPositionEmbeddings int             `json:"max_position_embeddings"`
	RMSNormEps            float64         `json:"rms_norm_eps,omitempty"`
	RopeTheta             float64         `json:"rope_theta,omitempty"`
	RopeScaling           json.RawMessage `json:"rope_scaling,omitempty"`
	TieWordEmbeddings     bool            `json:"tie_word_embeddings"`
	HiddenAct             string          `json:"hidden_act,omitempty"`
	InitializerRange      float64         `json:"initializer_range,omitempty"`
	AttentionBias         bool            `json:"attention_bias"`
	MLPBias               bool            `json:"mlp_bias"`
	TorchDtype            string          `json:"torch_dtype,omitempty"`
	BOSTokenID            *int            `json:"bos_token_id"`
	EOSTokenID            *int            `json:"eos_token_id"`
	UseCache              bool            `json:"use_cache"`
}

// MarshalJSON writes the config as Hugging Face's LlamaForCausalLM config.json.
func (c Config) MarshalJSON() ([]byte, error) {
	c = c.withDefaults()
	id := func(v int) *int {
		if v < 0 {
			return nil
		}
		return &v
	}
	return json.Marshal(hfConfig{
		Architectures:         []string{"LlamaForCausalLM"},
		ModelType:             "llama",
		VocabSize:             c.VocabSize,
		HiddenSize:            c.Dim,
		IntermediateSize:      c.Hidden,
		NumHiddenLayers:       c.Layers,
		NumAttentionHeads:     c.Heads,
		NumKeyValueHeads:      c.KVHeads,
		HeadDim:               c.HeadDim(),
		MaxPositionEmbeddings: c.MaxSeqLen,
		RMSNormEps:            c.NormEps,
		RopeTheta:             c.RopeTheta,
		TieWordEmbeddings:     c.TieEmbeddings,
		HiddenAct:             "silu",
		InitializerRange:      c.InitStd,
		TorchDtype:            "float32",
		BOSTokenID:            id(c.BOS),
		EOSTokenID:            id(c.EOS),
		UseCache:              true,
	})
}

// UnmarshalJSON reads a Hugging Face Llama config.json. It refuses what this model
// does not implement (another architecture, biases, rope scaling, another activation).
func (c *Config) UnmarshalJSON(data []byte) error {
	var h hfConfig
	if err := json.Unmarshal(data, &h); err != nil {
		return err
	}
	switch {
	case h.ModelType != "" && h.ModelType != "llama":
		return fmt.Errorf("config: model_type %q, want llama", h.ModelType)
	case h.HiddenAct != "" && h.HiddenAct != "silu":
		return fmt.Errorf("config: hidden_act %q, want silu", h.HiddenAct)
	case h.AttentionBias || h.MLPBias:
		return fmt.Errorf("config: attention or MLP biases are not supported")
	case len(h.RopeScaling) > 0 && string(h.RopeScaling) != "null":
		return fmt.Errorf("config: rope_scaling %s is not supported", h.RopeScaling)
	case h.HeadDim != 0 && h.NumAttentionHeads != 0 && h.HeadDim*h.NumAttentionHeads != h.HiddenSize:
		return fmt.Errorf("config: head_dim %d × heads %d ≠ hidden_size %d is not supported", h.HeadDim, h.NumAttentionHeads, h.HiddenSize)
	}
	id := func(p *int) int {
		if p == nil {
			return -1
		}
		return *p
	}
	*c = Config{
		VocabSize:     h.VocabSize,
		Dim:           h.HiddenSize,
		Layers:        h.NumHiddenLayers,
		Heads:         h.NumAttentionHeads,
		KVHeads:       h.NumKeyValueHeads,
		Hidden:        h.IntermediateSize,
		MaxSeqLen:     h.MaxPositionEmbeddings,
		RopeTheta:     h.RopeTheta,
		NormEps:       h.RMSNormEps,
		TieEmbeddings: h.TieWordEmbeddings,
		InitStd:       h.InitializerRange,
		BOS:           id(h.BOSTokenID),
		EOS:           id(h.EOSTokenID),
	}
	if h.RMSNormEps == 0 {
		c.NormEps = 1e-6 // transformers' LlamaConfig default
	}
	*c = c.withDefaults()
	return c.Validate()
}

// LoadConfig reads a config.json.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	var c Config
	if err := json.Unmarshal(data, &c); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// SaveConfig writes c as an indented config.json.
func SaveConfig(c Config, path string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
