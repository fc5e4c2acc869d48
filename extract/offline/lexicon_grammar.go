package offline

// The function words and phrases the clause analysis reads: fillers and
// evidential openers stripped from a clause, the words that make a sentence
// hypothetical, participles read as copula complements. All tables are
// immutable after initialization.

// leadFillers are words a clause may start with that carry no content.
var leadFillers = wordSet(`yeah,yes,yep,yup,oh,wow,well,so,and,but,also,actually,anyway,anyways,btw,okay,hey,
hi,hello,haha,hahaha,lol,um,uh,hmm,plus,then,honestly,basically,seriously,big,news,update,fun,fact,ps,sadly,
unfortunately,luckily,fortunately,finally,ah,aw,aww,omg,oops,alright,right,besides,anyhow,speaking,
guess,what,quick,heads,side,note,by,the,way,totally,absolutely,definitely,indeed,thankfully,hopefully,
surprisingly,interestingly,funny,enough,good,great,cool,awesome,nice,dear,mel,sure,true,exactly,same,
ok,thanks,thank,you,agreed,bummer,congrats,mate,buddy,dude,man,sis,bro,friend,officially,ugh,phew,
because,since,when,while,although,though,after,before,once,until,whereas,&,or,cause,as,yeah,
,`)

// evidentials are prefixes that wrap a statement without changing whose it
// is; hedging ones lower the confidence.
var evidentials = []struct {
	words []string
	hedge bool
}{
	{[]string{"i", "found", "out"}, false}, {[]string{"i", "just", "found", "out"}, false},
	{[]string{"i", "realized"}, false}, {[]string{"i", "realised"}, false}, {[]string{"i", "discovered"}, false},
	{[]string{"i", "noticed"}, false}, {[]string{"it", "turns", "out"}, false}, {[]string{"turns", "out"}, false},
	{[]string{"i", "have", "to", "say"}, false}, {[]string{"i", "must", "say"}, false},
	{[]string{"to", "be", "honest"}, false}, {[]string{"i", "can", "tell", "you"}, false},
	{[]string{"i", "wanted", "to", "tell", "you"}, false}, {[]string{"i", "want", "to", "tell", "you"}, false},
	{[]string{"i", "forgot", "to", "mention"}, false}, {[]string{"i", "should", "mention"}, false},
	{[]string{"as", "you", "know"}, false}, {[]string{"you", "know"}, false}, {[]string{"not", "me"}, false},
	{[]string{"i", "think"}, true}, {[]string{"i", "guess"}, true}, {[]string{"i", "believe"}, true},
	{[]string{"i", "suppose"}, true}, {[]string{"i", "feel", "like"}, true}, {[]string{"i", "would", "say"}, true},
	{[]string{"i", "am", "pretty", "sure"}, false}, {[]string{"i", "am", "not", "sure", "but"}, true},
	{[]string{"maybe"}, true}, {[]string{"perhaps"}, true}, {[]string{"probably"}, true}, {[]string{"possibly"}, true},
}

// hypotheticalStarts open conditions, wishes and imaginings: nothing in
// the rest of the sentence is asserted.
var hypotheticalStarts = wordSet(`if,unless,whether,imagine,suppose,supposing,assuming,hypothetically,wish,
pretend,say,let's`)

// fillerPhrases are multi-word openers with no content.
var fillerPhrases = [][]string{
	{"by", "the", "way"}, {"guess", "what"}, {"big", "news"}, {"fun", "fact"}, {"side", "note"},
	{"quick", "update"}, {"heads", "up"}, {"thank", "you"}, {"good", "news"}, {"great", "news"},
	{"the", "thing", "is"}, {"long", "story", "short"}, {"in", "fact"}, {"to", "be", "fair"},
	// discourse openers before a comma ("Funny thing, jazz has grown on me")
	{"funny", "thing", ","}, {"funnily", "enough"}, {"oddly", "enough"}, {"strangely", "enough"},
	{"believe", "it", "or", "not"}, {"truth", "be", "told"}, {"to", "be", "honest"}, {"you", "know", "what", ","},
	{"weirdly", ","}, {"surprisingly", ","}, {"plot", "twist"},
}

