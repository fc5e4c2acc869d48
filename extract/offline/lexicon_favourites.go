package offline

// The words of favourites said without "favourite" or object first
// (rules_favourites.go, rules_favourites_inverted.go). Each list grows by a
// word.

// favouriteWords stand for "favourite" after a possessive: "Tea is my
// go-to drink", "ramen is my comfort food".
var favouriteWords = wordSet(`favourite,favourites,favorite,favorites,go-to,goto,comfort,usual,signature,fave,faves,fav`)

// categorySynonyms name one slot by one word: a favourite film and a
// favourite movie are the same favourite.
var categorySynonyms = map[string]string{
	"film": "movie", "flick": "movie", "dish": "food", "meal": "food", "tune": "song",
	"track": "song", "novel": "book", "read": "book", "programme": "show", "tv show": "show", "series": "show",
	"tv series": "show", "boardgame": "board game", "video game": "game", "beverage": "drink", "tipple": "drink",
	"takeaway": "takeaway order", "takeout": "takeaway order", "order": "takeaway order",
}

// habitVerbs are the verbs of a favourite said by habit ("the dish I order
// most", "Pho is what I get every time"), with the category they imply
// when the speaker names none.
var habitVerbs = map[string]string{
	"order": "takeaway order", "get": "takeaway order", "eat": "food", "cook": "food", "make": "food",
	"drink": "drink", "watch": "show", "rewatch": "movie", "re-watch": "movie", "read": "book", "reread": "book",
	"re-read": "book", "play": "game", "listen": "music", "wear": "clothing", "choose": "", "pick": "",
	"use": "", "reach": "", "grab": "",
}

// habitMarkers end a habit clause: "most", "every time", "all the time".
var habitMarkers = [][]string{{"most"}, {"the", "most"}, {"most", "often"}, {"every", "time"},
	{"every", "single", "time"}, {"all", "the", "time"}, {"always"}, {"on", "repeat"}, {"over", "and", "over"},
	{"without", "fail"}, {"again", "and", "again"}, {"nine", "times", "out", "of", "ten"}}

// overtakeVerbs put a new favourite in the old one's place: "Paddington 2
// has overtaken everything as my comfort movie".
var overtakeVerbs = wordSet(`overtaken,overtook,overtakes,replaced,replaces,become,became,becomes,dethroned,
displaced,usurped,supplanted,beaten,beat,beats,taken,took`)

// timeAdverbials may sit inside a favourite's category ("my favourite
// board game these days is ...").
var timeAdverbials = [][]string{{"these", "days"}, {"now"}, {"right", "now"}, {"at", "the", "moment"}, {"lately"},
	{"nowadays"}, {"currently"}, {"by", "far"}, {"of", "all", "time"}, {"at", "present"}, {"this", "year"}}

// impliedFavourites are categories that "X is my <category>" can only
// mean as a favourite ("Teal is my colour"), unlike "Sam is my brother".
// "my jam" is not one: "board games are my jam" says a liking
// (myThingFrame), not a favourite jam.
var impliedFavourites = wordSet(`colour,color,flavour,flavor,drink,tipple,poison,song,tune,sport,team,genre,era,
season,scent,perfume,cocktail,snack,treat,anthem`)

// occasionCategories name the category of a habitual choice by the
// occasion a message names ("whenever we get takeaway, it's always...").
var occasionCategories = map[string]string{"takeaway": "takeaway order", "takeout": "takeaway order",
	"take-away": "takeaway order", "delivery": "takeaway order", "chippy": "takeaway order", "pub": "drink", "bar": "drink",
	"breakfast": "breakfast", "brunch": "brunch", "lunch": "lunch", "dessert": "dessert", "cinema": "snack",
	"restaurant": "dish"}
