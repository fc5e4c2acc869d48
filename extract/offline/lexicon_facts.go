package offline

// The words the recognisers key on, as data: which verbs name hobbies and
// outings, how strongly each verb of liking likes, which adjectives take a
// complement of liking, which words are currencies. The recognisers hold
// the logic; extending what one understands is usually extending a table
// here or in lexicon.go. All tables are immutable after initialization.

// People and pets (kin, couples).

// relativeAdjectives may sit between "my" and a role word.
var relativeAdjectives = wordSet(`little,older,younger,big,baby,best,new,eldest,oldest,youngest,twin,dear,lovely,
late,sweet,beautiful,wonderful,amazing,awesome,close,good,old,two,three,four,five,six,adorable,cute,own,rescue,
rescued,elderly,grown-up,teenage,newborn,ageing,aging,beloved`)

// Work and study.

// groupNouns head groups one joins as a member rather than as an employee ("I joined a book club").
var groupNouns = wordSet(`club,group,program,programme,team,band,gym,class,choir,community,society,
association,league,union,church,network,organization,organisation,committee,board,course,circle,crew,movement,
orchestra,ensemble,troupe,quartet,squad,collective,co-op,cooperative`)

// leftGroupNouns head groups one leaves as a member ("I left the choir").
var leftGroupNouns = wordSet(`club,group,band,team,gym,choir,program,class`)

// heldJobNouns name a job one quits or leaves ("I quit my job at Initech").
var heldJobNouns = wordSet(`job,position,role,post`)

// jobModifiers may sit before the job in "my new job is at Spotify".
var jobModifiers = wordSet(`new,current,first,dream,old,previous,day`)

// jobFrameNouns are what "my ... is" can say about work ("my employer is Initech").
var jobFrameNouns = wordSet(`job,employer,company,workplace,role,title,position,profession,occupation`)

// gainedJobNouns name a job one gets ("I got an internship at Globex").
var gainedJobNouns = wordSet(`job,position,role,offer,internship,post,promotion`)

// jobQualities describe a job without naming it ("a new job", "the
// full-time post", "my dream role"): no title.
var jobQualities = wordSet(`new,full,part,time,permanent,temporary,fixed,term,better,dream,first,second,proper,big,great,good,
summer,weekend,evening,night,local,remote,paid,unpaid,actual,real,same,old,other,next,last,top,senior,junior,entry,level,
full-time,part-time,fixed-term,entry-level,well-paid,low-paid,one,two,three`)

// notStudySubjects follow "study" without being studied ("I study hard").
var notStudySubjects = wordSet(`hard,abroad,online,together,late,more,less,alone,daily,everyday,tonight,remotely`)

// schoolNouns head the names of places of study ("I attend Stanford University").
var schoolNouns = wordSet(`university,college,school,academy,institute`)

// lessonNouns end what one takes to learn ("I'm taking Spanish lessons").
var lessonNouns = wordSet(`class,classes,lesson,lessons,course,courses`)

// Tastes and favourites.

// likeStrength grades the liking verbs.
var likeStrength = map[string]float64{
	"love": 0.9, "adore": 0.9, "like": 0.7, "enjoy": 0.7, "fancy": 0.6,
	"hate": 0.9, "detest": 0.9, "loathe": 0.9, "despise": 0.9, "dislike": 0.7, "stand": 0.9,
}

// likeAdjectives map adjectives of liking to the prepositions they take.
var likeAdjectives = map[string]string{
	"obsessed": "with", "crazy": "about", "passionate": "about", "keen": "on", "fond": "of",
	"addicted": "to", "hooked": "on", "mad": "about", "nuts": "about", "enthusiastic": "about",
	"partial": "to", "big": "on", "wild": "about",
}

// tasteNounsFor are what one develops or has for a thing one likes ("a
// taste for", "a soft spot for", "a weakness for").
var tasteNounsFor = wordSet(`taste,liking,fondness,love,passion,appetite,weakness,penchant,soft,spot,thing,obsession,craving`)

