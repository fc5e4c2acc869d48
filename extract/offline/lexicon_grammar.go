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
}

// contextFillers are fillers only when a comma follows ("Great, I ...").
var contextFillers = wordSet(`good,great,nice,cool,awesome,sure,true,exactly,same,right,well,man,dude`)

// passiveFrames are participles read by the copula rules.
var passiveFrames = wordSet(`base,settle,marry,divorce,hire,employ,bear,engage,name,call,schedule,reschedule,
move,locate,raise,obsess,enroll,retire,adopt,date`)

// nameStop are capitalized words that are not names.
var nameStop = wordSet(`i,the,a,an,my,our,your,his,her,their,its,this,that,these,those,hey,hi,hello,wow,oh,
yeah,yes,no,ok,okay,thanks,thank,sure,well,so,and,but,or,if,when,what,where,why,how,who,which,just,also,
omg,lol,haha,hmm,um,dear,mr,mrs,ms,dr,great,good,nice,cool,awesome,congrats,congratulations,sorry,please,
monday,tuesday,wednesday,thursday,friday,saturday,sunday,january,february,march,april,may,june,july,
august,september,october,november,december,today,tomorrow,yesterday,tonight,it's,i'm,don't,can't,user,
lgbtq,lgbt,lgbtq+,he,she,we,they,you,me,there,here,not,never,maybe,love,thx,btw,anyway,actually,really,
totally,definitely,absolutely,speaking,guess,big,update,news,note,fun,fact,also,plus,oops,aww,yay,ah,
woohoo,hooray,bravo,cheers,alright,hope,let's,gonna,wanna,ps,p.s,it,is,am,are,was,were`)
