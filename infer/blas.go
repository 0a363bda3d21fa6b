package infer

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>

// OpenBLAS, when it is the BLAS behind libtorch, runs its own thread pool beside
// libtorch's OpenMP one. Its functions are looked up at run time, so a build whose
// BLAS is another library (MKL, or none on CUDA) still links.
static int ndb_openblas_set_num_threads(int n) {
	void (*f)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
	if (!f) return 0;
	f(n);
	return 1;
}

static int ndb_openblas_get_num_threads(void) {
	int (*f)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
	return f ? f() : -1;
}
*/
import "C"

// SetBLASThreads sets OpenBLAS's own thread count when OpenBLAS is the BLAS behind
// libtorch, and reports whether it is. OpenBLAS keeps a thread pool apart from
// libtorch's OpenMP threads; see docs/libtorch.md for what the two counts do to speed.
func SetBLASThreads(n int) bool { return C.ndb_openblas_set_num_threads(C.int(n)) == 1 }

// BLASThreads is OpenBLAS's thread count, or -1 when OpenBLAS is not loaded.
func BLASThreads() int { return int(C.ndb_openblas_get_num_threads()) }
