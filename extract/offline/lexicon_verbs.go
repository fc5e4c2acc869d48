package offline

import "strings"

// verbForm is the inflection of a verb token.
type verbForm uint8

const (
	formBase verbForm = iota // live, move
	formS                    // lives, moves
	formPast                 // lived, moved (also the participle when they coincide)
	formPart                 // been, gone, taken (participle only)
	formIng                  // living, moving
)

// verbSpecs lists the verbs the rules know, as "lemma past participle ing"
// with "-" for a regular form. Only verbs that some rule reads are listed:
// an unknown verb simply produces no fact.
var verbSpecs = `live - - living
collect - - collecting
brew - - brewing
smoke - - smoking
vape - - vaping
sew - sewn sewing
crochet - - crocheting
spend spent spent spending
move - - moving
relocate - - relocating
transfer transferred transferred transferring
reside - - residing
settle - - settling
stay - - -
base - - basing
come came come coming
hail - - -
grow grew grown -
bear bore born -
work - - -
join - - -
leave left left leaving
quit quit quit quitting
resign - - -
retire - - retiring
start - - -
begin began begun beginning
stop stopped stopped stopping
give gave given giving
switch - - -
replace - - replacing
change - - changing
learn learned learned -
study studied studied -
graduate - - graduating
attend - - -
enroll enrolled enrolled enrolling
go went gone -
visit - - -
travel traveled traveled traveling
fly flew flown -
take took taken taking
like - - liking
love - - loving
adore - - adoring
enjoy - - -
fancy fancied fancied -
hate - - hating
dislike - - disliking
detest - - -
loathe - - loathing
care - - caring
despise - - despising
prefer preferred preferred preferring
avoid - - -
book - - -
order - - -
steer - - -
request - - -
reserve - - reserving
stand stood stood -
handle - - handling
stomach - - -
face - - facing
tolerate - - tolerating
drink drank drunk -
eat ate eaten -
have had had having
own - - -
buy bought bought -
inherit - - -
purchase - - purchasing
sell sold sold -
get got gotten getting
land - - -
hire - - hiring
employ - - -
drive drove driven driving
use - - using
keep kept kept -
adopt - - -
rescue - - rescuing
name - - naming
call - - -
marry married married -
divorce - - divorcing
date - - dating
break broke broken -
support - - -
root - - -
cheer - - -
play - - -
practice - - practicing
practise - - practising
do did done -
run ran run running
swim swam swum swimming
paint - - -
draw drew drawn -
cook - - -
bake - - baking
hike - - hiking
dance - - dancing
sing sang sung -
write wrote written writing
knit knitted knitted knitting
garden - - -
surf - - -
ski - - -
climb - - -
boulder - - -
pack - - -
touch - - -
meditate - - meditating
jog jogged jogged jogging
cycle - - cycling
bike - - biking
camp - - -
fish - - -
read read read -
reread reread reread rereading
watch - - -
binge binged binged bingeing
head - - -
tie tied tied tying
freelance - - freelancing
rewatch - - -
finish - - -
make made made making
create - - creating
build built built -
compose - - composing
sign - - -
plan planned planned planning
intend - - -
want - - -
hope - - hoping
aim - - -
dream - - -
consider - - -
think thought thought -
look - - -
celebrate - - celebrating
turn - - -
speak spoke spoken -
volunteer - - -
help - - -
promote - - -
propose - - -
hand - - -
retrain - - -
reschedule - - rescheduling
shift - - -
happen - - -
raise - - raising
increase - - increasing
lower - - -
cut cut cut cutting
become became become becoming
find found found -
warm - - -
develop - - -
acquire - - acquiring
choose chose chosen choosing
beat beat beaten -
stick stuck stuck -
drop dropped dropped dropping
train - - -
apprentice - - apprenticing
prepare - - preparing
revise - - revising
cram crammed crammed cramming
enrol enrolled enrolled enrolling
commute - - commuting
walk - - -
catch caught caught -
ride rode ridden riding
hop hopped hopped hopping
pass - - -
die died died dying
lose lost lost losing
bury buried buried -
put put put putting
say said said -
split split split splitting
see saw seen -
hear heard heard -
treat - - -
afford - - -
upgrade - - upgrading
bring brought brought -
fall fell fallen -
try tried tried -
follow - - -
pick picked picked -
meet met met -
mind - - -
teach taught taught -
visit - - -
tour - - -
explore - - exploring
own - - -
rent - - -
lease - - leasing
trade - - trading
swap swapped swapped swapping
exchange - - exchanging
qualify qualified qualified -
listen - - -
part - - -
persuade - - persuading
convince - - convincing
cancel cancelled cancelled cancelling
postpone - - postponing
rebook - - -
confirm - - -
decide - - deciding
realise - - realising
realize - - realizing
forget forgot forgotten forgetting
remember - - -
believe - - believing
know knew known -
win won won winning
ditch - - -
dump - - -
scrap scrapped scrapped scrapping
rehome - - rehoming
recycle - - recycling
injure - - injuring
sprain - - -
damage - - damaging
bruise - - bruising
rupture - - rupturing
strain - - -
hurt hurt hurt -
dislocate - - dislocating
twist - - -
tear tore torn tearing
fracture - - fracturing
recover - - -
suffer - - -
diagnose - - diagnosing
babysit babysat babysat babysitting
encourage - - encouraging
convert - - -
kick - - -
push - - -
bump bumped bumped bumping`

