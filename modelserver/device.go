package modelserver

import (
	"fmt"
	"strconv"
	"strings"
)

// CheckDevice checks the syntax of a --device flag (cpu, cuda, cuda:N or auto; ""
// is auto) without libtorch: whether the GPU exists is the model server's answer,
// at the first session.
func CheckDevice(s string) error {
	switch s = strings.ToLower(strings.TrimSpace(s)); {
	case s == "" || s == "cpu" || s == "auto" || s == "cuda":
		return nil
	case strings.HasPrefix(s, "cuda:"):
		if v, err := strconv.Atoi(s[len("cuda:"):]); err != nil || v < 0 {
			return fmt.Errorf("device %q: bad GPU index", s)
		}
		return nil
	}
	return fmt.Errorf("device %q: want cpu, cuda, cuda:N or auto", s)
}
