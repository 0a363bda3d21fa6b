// Package infer is the neural backend's engine: the Llama-style model on gotch
// (libtorch), its KV cache, checkpoint loading and saving, and device and thread
// choice (the sampler and grammar-constrained decoding build on it).
//
// The model (model.go) is Llama 2's architecture with Hugging Face's parameter names
// and rotary convention, so a checkpoint folder (checkpoint.go: config.json,
// model.safetensors or shards, tokenizer.json) loads in transformers'
// LlamaForCausalLM as it is. New is the one constructor for training (ForwardTrain,
// Loss) and inference (Forward with the preallocated KV cache, ForwardAll, Logits).
//
// Goroutines: a Model, and gotch in general, must be used from one goroutine at a
// time. libtorch keeps grad mode per OS thread, so the entry points that switch it
// lock their goroutine to its thread while they run.
//
// Building needs libtorch and a patched gotch: run `make libtorch` first (it writes
// the go.work that points gotch at build/gotch); see docs/libtorch.md.
package infer
