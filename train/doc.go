// Package train turns real executions into training data and trains the model: corpus
// generation, tokenizer training, the training loop and evaluation.
package train
