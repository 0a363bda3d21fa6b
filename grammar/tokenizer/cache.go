package tokenizer

import (
	"strings"
	"sync"
)

const (
	// defaultCacheSize is the number of pre-token encodings a generation of the cache
	// holds.
	defaultCacheSize = 1 << 16
	// maxCachedPiece is the longest pre-token whose encoding is cached.
	maxCachedPiece = 256
)

// pieceCache maps pre-tokens to their encodings. It keeps two generations: when the
// current one is full it becomes the old one, and a hit in the old generation moves
// the entry to the current one, so it holds at most 2*size entries and keeps the
// recently used ones (an approximate LRU).
type pieceCache struct {
	mu       sync.Mutex
	cur, old map[string][]int32
	size     int
}

func newPieceCache(size int) *pieceCache {
	return &pieceCache{cur: make(map[string][]int32), size: size}
}

func (c *pieceCache) get(p string) ([]int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ids, ok := c.cur[p]; ok {
		return ids, true
	}
	if ids, ok := c.old[p]; ok {
		c.putLocked(p, ids)
		return ids, true
	}
	return nil, false
}

func (c *pieceCache) put(p string, ids []int32) {
	c.mu.Lock()
	c.putLocked(p, ids)
	c.mu.Unlock()
}

func (c *pieceCache) putLocked(p string, ids []int32) {
	if len(c.cur) >= c.size {
		c.old, c.cur = c.cur, make(map[string][]int32, len(c.cur))
	}
	c.cur[strings.Clone(p)] = ids
}
