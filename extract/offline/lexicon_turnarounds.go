package offline

// The words of taste judgements and turnarounds (rules_turnarounds.go).
// A judgement about a kind of thing ("olives are revolting", "I find
// audiobooks tedious") is the speaker's liking or aversion; a turnaround
// verb ("come around on", "grew on me", "gone off") is a change of it.
// Each list grows by a word.

// evalPositive are adjectives that judge a thing good to the speaker.
var evalPositive = wordSet(`delicious,amazing,incredible,great,wonderful,fantastic,brilliant,lovely,tasty,addictive,
heavenly,divine,gorgeous,superb,awesome,excellent,magnificent,yummy,scrumptious,outstanding,glorious,fabulous,
underrated,unbeatable,fun,relaxing,soothing,fascinating,gripping,compelling,moreish,irresistible,enjoyable,pleasant,
satisfying,rewarding,refreshing,calming,comforting,uplifting,delightful,therapeutic,invigorating,cosy,cozy,
inspiring,energising,energizing,thrilling,exciting,motivating,peaceful,magical,charming`)

// evalNegative are adjectives that judge a thing bad to the speaker.
var evalNegative = wordSet(`revolting,disgusting,awful,horrible,gross,vile,terrible,boring,overrated,nasty,foul,
inedible,dull,tedious,unbearable,repulsive,dreadful,bland,tasteless,sickening,yucky,unpalatable,pointless,
tiresome,insufferable,grim,rank,naff,meh,horrid,atrocious,unwatchable,unlistenable,miserable,unpleasant,stressful,
exhausting,depressing,annoying,irritating,frustrating,draining,overwhelming,torture,hell,intimidating,daunting,
unnerving,off-putting,uncomfortable,claustrophobic,tiring,grating,cringey,cringeworthy,terrifying,scary,
nerve-wracking,nerve-racking`)

// evalVerbs are the copulas of a judgement besides "be" ("gin tastes
// horrible to me now").
var evalVerbs = wordSet(`taste,tastes,smell,smells,sound,sounds,seem,seems,feel,feels,look,looks`)

// evalAdverbs may stand between the copula and the adjective.
var evalAdverbs = wordSet(`so,really,just,absolutely,honestly,pretty,actually,now,totally,utterly,frankly,genuinely,
truly,seriously,quite,bloody,properly,too,always,completely,simply,kind,sort,of,super,incredibly,unbelievably,
deathly,painfully,mind-numbingly,insanely,ridiculously,crazy,wildly,massively,hugely,deeply,terribly,awfully,mega`)

// actsOnMePositive and actsOnMeNegative are the verbs of a thing acting on
// the speaker ("board games bore me", "sea swimming energises me").
var actsOnMePositive = wordSet(`delights,delight,thrills,thrill,excites,excite,fascinates,fascinate,relaxes,relax,calms,calm,
soothes,soothe,energises,energise,energizes,energize,enchants,enchant`)

var actsOnMeNegative = wordSet(`bores,bore,annoys,annoy,irritates,irritate,disgusts,disgust,sickens,sicken,repels,repel,
nauseates,nauseate,depresses,depress,exhausts,exhaust,infuriates,infuriate`)

// trailingAdverbs are adverbs a noun phrase may swallow at its end.
var trailingAdverbs = wordSet(`completely,entirely,anymore,altogether,lately,nowadays,again,recently,now,totally,forever,
before,previously,then,back,once,twice`)

// evalNounsPositive and evalNounsNegative are the nouns of a judgement
// said with an article ("cooking is a chore to me now", "the gym feels
// like a drag", "sea swimming is a joy"): the same judgement as an
// adjective, so evaluation reads them with one.
var evalNounsPositive = wordSet(`joy,treat,delight,pleasure,godsend,lifesaver,blast,dream,revelation`)

var evalNounsNegative = wordSet(`chore,drag,bore,nightmare,pain,hassle,faff,slog,grind,ordeal,struggle,
headache,turn-off,letdown,let-down,waste`)

// evalNounMarks may stand between the article and the noun of a judgement
// ("a real chore", "a bit of a drag", "an absolute joy", "such a faff").
var evalNounMarks = wordSet(`real,total,complete,absolute,bit,of,massive,huge,proper,right,such,bloody,utter`)

// hassleNouns follow "too much" in an aversion ("vinyl is too much faff",
// "camping is too much hassle these days").
var hassleNouns = wordSet(`faff,hassle,effort,work,bother,trouble,fuss,admin,stress`)

// tasteAgents are the nouns of someone keen on a thing ("a coffee
// drinker", "a chocolate addict", "a film buff"), as "fan" is.
var tasteAgents = wordSet(`drinker,eater,lover,addict,fiend,junkie,enthusiast,buff,nut,fanatic,aficionado,connoisseur,snob`)

// notTasteKinds are the adjectives and manners before a taste agent that
// name no thing ("a fussy eater", "a heavy drinker", "a social smoker").
var notTasteKinds = wordSet(`fussy,picky,light,heavy,big,huge,massive,social,messy,slow,fast,good,bad,healthy,clean,
emotional,regular,occasional,daily,nervous,hearty,adventurous,serious,casual,moderate,binge,secret,late-night,night,
stress,comfort,people`)

// offNotFood follow "off" without being a thing given up ("off work",
// "off sick", "off duty", "off the hook").
var offNotFood = wordSet(`work,sick,school,duty,today,tomorrow,tonight,home,shift,call,season,track,course,limits,grid,
radar,hook,mark,guard,balance,colour,color,topic,road,line,air,base,camera,script,peak,leave,holiday,week,weekend,day`)

// mannerAdverbs may stand between a verb of turning and its particle ("I've
// fallen hard for", "come right round to", "warmed up slowly to").
var mannerAdverbs = wordSet(`hard,completely,totally,fully,really,right,properly,truly,utterly,well,slowly,gradually,
finally,quite,somewhat,rather,genuinely`)
