package infer

/*
#include <malloc.h>

// ndb_tune_malloc keeps glibc from giving every large tensor fresh pages. By default
// glibc serves allocations above its mmap threshold (at most 32 MiB) with mmap and
// returns them with munmap, so each attention or logits tensor of a training batch
// costs page faults and zeroing in the kernel; on two cores that tripled a training
// step. With mmap off and trimming off, freed tensors are reused from the heap.
static int ndb_tune_malloc(void) {
	int ok = mallopt(M_MMAP_MAX, 0);
	ok &= mallopt(M_TRIM_THRESHOLD, 1 << 30);
	ok &= mallopt(M_ARENA_MAX, 1);
	return ok;
}
*/
import "C"

import "os"

// mallocTuned reports whether glibc's allocator was tuned for tensor reuse at start.
var mallocTuned bool

func init() {
	// NDB_MALLOC=default leaves glibc's allocator as it is (for comparing).
	if os.Getenv("NDB_MALLOC") != "default" {
		mallocTuned = C.ndb_tune_malloc() == 1
	}
}

// MallocTuned reports whether the process runs with glibc's allocator tuned for
// reusing freed tensor memory (see docs/libtorch.md).
func MallocTuned() bool { return mallocTuned }