// drinks are the foods that are drunk (preference slot "drink").
var drinks = wordSet(`coffee,espresso,latte,cappuccino,tea,green tea,black tea,herbal tea,matcha,chai,water,
juice,orange juice,soda,coke,cola,beer,wine,red wine,white wine,whiskey,whisky,vodka,gin,rum,tequila,
cocktail,smoothie,lemonade,kombucha,hot chocolate,milk,oat milk,almond milk`)

// intoNotTastes are what one gets into without taking to it ("I got into
// trouble", "got into college").
var intoNotTastes = wordSet(`trouble,accident,fight,argument,debt,college,school,university,program,shape,
character`)

// fanModifiers may sit before "fan" ("a big fan of jazz").
var fanModifiers = wordSet(`big,huge,massive,great,lifelong,die-hard,diehard,longtime,long-time,true,real,total,complete,
absolute,serious,proper,hopeless,self-confessed,self-professed,avid,keen`)

// notAversions are "too" complaints about circumstances, not tastes ("Life's too short").
var notAversions = wordSet(`life,time,world,day,weather,traffic,price,prices,rent,wait,line,queue,year,week,month`)

// favouriteModifiers may sit before "favourite" ("my all-time favourite").
var favouriteModifiers = wordSet(`new,all-time,absolute,current,personal,very,ultimate,top,biggest,latest,most`)

// Money.

var currencies = wordSet(`euro,euros,eur,dollar,dollars,usd,bucks,pound,pounds,gbp,quid,yen,jpy,franc,francs,
chf,rupee,rupees,inr,aud,cad,sek,nok,dkk,pln,yuan,rmb,won,pesos,peso,reais,real,krona,kronor,kroner`)

// amountHedges may precede a sum of money ("about 500 dollars").
var amountHedges = wordSet(`about,around,roughly,approximately,up,to,only,just,now,still,max,maximum,under,over`)

// amountMultipliers scale a number into a sum ("3 grand").
var amountMultipliers = wordSet(`k,thousand,million,grand`)

// budgetChangeVerbs say a budget changed ("my trip budget went up to 4000 dollars").
var budgetChangeVerbs = wordSet(`went,goes,rose,increased,decreased,dropped,changed,grew,fell,moved,is`)

// Schedules.

// scheduleMoveVerbs say an occasion moved ("the team meeting moved to Thursdays").
var scheduleMoveVerbs = wordSet(`moved,rescheduled,changed,shifted,switched,pushed,bumped,brought,postponed,
delayed,put,back,forward,rearranged,swapped`)

// scheduleHappenVerbs say when an occasion is ("the meeting takes place on Mondays").
var scheduleHappenVerbs = wordSet(`happens,happen,falls,fall,takes,take,place,occurs,occur,meets,meet,runs,run,
starts,start,held,kicks,off`)

// Hobbies and outings.

// goVerbs are activities said with "go" ("I go running", "went camping").
var goVerbs = wordSet(`running,jogging,swimming,hiking,camping,cycling,biking,skiing,snowboarding,surfing,
climbing,fishing,dancing,skating,sailing,kayaking,canoeing,bowling,shopping,walking,riding,diving,snorkeling,
rowing,hunting,birdwatching,backpacking,clubbing,boating,sledding,paddleboarding`)

// activityVerbs map hobby verbs to their activity name.
var activityVerbs = wordSet(`run,swim,paint,draw,cook,bake,hike,dance,sing,write,knit,garden,surf,ski,climb,
meditate,jog,cycle,bike,camp,fish,read,brew,sew,crochet,boulder`)

// creations are verbs whose past tense with an object makes something.
var creations = wordSet(`paint,draw,make,cook,bake,write,knit,build,compose,create`)

// irregularPast lists the past tenses pastOf cannot derive.
var irregularPast = map[string]string{
	"paint": "painted", "draw": "drew", "make": "made", "cook": "cooked", "bake": "baked", "write": "wrote",
	"knit": "knitted", "build": "built", "compose": "composed", "create": "created", "read": "read",
}