// contextFillers are fillers only when a comma follows ("Great, I ...").
var contextFillers = wordSet(`good,great,nice,cool,awesome,sure,true,exactly,same,right,well,man,dude`)

// passiveFrames are participles read by the copula rules.
var passiveFrames = wordSet(`base,settle,marry,divorce,hire,employ,bear,engage,name,call,schedule,reschedule,
move,locate,raise,obsess,enroll,retire,adopt,date,diagnose`)

// nameStop are capitalized words that are not names.
var nameStop = wordSet(`i,the,a,an,my,our,your,his,her,their,its,this,that,these,those,hey,hi,hello,wow,oh,
yeah,yes,no,ok,okay,thanks,thank,sure,well,so,and,but,or,if,when,what,where,why,how,who,which,just,also,
omg,lol,haha,hmm,um,dear,mr,mrs,ms,dr,great,good,nice,cool,awesome,congrats,congratulations,sorry,please,
monday,tuesday,wednesday,thursday,friday,saturday,sunday,january,february,march,april,may,june,july,
august,september,october,november,december,today,tomorrow,yesterday,tonight,it's,i'm,don't,can't,user,
lgbtq,lgbt,lgbtq+,he,she,we,they,you,me,there,here,not,never,maybe,love,thx,btw,anyway,actually,really,
totally,definitely,absolutely,speaking,guess,big,update,news,note,fun,fact,also,plus,oops,aww,yay,ah,
woohoo,hooray,bravo,cheers,alright,hope,let's,gonna,wanna,ps,p.s,it,is,am,are,was,were`)

// Tokenizing: contractions, chat spellings, and the words that open questions and clauses.

// isContractors expand "'s" to "is" after these words; after any other
// word "'s" is a possessive.
var isContractors = wordSet(`it,he,she,that,there,here,what,who,where,how,when,why,everything,something,
nothing,everyone,someone,this,life,today,tomorrow`)

// isAfterCopula are words that follow "is" but never a possessive, so
// "Blue's my fave" reads "blue is my favourite".
var isAfterCopula = wordSet(`my,your,his,her,our,their,a,an,not,so,really,very,just,also,still,now,always,
gonna,going,too,such,pretty,quite,definitely,absolutely,totally,probably,actually,awesome,amazing,great,
in,on,at,from,been,got`)

// hasAfterContraction are past participles that make a "'s" read "has",
// never a possessive ("my sister's gone vegan", "Sam's moved to Leeds");
// a participle that is also an adjective before a noun ("broken") is not
// listed.
var hasAfterContraction = wordSet(`gone,moved,started,left,quit,finished,taken,given,joined,bought,sold,split,passed,
retired,switched,stopped,decided,found,landed,signed,become,begun,done,seen,met,married,adopted,lost,won,
changed,booked,applied,enrolled,graduated,relocated,transferred,dropped,got,gotten`)

// isBeforeState are words that make a "'s" read "is" before a state or an
// ongoing change ("my girlfriend's vegan", "my brother's moving to Oslo");
// "-ing" words that are also nouns ("wedding", "cooking") are not listed.
var isBeforeState = wordSet(`vegan,vegetarian,pescatarian,pregnant,engaged,retired,single,allergic,sick,ill,
unemployed,moving,getting,starting,leaving,working,living,dating,seeing,expecting,going,studying,training,
learning,trying,staying,teaching,doing,off,back,away,now,still,also,finally,officially`)

