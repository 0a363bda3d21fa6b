package trace

import "time"

// Defaults of Limits; the Python worker applies the same ones.
const (
	DefaultMaxEvents = 10000
	DefaultMaxRepr   = 200
	DefaultWallSecs  = 2.0
	DefaultMaxOutput = 64 * 1024
	DefaultMemoryMiB = 1024
)

// WithDefaults returns l with every zero or negative field set to its default.
func (l Limits) WithDefaults() Limits {
	if l.MaxEvents <= 0 {
		l.MaxEvents = DefaultMaxEvents
	}
	if l.MaxRepr <= 0 {
		l.MaxRepr = DefaultMaxRepr
	}
	if l.WallSecs <= 0 {
		l.WallSecs = DefaultWallSecs
	}
	if l.MaxOutput <= 0 {
		l.MaxOutput = DefaultMaxOutput
	}
	if l.MemoryMiB <= 0 {
		l.MemoryMiB = DefaultMemoryMiB
	}
	return l
}

// wall is the wall-clock limit of l as a duration (the default when unset).
func (l Limits) wall() time.Duration {
	return time.Duration(l.WithDefaults().WallSecs * float64(time.Second))
}
