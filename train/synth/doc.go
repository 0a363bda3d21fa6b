// Package synth generates small, self-contained Python programs in the style of
// CruxEval problems: a function f, possibly with helper functions and a small class,
// and a call of f with concrete arguments. Executing and tracing these programs is the
// source of the debugger training data.
//
// Programs are composed from typed templates ("blocks"): each block reads variables
// of the kinds it handles (int, str, list of ints, list of strs, dict of str to int,
// set of small ints), emits a few lines, and usually binds a result that later blocks
// or the return statement consume. A block may be emitted inline or extracted into a
// helper function that f calls, and element-level predicates and transforms may become
// helpers too, so that calls nest (step into, step over and step return differ).
// Blocks are total on their inputs: apart from the deliberate failure templates
// (Options.NeverShare, Options.ErrorShare), every program terminates normally.
//
// Programs are deterministic when run: no randomness, clocks, identities or string
// hashing, no iteration over sets of strings, and every class has a __repr__.
// The generator itself is deterministic given its seed.
//
// Normalize is the canonical form of Python source used to count distinct programs and,
// by package decontam, to detect generated code that matches an evaluation problem.
// The templates were written for this package; none is taken from CruxEval.
package synth