// chatForms are common apostrophe-less spellings.
var chatForms = map[string][]string{
	"im": {"i", "am"}, "ive": {"i", "have"}, "dont": {"do", "not"}, "didnt": {"did", "not"},
	"doesnt": {"does", "not"}, "isnt": {"is", "not"}, "wasnt": {"was", "not"}, "arent": {"are", "not"},
	"havent": {"have", "not"}, "thats": {"that", "is"}, "gonna": {"going", "to"}, "wanna": {"want", "to"},
	"gotta": {"got", "to"}, "kinda": {"kind", "of"}, "sorta": {"sort", "of"}, "cannot": {"can", "not"},
	"couldnt": {"could", "not"}, "wouldnt": {"would", "not"}, "shouldnt": {"should", "not"},
	"favorite": {"favourite"}, "favorites": {"favourites"}, "favourites": {"favourites"},
	"fave": {"favourite"}, "fav": {"favourite"}, "go-to": {"favourite"}, "rn": {"now"},
	// chat markers of tone carry no words of the statement ("not a fan of
	// musicals tbh", "obsessed with padel rn")
	"tbh": {}, "tbf": {}, "ngl": {}, "lol": {}, "lmao": {}, "imo": {}, "imho": {}, "fr": {}, "smh": {}, "coz": {"because"}, "cuz": {"because"}, "'cause": {"because"},
	"cause": {"because"}, "bc": {"because"}, "tho": {"though"}, "pls": {"please"}, "ur": {"your"},
	"ok": {"okay"}, "u": {"you"}, "bday": {"birthday"}, "b-day": {"birthday"}, "edu": {"education"},
}

var questionStarters = wordSet(`do,does,did,are,is,was,were,have,has,can,could,would,will,should,shall,may,
might,am,what,where,when,why,how,who,which,whose,whom`)

var subjectPronouns = wordSet(`i,you,we,they,he,she,it`)

// auxiliaries are the helping verbs parsed between a subject and its verb.
var auxiliaries = wordSet(`am,is,are,was,were,be,been,being,do,does,did,have,has,had,will,would,shall,
should,can,could,may,might,must`)

// clauseBreakers always start a new clause.
var clauseBreakers = wordSet(`because,but,so,although,though,while,whereas,since,which,who,cause,unless,
whenever,until,if,when,where,after,before,once`)

// stanceAdverbs open a sentence with the speaker's attitude to it and
// change nothing it states ("Weirdly the treadmill is my favourite bit",
// "Honestly I've gone off oysters").
var stanceAdverbs = wordSet(`weirdly,oddly,strangely,funnily,surprisingly,honestly,frankly,luckily,sadly,unfortunately,
thankfully,fortunately,basically,literally,seriously,truthfully,obviously,personally,admittedly,ironically,
interestingly,hopefully,happily,annoyingly,embarrassingly,predictably`)

// clauseAdverbs may sit between a conjunction and the next clause's start.
var clauseAdverbs = wordSet(`now,then,also,still,just,really,actually,recently,finally,currently,today,
later,even,sometimes,usually,often,always,never,soon,already,lately,now,afterwards,suddenly,eventually,
honestly,frankly,luckily,sadly,unfortunately,thankfully,basically,literally,seriously,truthfully,weirdly,oddly,
funnily,surprisingly,obviously,personally,admittedly`)

// Noun phrases: what opens, skips, ends and counts in one.

// determiners open a noun phrase; possessives among them say who owns it.
var determiners = wordSet(`a,an,the,my,our,your,his,her,their,its,this,that,these,those,some,any,every,each,
another,no,one's,both,all`)

// npSkipAdjectives are dropped from the start of a phrase: they describe
// the moment, not the thing ("my new car" is the car).
var npSkipAdjectives = wordSet(`new,old,own,current,first,latest,little,brand-new,whole,same,real,actual,
favourite,usual,very,super,really,huge,big,massive,second,third,next,last,nice,lovely,beautiful,amazing,
awesome,cute,great,good,sweet,adorable,gorgeous,wonderful,fantastic,cool,special,lil,second-hand,secondhand,
cheap,refurbished,pre-loved,shiny`)

// npStop ends a noun phrase.
var npStop = wordSet(`and,or,but,because,so,since,as,when,while,if,though,although,until,that,which,who,
whom,whose,where,in,at,on,for,with,from,to,by,about,after,before,during,into,over,under,near,without,than,
like,every,each,now,too,also,anymore,again,either,yet,already,today,yesterday,tomorrow,tonight,really,very,
still,lately,recently,there,here,is,are,was,were,am,be,been,being,have,has,had,do,does,did,will,would,
can,could,should,may,might,must,not,no,never,i,you,he,she,it,we,they,me,him,us,them,myself,just,then,
instead,rather,even,well,anyway,honestly,itself,himself,herself,themselves,yourself,ourselves,these,those,this,named,called,whose,every,because,around,through,
across,against,between,among,up,down,off,out,away,back,right,ago,lol,haha,please,thanks,plus,including,
except,besides,via,per,anymore,nowadays,currently,always,usually,often,sometimes,together,alone,tho,though,
cause,til,till,was,its,own,more,most,less,much,many,lot,lots,bit,kind,sort,such,quite,pretty,so,what,why,how`)

