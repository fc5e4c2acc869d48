package dataset

import (
	"os"
	"strings"
)

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o600) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
