package offline

// The words of commutes and routines (rules_commute.go). Each list grows
// by a word.

// transports are the means of a commute, by the noun that names them,
// with the name the slot stores.
var transports = map[string]string{
	"bus": "bus", "tram": "tram", "train": "train", "tube": "tube", "metro": "metro", "subway": "subway",
	"underground": "underground", "car": "car", "bike": "bike", "bicycle": "bike", "e-bike": "e-bike",
	"ebike": "e-bike", "scooter": "scooter", "ferry": "ferry", "boat": "boat", "coach": "coach",
	"shuttle": "shuttle", "motorbike": "motorbike", "motorcycle": "motorbike", "moped": "moped", "taxi": "taxi",
	"cab": "taxi", "uber": "taxi", "carpool": "carpool", "lift": "lift", "overground": "train", "streetcar": "tram",
	"light rail": "light rail", "van": "van",
}

// commuteVerbs travel by themselves: "I walk to work", "I cycle to the
// office". The value is the means.
var commuteVerbs = map[string]string{
	"walk": "on foot", "cycle": "bike", "bike": "bike", "drive": "car", "run": "running", "jog": "running",
	"scoot": "scooter", "skate": "skateboard", "row": "boat", "swim": "swimming",
}

// rideVerbs take a means: "I take the 38 bus to work", "I catch the
// train into the office".
var rideVerbs = wordSet(`take,get,catch,ride,use,hop`)

// commuteDestinations name the route a commute is for, as its qualifier.
var commuteDestinations = map[string]string{
	"work": "work", "office": "work", "job": "work", "lab": "work", "shop": "work", "site": "work",
	"hospital": "work", "studio": "work", "clinic": "work", "school": "school", "uni": "school",
	"university": "school", "college": "school", "campus": "school", "class": "school", "classes": "school",
}
