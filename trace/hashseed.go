package trace

import (
	"fmt"
	"strconv"
	"strings"
)

// A fixed hash seed needs the PYTHONHASHSEED variable, which isolated mode (-I, that
// is -E -s plus no script directory) ignores. A worker with a seed therefore runs
// with -s alone, an environment that keeps no other PYTHON* variable, and the
// bootstrap drops the script directory from sys.path itself: the same isolation.

// checkHashSeed refuses a PoolOptions.HashSeed that Python would refuse.
func checkHashSeed(seed string) error {
	if seed == "" {
		return nil
	}
	if _, err := strconv.ParseUint(seed, 10, 32); err != nil {
		return fmt.Errorf("trace: hash seed %q: want a decimal number from 0 to 4294967295", seed)
	}
	return nil
}

// interpreterArgs are a worker's interpreter flags: pythonArgs, or with a hash seed
// the same without -E.
func interpreterArgs(seed string) []string {
	if seed == "" {
		return pythonArgs
	}
	args := append([]string(nil), pythonArgs...)
	for i, a := range args {
		if a == "-I" {
			args[i] = "-s"
		}
	}
	return args
}

// workerEnv is a worker's environment: environ as it is (isolated mode ignores its
// PYTHON* variables), or with a hash seed environ without any PYTHON* variable and
// with PYTHONHASHSEED set.
func workerEnv(environ []string, seed string) []string {
	if seed == "" {
		return environ
	}
	env := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "PYTHON") {
			env = append(env, kv)
		}
	}
	return append(env, "PYTHONHASHSEED="+seed)
}
