package adapter

// Frame ids are never reused within a connection, and an id from an earlier stop
// still answers, for the frame at the same depth of the thread's current stack.
//
// VS Code loads a stack in two parts: the top frame at once, then the rest 420 ms
// later; meanwhile it shows the previous stop's frames below the new top frame. It
// redraws the stack after the second part only if a frame differs from the one shown,
// by id among others: with ids reused at every stop, a stack of unchanged depth was
// never redrawn and a stale "Load More Stack Frames" link stayed under it. And in
// that meantime it may ask for the scopes of a frame shown from the previous stop,
// which an id that no longer answered turned into an error notification.

// frame returns what a frame id stands for; an id from an earlier stop stands for
// the frame at the same depth of its thread's current stack.
func (c *conn) frame(l *launched, id int) (frameRef, error) {
	c.mu.Lock()
	ref, ok := c.frames.get(id)
	stops := c.stops
	c.mu.Unlock()
	if !ok {
		return frameRef{}, quietf(ErrUnknownReference, "unknown frame id %d", id)
	}
	if ref.stop == stops {
		return ref, nil
	}
	frames, _, err := threadStack(l, ref.thread)
	if err != nil || ref.index >= len(frames) {
		return frameRef{}, quietf(ErrUnknownReference, "frame id %d: the stack is no longer %d frames deep", id, ref.index+1)
	}
	ref.frame, ref.stop = frames[ref.index], stops
	return ref, nil
}
