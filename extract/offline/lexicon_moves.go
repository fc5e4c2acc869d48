package offline

// The words of the indirect residence rules (rules_moves.go): a home named
// by its kind and its town says where the speaker lives without "live".
// Each list grows by a word, not by a sentence.

// dwellingNouns head a phrase that names where someone lives ("our flat in
// Bristol", "a cottage in Galway").
var dwellingNouns = wordSet(`flat,apartment,house,place,home,studio,condo,cottage,bungalow,townhouse,loft,
bedsit,duplex,villa,cabin,houseboat,farmhouse,maisonette,terrace,semi,rental,digs,penthouse,dorm,room,
houseshare,flatshare,barn,chalet,homestead,croft,unit,pad,one-bed,two-bed,three-bed,four-bed,one-bedroom,
two-bedroom,three-bedroom,four-bedroom,new-build,semi-detached,narrowboat`)

// dwellingVerbs are the verb forms that make "a <dwelling> in X" the
// speaker's home: renting, buying or finding one, moving into one.
var dwellingVerbs = wordSet(`renting,rent,bought,buy,buying,purchased,found,got,leasing,leased,share,sharing,
moved,moving,own,owning,inherited,took,signed,built`)

// formerDwelling marks a home the speaker has left ("our old flat in Leeds").
var formerDwelling = wordSet(`old,former,previous,last,first`)

// currentDwelling marks a home the speaker has just taken ("the new flat").
var currentDwelling = wordSet(`new,current,present`)

// permanence are the words after "in X" that make being there living there
// ("we're back in Hobart for good", "I'm in Oslo permanently").
var permanence = [][]string{{"for", "good"}, {"permanently"}, {"to", "stay"}, {"full-time"}, {"full", "time"},
	{"these", "days"}, {"now"}, {"nowadays"}}

// obligedEvents are the verbs whose "had to VERB" is the event itself
// ("we had to put our cat down", "I had to sell the car", "we had to move
// to Leeds"); other obligations ("I had to learn a new language and handle
// many details") are left to their own clause.
var obligedEvents = wordSet(`put,say,sell,move,relocate,give,leave,quit,drop,rehome,rehouse,cancel,reschedule,cut,raise,
lower,switch,stop,retire,change`)

// secondHomes mark a home that is not where the speaker lives ("our
// holiday cottage", "a summer place").
var secondHomes = wordSet(`holiday,second,summer,weekend,vacation,beach,ski,winter,investment,buy-to-let`)

// bookedStays are what is booked for a trip besides the trip itself ("a
// week in Crete", "flights to Lisbon", "a cottage in Cornwall").
var bookedStays = wordSet(`week,weekend,fortnight,night,flight,ticket,cottage,villa,cabin,chalet,hotel,room,apartment,
airbnb,lodge,caravan,ferry,cruise,train,break,getaway,stay`)
