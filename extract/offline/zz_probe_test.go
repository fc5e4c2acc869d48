package offline

import (
	"fmt"
	"testing"
	"time"
)

func TestZZProbe(t *testing.T) {
	for _, s := range []string{
		"Got diagnosed with type 2 diabetes in March.",
		"Had my appendix out last year, still a bit sore.",
		"I was diagnosed with asthma as a kid.",
		"We just got the keys to a flat in Glasgow.",
		"Our new place is a terraced house in Bristol.",
		"My sister moved in with me in January.",
		"I collect old vinyl records, mostly jazz.",
		"I've been building model trains in the garage.",
		"I teach yoga at a community centre.",
		"I'm off to Iceland in March for a week of hiking.",
		"Booked flights to Lisbon for the summer!",
		"Tom proposed last night and I said yes!",
		"My shifts at the hospital are nights, three on and four off.",
		"I restore old bicycles in my spare time.",
		"I've got a season ticket at Anfield.",
		"Giving guitar lessons from my flat is how I pay the rent.",
		"I walk dogs for a living.",
		"Every Sunday I'm down at the climbing wall.",
		"I run a small bakery in Leith.",
		"I'm learning Italian for a trip to Rome next spring.",
	} {
		res := extractUser(t, s, time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC))
		fmt.Printf("%s\n", s)
		for _, f := range res.Facts {
			fmt.Printf("    %s %s [%s] %q\n", f.Predicate, f.Object, f.Qualifier, f.Fact)
		}
	}
}
