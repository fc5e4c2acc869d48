package offline

// The words of measures and counts, as data (rules_measures.go reads
// them). A measure's slot is its canonical name; a name outside
// measureNames is kept as said ("resting heart rate", "long run"), so a
// new measure works without a word here and the list only merges
// synonyms into one slot.

// measureNames maps a measure word (its last noun, or the whole phrase)
// to the slot it fills.
var measureNames = map[string]string{
	"salary": "salary", "pay": "salary", "income": "salary", "wage": "salary", "wages": "salary",
	"paycheck": "salary", "earnings": "salary", "take-home": "salary",
	"rent": "rent", "mortgage": "mortgage", "mortgage rate": "mortgage rate",
	"weight": "weight", "height": "height",
	"commute": "commute", "drive to work": "commute", "drive to the office": "commute",
	"journey to work": "commute", "trip to work": "commute", "commute time": "commute",
	"getting to work": "commute", "getting to the office": "commute", "cycle to work": "commute",
	"cycle to the office": "commute", "walk to work": "commute", "walk to the office": "commute",
	"ride to work": "commute", "journey to the office": "commute", "trip to the office": "commute",
	"train to work": "commute", "bus to work": "commute", "drive to school": "school run", "school run": "school run",
	"pulse": "resting heart rate", "resting pulse": "resting heart rate", "heart rate": "resting heart rate",
	"resting heart rate": "resting heart rate",
	"sleep":              "sleep", "screen time": "screen time", "budget": "budget", "savings": "savings",
}

// measureVerbs name the measure a clause states with the speaker as
// subject: "I weigh 72 kg", "I earn 50k", "I sleep 6 hours".
var measureVerbs = map[string]string{
	"weigh": "weight", "weighs": "weight", "weighed": "weight",
	"earn": "salary", "earns": "salary", "earned": "salary", "make": "salary", "makes": "salary",
	"sleep": "sleep", "slept": "sleep",
}

// measureChanges are the verbs of a measure moving to a new value: "my
// rent went up to 1,450", "my weight dropped to 70 kg".
var measureChanges = map[string]bool{
	"went": true, "gone": true, "rose": true, "risen": true, "jumped": true, "climbed": true, "increased": true,
	"dropped": true, "fell": true, "fallen": true, "decreased": true, "sank": true, "shot": true, "crept": true,
	"came": true, "settled": true, "moved": true, "changed": true, "got": true, "bumped": true, "raised": true,
	"cut": true, "reduced": true, "lowered": true, "hit": true, "reached": true,
}

// measureFillers may stand between the copula or verb and the value.
var measureFillers = map[string]bool{
	"now": true, "currently": true, "about": true, "around": true, "roughly": true, "nearly": true, "almost": true,
	"just": true, "only": true, "up": true, "down": true, "to": true, "over": true, "under": true,
	"a": true, "mere": true, "exactly": true, "finally": true, "officially": true, "back": true, "actually": true,
	"still": true, "all": true, "the": true, "way": true, "by": true, "approximately": true, "close": true,
}

// measureUnits follow a number and belong to its value.
var measureUnits = map[string]bool{
	"kg": true, "kgs": true, "kilos": true, "kilo": true, "kilograms": true, "lbs": true, "lb": true, "pounds": true,
	"stone": true, "km": true, "k": true, "kilometres": true, "kilometers": true, "miles": true, "mile": true,
	"metres": true, "meters": true, "m": true, "cm": true, "minutes": true, "minute": true, "mins": true, "min": true,
	"hours": true, "hour": true, "hrs": true, "h": true, "seconds": true, "secs": true, "days": true, "weeks": true,
	"bpm": true, "euros": true, "euro": true, "dollars": true, "dollar": true, "quid": true, "grand": true,
	"percent": true, "%": true, "a": true, "per": true, "month": true, "year": true, "week": true, "night": true,
	"each": true, "way": true, "door": true, "an": true, "every": true, "day": true,
	"£": true, "$": true, "€": true,
}

// countVerbs state a running total with the speaker as subject: "I've
// done 20 parkruns", "I've visited 17 countries".
var countVerbs = map[string]bool{
	"done": true, "run": true, "ran": true, "visited": true, "read": true, "finished": true, "completed": true,
	"watched": true, "seen": true, "climbed": true, "saved": true, "collected": true, "written": true,
	"baked": true, "cooked": true, "hiked": true, "swum": true, "cycled": true, "attended": true, "made": true,
}

// valueWords are the spelled-out numbers a measure may be given in.
var valueWords = wordSet(`one,two,three,four,five,six,seven,eight,nine,ten,eleven,twelve,thirteen,fourteen,fifteen,
sixteen,seventeen,eighteen,nineteen,twenty,thirty,forty,fifty,sixty,seventy,eighty,ninety,hundred,half`)

// unitMeasures name the measure a bare quantity of the speaker's states by
// its unit: "I'm 72 kg now", "I'm 1.65 m".
var unitMeasures = map[string]string{
	"kg": "weight", "kgs": "weight", "kilos": "weight", "kilo": "weight", "kilograms": "weight", "lbs": "weight",
	"lb": "weight", "stone": "weight", "st": "weight",
	"m": "height", "cm": "height", "metres": "height", "meters": "height", "ft": "height", "feet": "height",
}
