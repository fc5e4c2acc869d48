package offline

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestZZ2(t *testing.T) {
	for _, s := range strings.Split(os.Getenv("ZZ"), "|") {
		res := extractUser(t, s, time.Date(2024, 9, 14, 0, 0, 0, 0, time.UTC))
		out := ""
		for _, fa := range res.Facts {
			out += fmt.Sprintf(" [%s %s %s %v]", fa.Subject, fa.Predicate, fa.Object, fa.Polarity)
		}
		fmt.Printf("%-70s |%s\n", s, out)
	}
}