// lyWords end in -ly but are nouns or adjectives a name can be followed by.
var lyWords = wordSet(`family,belly,rally,jelly,bully,lily,ally,holly,folly,gully,daily,weekly,monthly,yearly,
early,only,lovely,friendly,lonely,likely,ugly,holy,silly,jolly,curly,chilly,elderly,costly,deadly,lively,
italy,sicily,kelly,emily,molly,sally,polly,billy,willy,tully,reilly,ashley,manly,orderly,assembly,supply,reply,
comply,apply,multiply,butterfly,dragonfly,firefly,monopoly,anomaly,homily,melancholy`)

// pronounObjects are objects that name nothing by themselves.
var pronounObjects = wordSet(`it,this,that,these,those,them,him,her,me,us,you,one,ones,something,anything,
everything,nothing,someone,anyone,everyone,stuff,things,thing,lot,lots,all,both,none,some,any,myself,
yourself,himself,herself,ourselves,themselves,mine,yours,hers,ours,theirs,there,here,what,which,who,whom`)

// containers are measures whose content is the real object.
var containers = wordSet(`glass,cup,mug,bottle,bowl,slice,piece,plate,pint,can,bag,box,bunch,bit,lot,kind,
type,sort,couple,pair,scoop,spoonful,handful,shot,jar,pot,taste,smell,texture,flavour,flavor,sound,idea`)

var numberWords = wordSet(`one,two,three,four,five,six,seven,eight,nine,ten,eleven,twelve,couple,few,several`)

// ingNouns end in -ing but are not gerunds.
var ingNouns = wordSet(`thing,something,nothing,anything,everything,morning,evening,ring,king,wedding,building,
ceiling,spring,string,sibling,darling,pudding,offspring,meeting,clothing,painting,drawing,evening,earring,
feeling,setting,ending,beginning,outing,crossing,landing,opening,reading,writing,ceiling,wing,sting,swing,
lightning,stuffing,icing,frosting,filling,dumpling,pending,savings,belongings,surroundings,gathering,
listing,posting,rating,booking,timing,training,coaching,counseling,counselling,parenting,housing,funding,
seasoning,dressing,bedding,lasagna,blessing,recording,finding,saying,being,cling,bring,during`)

// gerundStop ends a gerund phrase.
var gerundStop = wordSet(`because,but,so,since,when,while,which,who,that,if,than,though,although,as,every,each,
more,really,too,also,again,anymore,now,lately,recently,together,lol,is,are,was,were,am,be,been,has,have,had,
will,would,can,could,should,may,might,must,do,does,did,not,never,i,you,he,she,we,they,it,them,him,me,us,
this,these,those,there,here,very,just,even,always,often,sometimes,usually,then,after,before,until,because,
like,instead,rather,either,whether,how,what,why,where,cause,tho`)

// durationNouns measure a span of time ("after ten years", "within a month").
var durationNouns = wordSet(`year,month,week,day,decade,summer,winter,while,age,fortnight,semester,term,season`)

// binomials are the pairs joined by "and" that name one thing ("fish and
// chips", "drum and bass"), by their two words; a list does not split
// them. The list grows by a pair.
var binomials = wordSet(`fish chips,mac cheese,macaroni cheese,salt vinegar,bread butter,gin tonic,rum coke,whisky coke,
rock roll,drum bass,rhythm blues,r b,sweet sour,surf turf,bangers mash,pie mash,rice peas,strawberries cream,
dungeons dragons,arts crafts,hide seek,egg chips,pie chips,sausage mash,butter jelly,pb j,bed breakfast,
bubble squeak,ham eggs,bacon eggs,steak chips,curry chips,cheese onion`)
