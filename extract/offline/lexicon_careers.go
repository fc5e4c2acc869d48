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

// disciplines are the fields a degree is in ("transferred into
// architecture", "switched to economics"). Grows by a word.
var disciplines = wordSet(`architecture,law,medicine,nursing,dentistry,pharmacy,engineering,mathematics,maths,math,physics,
chemistry,biology,biochemistry,economics,history,philosophy,psychology,sociology,politics,geography,english,linguistics,
anthropology,archaeology,accounting,finance,business,management,marketing,journalism,music,art,design,drama,theatre,
film,computing,informatics,statistics,geology,astronomy,science,veterinary,midwifery,physiotherapy,education,theology,classics,
criminology,agriculture,zoology,neuroscience,genetics,ecology`)

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

// tradeAgents name the worker of a trade by its verb: what someone who
// designs, manages or stacks for an employer is called ("I design kitchens
// for a firm": a kitchen designer). A verb joins the list when its agent
// noun is a job title; verbs of errands and leisure ("buy", "eat", "visit")
// never do.
var tradeAgents = map[string]string{
	"design": "designer", "manage": "manager", "supervise": "supervisor", "coordinate": "coordinator",
	"edit": "editor", "translate": "translator", "write": "writer", "illustrate": "illustrator",
	"photograph": "photographer", "decorate": "decorator", "clean": "cleaner", "repair": "repairer",
	"fix": "repairer", "service": "engineer", "install": "installer", "build": "builder",
	"drive": "driver", "cook": "cook", "bake": "baker", "sell": "salesperson", "stack": "stacker",
	"pack": "packer", "pick": "picker", "sort": "sorter", "load": "loader", "train": "trainer",
	"coach": "coach", "tutor": "tutor", "develop": "developer", "code": "coder", "program": "programmer",
	"test": "tester", "analyse": "analyst", "analyze": "analyst", "audit": "auditor", "advise": "adviser",
	"research": "researcher", "inspect": "inspector", "operate": "operator", "groom": "groomer",
	"walk": "walker", "brew": "brewer", "weld": "welder", "plaster": "plasterer", "landscape": "landscaper",
	"produce": "producer", "organise": "organiser", "organize": "organizer", "cater": "caterer",
	"present": "presenter", "recruit": "recruiter", "proofread": "proofreader", "transcribe": "transcriber",
	"interpret": "interpreter", "curate": "curator", "deliver": "courier", "farm": "farmer",
	"mend": "repairer", "restore": "restorer", "assemble": "assembler", "maintain": "maintainer",
}

// tradeAlone are the workers whose verb alone, with an employer, says the
// job ("I cook at a bistro", "I write for a magazine"); without an object,
// "I train at a gym" or "I walk at the park" is exercise.
var tradeAlone = wordSet(`cook,baker,driver,writer,editor,translator,tutor,brewer,welder,plasterer,landscaper,
caterer,cleaner,designer,manager,supervisor,illustrator,photographer,decorator,builder,farmer,courier,interpreter,
producer,recruiter,researcher,analyst,auditor,consultant,programmer,developer,coder`)

// particles complete a phrasal verb; after a trade verb they begin no
// object ("pick up", "sort out", "clean up").
var particles = wordSet(`up,out,off,down,in,on,back,over,away,through,around,round`)

// tradeVagueObjects are objects that name no trade ("I fix things for a
// charity" is a repairer, not a "thing repairer").
var tradeVagueObjects = wordSet(`thing,things,stuff,everything,anything,something,lot,lots,bit,work,job,jobs,odd`)

// tradeGerunds maps the -ing form of each trade verb to the verb.
var tradeGerunds = func() map[string]string {
	m := make(map[string]string, len(tradeAgents))
	for v := range tradeAgents {
		m[gerund(v)] = v
	}
	return m
}()

// volunteerPlaces are where unpaid help is given ("the food bank", "a
// soup kitchen", "the local hospice").
var volunteerPlaces = wordSet(`bank,kitchen,shelter,hospice,refuge,sanctuary,shop,centre,center,church,mosque,temple,
synagogue,library,school,hospital,home,club,charity,museum,park,garden,allotment,farm,camp,clinic,pantry`)
