package offline

// The words of study and work transitions (rules_careers.go). Each list
// grows by a word.

// courseNouns name a course of study one enrols in, leaves or drops out
// of ("law school", "my chemistry degree", "uni").
var courseNouns = wordSet(`school,uni,university,college,degree,course,programme,program,phd,masters,master's,
doctorate,apprenticeship,bootcamp,diploma,studies,academy,conservatory,polytechnic,seminary,residency,msc,ma,
ba,bsc,mba,llm,a-levels,gcses`)

// degreeNouns are the levels of study ("doing a PhD in linguistics").
var degreeNouns = wordSet(`phd,doctorate,masters,master's,msc,ma,mba,llm,degree,bachelor's,bachelors,ba,bsc,
diploma,certificate,foundation,postdoc,apprenticeship,pgce,mphil,dphil,md`)

// studyYears are the years of a course ("my second year of medicine").
var studyYears = wordSet(`first,second,third,fourth,fifth,final,last,1st,2nd,3rd,4th,5th`)

// examNouns head what one prepares for ("the bar exam", "my driving test").
var examNouns = wordSet(`exam,exams,test,tests,finals,boards,certification,qualification,interview,audition,
assessment,licence,license,resit,viva,defence,defense`)

// prepVerbs prepare for an exam ("I'm cramming for the CFA").
var prepVerbs = wordSet(`prepare,study,revise,cram,train,swot,practise,practice,sit,resit`)

// selfEmployed are the words of working for oneself ("went freelance").
var selfEmployed = wordSet(`freelance,self-employed,independent,solo,contract,contracting,consulting`)

// notLearnt are things learnt that are not a skill or subject ("learned
// a lot", "learned some tips").
var notLearnt = wordSet(`tip,tips,thing,things,stuff,lot,lesson,lessons,trick,tricks,way,ways,much,fact,facts,news,truth,
recipe,recipes,hack,hacks,detail,details,handle`)

// workAdverbials say how or where one works, between "work" and its "as"
// or "at" ("from home", "part-time", "nights").
var workAdverbials = []string{"from home", "remotely", "remote", "part-time", "part time", "full-time", "full time",
	"freelance", "mostly", "mainly", "currently", "now", "still", "nights", "days", "weekends", "shifts",
	"abroad", "locally", "on site", "on-site", "from the office", "in person", "there", "here", "these days",
	"right now", "at the moment", "at home", "as well", "too", "also", "casually", "temporarily", "seasonally"}