// abstractObjects are things one "makes" that are not creations.
var abstractObjects = wordSet(`wish,decision,friend,difference,mistake,progress,change,plan,effort,point,sense,money,
time,memory,call,choice,mess,list,deal,move,impact,connection,step,way,promise,appointment,reservation,
booking,joke,comment,noise,peace,use,fun,sure,it,living,breakfast,lunch,dinner,bed,tea,coffee,room,space,
contact,friendship,arrangement,progress,improvement,amends,sacrifice,commitment,statement,speech,trip`)

// tastedObjects are the abstract objects of "make" that are still things
// one likes or not ("coffee just isn't doing it for me anymore").
var tastedObjects = wordSet(`tea,coffee,breakfast,lunch,dinner`)

// startedCreations are things one starts that one then has made ("I started a blog").
var startedCreations = wordSet(`blog,business,company,podcast,channel,band,club,garden,project,shop,startup,
nonprofit,charity`)

// notHobbyParticles after a hobby verb make it another verb ("I ran into a group", "we ran out of time").
var notHobbyParticles = wordSet(`into,out,over,across,away,off,by,up,down,through,late,low,short,behind,
errands,late`)

// notHobbyObjects follow a hobby verb without being its object ("I paint a lot", "I run daily").
var notHobbyObjects = wordSet(`lot,bit,more,less,daily,weekly,regularly,often,together,alone,outside,home`)

// workWritings are what one writes at work rather than as a pastime ("I
// write Python", "I write emails all day").
var workWritings = wordSet(`code,python,javascript,typescript,java,rust,golang,sql,scripts,script,software,apps,tests,
emails,email,reports,report,documentation,docs,invoices,minutes,memos,proposals,specs,tickets`)

// raceNouns are what one runs as an event ("I ran a charity race").
var raceNouns = wordSet(`race,marathon,5k,10k,half-marathon,triathlon,relay`)

// tripNouns are journeys taken to a place ("we took a trip to Peru").
var tripNouns = wordSet(`trip,vacation,holiday,tour,cruise`)

// showNouns are what one watches ("I watched a documentary").
var showNouns = wordSet(`movie,film,show,series,documentary,game,match,play,musical`)

// Plans.

// vagueVerbs name no plan worth remembering ("I'll start thinking about it").
var vagueVerbs = wordSet(`think,look,try,figure,feel,talk,say,tell,see,know,wonder,keep,do,be,get,make,let,
help,need,find,check,ask,hear,come,go,put,catch,chat,mean,reflect,remember,take,give,use`)

// goalNouns are what "my goal is to ..." can name.
var goalNouns = wordSet(`goal,dream,plan,aim,hope,wish,ambition`)

// Identity.

// identityBlock are heads that do not make an identity ("a bit", "a lot").
var identityBlock = wordSet(`bit,lot,little,while,mess,wreck,fool,sucker,pro,natural,part,member,kind,sort,way,
fan,believer,fun,blast,joy,pleasure,lucky,one,thing,person,big,huge,day,time,moment,journey,work,progress,
chance,need,must,dream,goal,step,lesson,reminder,sign,start,beginning,bunch,couple,few,number,ton,tons,
mix,step,good,great,nice,real,true,total,complete,perfect,bad,terrible,better,best,fan`)

// groupActivities are done in a group one belongs to ("I sing in a choir",
// "I play in a band", "I row for the club").
var groupActivities = wordSet(`sing,play,dance,row,perform,act,race,compete,swim,run,cycle,ride,drum,volunteer`)

// kinTitles are the words a speaker calls a parent or grandparent by, as a
// name ("Mum says...", "Dad moved to Spain"), and the role each names in
// relations.
var kinTitles = map[string]string{"mum": "mum", "mom": "mom", "mam": "mum", "ma": "mum", "mammy": "mum",
	"mommy": "mommy", "mama": "mama", "dad": "dad", "da": "dad", "pa": "dad", "daddy": "daddy", "papa": "papa",
	"nan": "nan", "nana": "nana", "gran": "gran", "granny": "granny", "grandma": "grandma", "grandpa": "grandpa",
	"grandad": "grandad", "granddad": "granddad"}
