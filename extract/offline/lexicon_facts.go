package offline

// The words the recognisers key on, as data: which verbs name hobbies and
// outings, how strongly each verb of liking likes, which adjectives take a
// complement of liking, which words are currencies. The recognisers hold
// the logic; extending what one understands is usually extending a table
// here or in lexicon.go. All tables are immutable after initialization.

// goVerbs are activities said with "go" ("I go running", "went camping").
var goVerbs = wordSet(`running,jogging,swimming,hiking,camping,cycling,biking,skiing,snowboarding,surfing,
climbing,fishing,dancing,skating,sailing,kayaking,canoeing,bowling,shopping,walking,riding,diving,snorkeling,
rowing,hunting,birdwatching,backpacking,clubbing,boating,sledding,paddleboarding`)

// abstractObjects are things one "makes" that are not creations.
var abstractObjects = wordSet(`wish,decision,friend,difference,mistake,progress,change,plan,effort,point,sense,money,
time,memory,call,choice,mess,list,deal,move,impact,connection,step,way,promise,appointment,reservation,
booking,joke,comment,noise,peace,use,fun,sure,it,living,breakfast,lunch,dinner,bed,tea,coffee,room,space,
contact,friendship,arrangement,progress,improvement,amends,sacrifice,commitment,statement,speech,trip`)

// creations are verbs whose past tense with an object makes something.
var creations = wordSet(`paint,draw,make,cook,bake,write,knit,build,compose,create`)

// activityVerbs map hobby verbs to their activity name.
var activityVerbs = wordSet(`run,swim,paint,draw,cook,bake,hike,dance,sing,write,knit,garden,surf,ski,climb,
meditate,jog,cycle,bike,camp,fish,read`)

// irregularPast lists the past tenses pastOf cannot derive.
var irregularPast = map[string]string{
	"paint": "painted", "draw": "drew", "make": "made", "cook": "cooked", "bake": "baked", "write": "wrote",
	"knit": "knitted", "build": "built", "compose": "composed", "create": "created", "read": "read",
}

// likeAdjectives map adjectives of liking to the prepositions they take.
var likeAdjectives = map[string]string{
	"obsessed": "with", "crazy": "about", "passionate": "about", "keen": "on", "fond": "of",
	"addicted": "to", "hooked": "on", "mad": "about", "nuts": "about", "enthusiastic": "about",
}

// identityBlock are heads that do not make an identity ("a bit", "a lot").
var identityBlock = wordSet(`bit,lot,little,while,mess,wreck,fool,sucker,pro,natural,part,member,kind,sort,way,
fan,believer,fun,blast,joy,pleasure,lucky,one,thing,person,big,huge,day,time,moment,journey,work,progress,
chance,need,must,dream,goal,step,lesson,reminder,sign,start,beginning,bunch,couple,few,number,ton,tons,
mix,step,good,great,nice,real,true,total,complete,perfect,bad,terrible,better,best,fan`)

// relativeAdjectives may sit between "my" and a role word.
var relativeAdjectives = wordSet(`little,older,younger,big,baby,best,new,eldest,oldest,youngest,twin,dear,lovely,
late,sweet,beautiful,wonderful,amazing,awesome,close,good,old,two,three,four,adorable,cute,own`)

// vagueVerbs name no plan worth remembering ("I'll start thinking about it").
var vagueVerbs = wordSet(`think,look,try,figure,feel,talk,say,tell,see,know,wonder,keep,do,be,get,make,let,
help,need,find,check,ask,hear,come,go,put,catch,chat,mean,reflect,remember,take,give,use`)

// likeStrength grades the liking verbs.
var likeStrength = map[string]float64{
	"love": 0.9, "adore": 0.9, "like": 0.7, "enjoy": 0.7, "fancy": 0.6,
	"hate": 0.9, "detest": 0.9, "loathe": 0.9, "despise": 0.9, "dislike": 0.7, "stand": 0.9,
}

// drinks are the foods that are drunk (preference slot "drink").
var drinks = wordSet(`coffee,espresso,latte,cappuccino,tea,green tea,black tea,herbal tea,matcha,chai,water,
juice,orange juice,soda,coke,cola,beer,wine,red wine,white wine,whiskey,whisky,vodka,gin,rum,tequila,
cocktail,smoothie,lemonade,kombucha,hot chocolate,milk,oat milk,almond milk`)

var currencies = wordSet(`euro,euros,eur,dollar,dollars,usd,bucks,pound,pounds,gbp,quid,yen,jpy,franc,francs,
chf,rupee,rupees,inr,aud,cad,sek,nok,dkk,pln,yuan,rmb,won,pesos,peso,reais,real,krona,kronor,kroner`)

// intoNotTastes are what one gets into without taking to it ("I got into
// trouble", "got into college").
var intoNotTastes = wordSet(`trouble,accident,fight,argument,debt,college,school,university,program,shape,character`)