// verbIndex maps every known verb form to its lemma and form.
var verbIndex = func() map[string]struct {
	lemma string
	form  verbForm
} {
	idx := make(map[string]struct {
		lemma string
		form  verbForm
	})
	put := func(w, lemma string, f verbForm) {
		if _, exists := idx[w]; !exists || f == formBase {
			idx[w] = struct {
				lemma string
				form  verbForm
			}{lemma, f}
		}
	}
	for _, line := range strings.Split(verbSpecs, "\n") {
		p := strings.Fields(line)
		if len(p) != 4 {
			continue
		}
		lemma := p[0]
		past, part, ing := p[1], p[2], p[3]
		if past == "-" {
			past = regularPast(lemma)
		}
		if part == "-" {
			part = past
		}
		if ing == "-" {
			ing = lemma + "ing"
		}
		put(lemma, lemma, formBase)
		put(thirdPerson(lemma), lemma, formS)
		put(past, lemma, formPast)
		if part != past {
			put(part, lemma, formPart)
		}
		put(ing, lemma, formIng)
	}
	// Colloquial spellings.
	put("learnt", "learn", formPast)
	put("dreamt", "dream", formPast)
	put("travelled", "travel", formPast)
	put("travelling", "travel", formIng)
	put("got", "get", formPast)
	put("practised", "practise", formPast)
	return idx
}()

func regularPast(lemma string) string {
	switch {
	case strings.HasSuffix(lemma, "e"):
		return lemma + "d"
	case strings.HasSuffix(lemma, "y") && !strings.ContainsRune("aeiou", rune(lemma[len(lemma)-2])):
		return lemma[:len(lemma)-1] + "ied"
	}
	return lemma + "ed"
}

func thirdPerson(lemma string) string {
	switch {
	case lemma == "have":
		return "has"
	case lemma == "do", lemma == "go":
		return lemma + "es"
	case strings.HasSuffix(lemma, "s"), strings.HasSuffix(lemma, "sh"), strings.HasSuffix(lemma, "ch"),
		strings.HasSuffix(lemma, "x"), strings.HasSuffix(lemma, "z"):
		return lemma + "es"
	case strings.HasSuffix(lemma, "y") && !strings.ContainsRune("aeiou", rune(lemma[len(lemma)-2])):
		return lemma[:len(lemma)-1] + "ies"
	}
	return lemma + "s"
}

// participles are the past participles of the known verbs, including the
// ones spelled like their base ("become", "come", "run", "quit").
var participles = func() map[string]bool {
	m := make(map[string]bool)
	for _, line := range strings.Split(verbSpecs, "\n") {
		p := strings.Fields(line)
		if len(p) != 4 {
			continue
		}
		part := p[2]
		if part == "-" {
			part = p[1]
			if part == "-" {
				part = regularPast(p[0])
			}
		}
		m[part] = true
	}
	return m
}()

// verbOf returns the lemma and form of a known verb token.
func verbOf(w string) (string, verbForm, bool) {
	v, ok := verbIndex[w]
	return v.lemma, v.form, ok
}

// gerunds maps each known lemma to its -ing form, as spelled in verbSpecs.
var gerunds = func() map[string]string {
	m := make(map[string]string)
	for _, line := range strings.Split(verbSpecs, "\n") {
		p := strings.Fields(line)
		if len(p) != 4 {
			continue
		}
		if p[3] == "-" {
			m[p[0]] = p[0] + "ing"
		} else {
			m[p[0]] = p[3]
		}
	}
	return m
}()

// gerund returns the -ing form of a lemma ("paint" → "painting").
func gerund(lemma string) string {
	if g, ok := gerunds[lemma]; ok {
		return g
	}
	if strings.HasSuffix(lemma, "e") && !strings.HasSuffix(lemma, "ee") {
		return lemma[:len(lemma)-1] + "ing"
	}
	return lemma + "ing"
}

// thirdPersonOf conjugates a known lemma for a third-person subject.
func thirdPersonOf(lemma string) string { return thirdPerson(lemma) }

// otherVerbs are common verbs no rule reads; knowing them tells "going to
// show my paintings" (a future) from "going to the show" (a trip).
var otherVerbs = wordSet(`show,open,put,help,finish,try,see,meet,host,throw,organize,organise,launch,release,
apply,hang,spend,bring,check,teach,say,tell,ask,call,text,send,share,post,write,record,film,shoot,fix,clean,
pick,grab,order,book,invite,sign,register,donate,raise,run,finish,complete,submit,present,perform,sing,
dance,play,watch,read,cook,bake,make,build,paint,draw,design,decorate,sell,buy,rent,visit,explore,relax,
rest,sleep,celebrate,hike,swim,camp,travel,fly,drive,ride,walk,train,practice,practise,work,study,learn,
teach,volunteer,adopt,foster,move,stay,leave,quit,start,begin,stop,continue,keep,go,come,get,have,take,
give,find,look,think,talk,chat,catch,hear,listen,feel,need,want,plan,hope,love,like,enjoy,pursue,become,
create,support,join,attend,finish,let,do,be,see,set,use,change,switch,improve,figure,focus,reach,achieve`)
