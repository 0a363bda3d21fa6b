// Package infer is the neural backend's engine: the Llama-style model on gotch
// (libtorch), its KV cache, the sampler, grammar-constrained decoding and checkpoint
// loading.
package infer
