package knowledge

import (
	"regexp"
	"strings"
)

// MeasureDimensions returns the dimensions of the amounts a text gives:
// "mass" for "92 kg" or "13 stone", "money" for "£2,910" or "40 grand",
// "time" for a time of day ("7pm", "4:30"), "distance", "length",
// "duration", "rate", "dose", "energy", "share".
// Two statements that give amounts of one dimension may speak of the same
// quantity although they share no word ("I weigh 92 kg", "Down to 84.5 kg
// this morning"); two of different dimensions do not. Empty when the text
// gives no amount with a unit.
func MeasureDimensions(text string) map[string]bool {
	low := strings.ToLower(text)
	out := map[string]bool{}
	if currencyAmount.MatchString(low) {
		out["money"] = true
	}
	if clockTime.MatchString(low) {
		out["time"] = true // "7pm to 7am", "8 till 4:30"
	}
	for _, m := range unitAmount.FindAllStringSubmatch(low, -1) {
		if d := unitDimensions[m[1]]; d != "" {
			out[d] = true
		}
	}
	return out
}

var (
	currencyAmount = regexp.MustCompile(`[£$€]\s?\d`)
	clockTime      = regexp.MustCompile(`\b\d{1,2}(:\d{2}\s?(am|pm)?|\s?(am|pm))\b`)
	unitAmount     = regexp.MustCompile(`\d(?:[\d,.]*\d)?\s?([a-z]+\b|%)`)
)

// unitDimensions maps a unit written after a number to its dimension. The
// list grows by a unit; a word not in it is no unit ("3 kids").
var unitDimensions = map[string]string{
	"kg": "mass", "kgs": "mass", "kilo": "mass", "kilos": "mass", "kilograms": "mass", "lb": "mass", "lbs": "mass",
	"stone": "mass", "st": "mass", "pounds": "mass", "g": "mass", "grams": "mass",
	"km": "distance", "kms": "distance", "kilometres": "distance", "kilometers": "distance", "mile": "distance",
	"miles": "distance", "mi": "distance",
	"cm": "length", "m": "length", "metres": "length", "meters": "length", "ft": "length", "feet": "length",
	"foot": "length", "inches": "length", "inch": "length", "mm": "length",
	"seconds": "duration", "secs": "duration", "sec": "duration", "minutes": "duration", "mins": "duration",
	"min": "duration", "hours": "duration", "hour": "duration", "hrs": "duration", "hr": "duration", "h": "duration",
	"days": "duration", "weeks": "duration", "months": "duration", "years": "duration",
	"bpm": "rate", "mph": "rate", "kph": "rate", "wpm": "rate",
	"mg": "dose", "ml": "dose", "mcg": "dose", "units": "dose",
	"kcal": "energy", "calories": "energy", "cal": "energy",
	"%": "share", "percent": "share", "per": "share",
	"quid": "money", "grand": "money", "euros": "money", "euro": "money", "dollars": "money", "dollar": "money",
	"gbp": "money", "usd": "money", "eur": "money", "p": "money",
}
