package offline

import (
	"strings"

	"github.com/graphmem/graphmem/ontology"
)

// The offline engine's gazetteers. They are small on purpose: they type the
// entities people mention most in personal conversation (places, languages,
// food, animals, products, occupations) and anchor the rules; anything
// outside them is still extracted, typed from the predicate that holds it.
// All tables are immutable after package initialization.

func wordSet(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Split(words, ",") {
		if w = strings.TrimSpace(w); w != "" {
			m[w] = true
		}
	}
	return m
}

// places are countries, regions and cities, folded.
var places = wordSet(`afghanistan,albania,algeria,argentina,armenia,australia,austria,bangladesh,belgium,bolivia,
bosnia,brazil,bulgaria,cambodia,cameroon,canada,chile,china,colombia,costa rica,croatia,cuba,cyprus,czechia,
czech republic,denmark,ecuador,egypt,england,estonia,ethiopia,finland,france,georgia,germany,ghana,greece,
guatemala,haiti,honduras,hungary,iceland,india,indonesia,iran,iraq,ireland,israel,italy,jamaica,japan,jordan,
kazakhstan,kenya,korea,south korea,north korea,kosovo,latvia,lebanon,lithuania,luxembourg,malaysia,malta,mexico,
moldova,mongolia,montenegro,morocco,nepal,netherlands,the netherlands,holland,new zealand,nigeria,norway,pakistan,
panama,peru,philippines,the philippines,poland,portugal,puerto rico,qatar,romania,russia,rwanda,saudi arabia,
scotland,senegal,serbia,singapore,slovakia,slovenia,somalia,south africa,spain,sri lanka,sudan,sweden,
switzerland,syria,taiwan,tanzania,thailand,tunisia,turkey,uganda,ukraine,united kingdom,uk,the uk,
united states,usa,the us,us,the usa,america,uruguay,uzbekistan,venezuela,vietnam,wales,yemen,zambia,zimbabwe,
europe,asia,africa,south america,north america,latin america,scandinavia,the balkans,the caribbean,
california,texas,florida,new york,new york city,nyc,washington,oregon,colorado,arizona,nevada,utah,
massachusetts,illinois,ohio,michigan,georgia,virginia,north carolina,hawaii,alaska,ontario,quebec,
british columbia,bavaria,catalonia,andalusia,tuscany,sicily,provence,brittany,normandy,
amsterdam,athens,atlanta,auckland,austin,baltimore,bangkok,barcelona,beijing,beirut,belfast,belgrade,berlin,
bern,bogota,bologna,bordeaux,boston,bratislava,brisbane,bristol,brooklyn,brussels,bucharest,budapest,
buenos aires,cairo,calgary,cambridge,cape town,cardiff,chicago,cologne,copenhagen,dallas,delhi,new delhi,
denver,detroit,dubai,dublin,dusseldorf,edinburgh,florence,frankfurt,geneva,genoa,glasgow,gothenburg,hamburg,
hanoi,havana,helsinki,hong kong,honolulu,houston,istanbul,jakarta,jerusalem,johannesburg,kyoto,kiev,kyiv,
krakow,kuala lumpur,lagos,las vegas,leeds,leipzig,lima,lisbon,liverpool,ljubljana,london,los angeles,la,
lyon,madrid,malaga,manchester,manila,marseille,melbourne,miami,milan,minneapolis,montreal,moscow,mumbai,munich,
nairobi,naples,nashville,new orleans,nice,oakland,orlando,osaka,oslo,ottawa,oxford,palermo,paris,perth,
philadelphia,phoenix,pittsburgh,porto,portland,prague,quebec city,reykjavik,riga,rio,rio de janeiro,rome,
rotterdam,salzburg,san diego,san francisco,san jose,santiago,sao paulo,seattle,seoul,seville,shanghai,
singapore,sofia,stockholm,stuttgart,sydney,taipei,tallinn,tel aviv,tokyo,toronto,tbilisi,turin,utrecht,valencia,
vancouver,venice,vienna,vilnius,warsaw,washington dc,wellington,zagreb,zurich,hawaii,bali,ibiza,crete,
mallorca,majorca,sardinia,corsica,santorini,yosemite,the alps,alps`)

// nationalities maps demonyms to countries ("I'm Swedish" → FROM Sweden).
var nationalities = map[string]string{
	"american": "the US", "british": "the UK", "english": "England", "scottish": "Scotland",
	"irish": "Ireland", "welsh": "Wales", "canadian": "Canada", "mexican": "Mexico",
	"brazilian": "Brazil", "argentinian": "Argentina", "french": "France", "german": "Germany",
	"italian": "Italy", "spanish": "Spain", "portuguese": "Portugal", "dutch": "the Netherlands",
	"belgian": "Belgium", "swiss": "Switzerland", "austrian": "Austria", "swedish": "Sweden",
	"norwegian": "Norway", "danish": "Denmark", "finnish": "Finland", "icelandic": "Iceland",
	"polish": "Poland", "czech": "Czechia", "hungarian": "Hungary", "romanian": "Romania",
	"greek": "Greece", "turkish": "Turkey", "russian": "Russia", "ukrainian": "Ukraine",
	"chinese": "China", "japanese": "Japan", "korean": "Korea", "vietnamese": "Vietnam",
	"thai": "Thailand", "indian": "India", "pakistani": "Pakistan", "filipino": "the Philippines",
	"indonesian": "Indonesia", "australian": "Australia", "kiwi": "New Zealand", "nigerian": "Nigeria",
	"kenyan": "Kenya", "egyptian": "Egypt", "moroccan": "Morocco", "israeli": "Israel",
	"iranian": "Iran", "lebanese": "Lebanon", "colombian": "Colombia", "peruvian": "Peru",
	"chilean": "Chile", "cuban": "Cuba", "jamaican": "Jamaica", "south african": "South Africa",
}

// languages are natural and programming languages.
var languages = wordSet(`english,spanish,french,german,italian,portuguese,dutch,swedish,norwegian,danish,
finnish,icelandic,polish,czech,slovak,hungarian,romanian,bulgarian,greek,turkish,russian,ukrainian,serbian,
croatian,arabic,hebrew,persian,farsi,hindi,urdu,bengali,punjabi,tamil,telugu,chinese,mandarin,cantonese,
japanese,korean,vietnamese,thai,indonesian,malay,tagalog,swahili,latin,esperanto,sign language,asl,bsl,
irish,welsh,gaelic,catalan,basque,galician,estonian,latvian,lithuanian,slovenian,albanian,armenian,georgian,
amharic,yoruba,igbo,hausa,zulu,xhosa,isixhosa,afrikaans,nepali,sinhala,marathi,gujarati,kannada,malayalam,
burmese,khmer,lao,mongolian,kazakh,uzbek,pashto,kurdish,maori,hawaiian,yiddish,
python,go,golang,java,javascript,typescript,rust,c,c++,c#,ruby,php,kotlin,swift,scala,haskell,elixir,
erlang,clojure,lua,perl,r,julia,sql,dart,zig,ocaml,f#,fortran,cobol,matlab`)

// foods are dishes, ingredients and drinks (singular, folded).
var foods = wordSet(`sushi,pizza,caffeine,carbs,pasta,burger,hamburger,cheeseburger,taco,burrito,curry,ramen,noodle,rice,
bread,cheese,chocolate,ice cream,cake,cookie,pie,salad,soup,steak,chicken,beef,pork,lamb,fish,salmon,tuna,
shrimp,prawn,shellfish,lobster,crab,oyster,meat,egg,tofu,tempeh,vegetable,veggie,fruit,apple,banana,orange,
strawberry,blueberry,grape,mango,pineapple,avocado,tomato,potato,fries,french fries,chips,olive,mushroom,
onion,garlic,pepper,spinach,broccoli,carrot,peanut,peanut butter,nut,almond,cashew,walnut,hazelnut,gluten,
dairy,milk,lactose,soy,wheat,sesame,honey,sugar,candy,donut,doughnut,bagel,croissant,pancake,waffle,
sandwich,hot dog,kebab,falafel,hummus,dumpling,dim sum,pho,pad thai,paella,lasagna,spaghetti,risotto,
gnocchi,ravioli,quesadilla,nachos,enchilada,barbecue,bbq,seafood,sashimi,kimchi,bibimbap,tapas,
coffee,espresso,latte,cappuccino,tea,green tea,black tea,herbal tea,matcha,chai,water,juice,orange juice,
soda,coke,cola,beer,wine,red wine,white wine,whiskey,whisky,vodka,gin,rum,tequila,cocktail,smoothie,
lemonade,kombucha,hot chocolate,oat milk,almond milk,popcorn,cereal,oatmeal,yogurt,butter,jam,
dessert,pastry,muffin,brownie,cupcake,cheesecake,sorbet,gelato,fast food,junk food,street food,
italian food,mexican food,chinese food,indian food,thai food,japanese food,spicy food,raw fish,
cilantro,coriander,anchovy,pickle,eggplant,aubergine,zucchini,kale,quinoa,lentil,bean,chickpea`)

// animals are pet and common animal species.
var animals = wordSet(`dog,puppy,cat,kitten,kitty,hamster,rabbit,bunny,parrot,bird,budgie,canary,fish,goldfish,
turtle,tortoise,guinea pig,horse,pony,snake,lizard,gecko,iguana,ferret,chinchilla,rat,mouse,hedgehog,
pig,goat,cow,chicken,duck,sheep,frog,axolotl,cockatiel,dachshund,labrador,poodle,beagle,bulldog,
golden retriever,retriever,terrier,husky,corgi,pug,chihuahua,collie,shepherd,spaniel,tabby,persian cat,greyhound,whippet,lurcher,schnauzer,dalmatian,rottweiler,doberman,labradoodle,cockapoo,cavapoo,
border collie,great dane,shih tzu,maine coon,siamese,ragdoll,sphynx,moggy,tabby,staffie,springer,pointer,setter,
hen,rooster,cockerel,goose,quail,alpaca,llama,donkey,gerbil,degu,parakeet,cockatoo,macaw,lovebird,finch,koi,
tarantula,hermit crab,stick insect,bearded dragon,corn snake,sugar glider`)

// petSpecies are the animals that make a "have a X named Y" a pet fact.
var petSpecies = wordSet(`dog,puppy,pup,cat,kitten,kitty,hamster,rabbit,bunny,parrot,bird,budgie,canary,fish,
goldfish,turtle,tortoise,guinea pig,horse,pony,snake,lizard,gecko,iguana,ferret,chinchilla,rat,mouse,
hedgehog,pig,goat,axolotl,cockatiel,dachshund,labrador,poodle,beagle,bulldog,retriever,golden retriever,
terrier,husky,corgi,pug,chihuahua,collie,spaniel,shepherd,german shepherd,greyhound,whippet,lurcher,schnauzer,dalmatian,rottweiler,doberman,labradoodle,cockapoo,cavapoo,
border collie,great dane,shih tzu,maine coon,siamese,ragdoll,sphynx,moggy,tabby,staffie,springer,pointer,setter,
hen,rooster,cockerel,goose,quail,alpaca,llama,donkey,gerbil,degu,parakeet,cockatoo,macaw,lovebird,finch,koi,
tarantula,hermit crab,stick insect,bearded dragon,corn snake,sugar glider`)

// activities are hobbies and sports, as nouns or gerunds.
var activities = wordSet(`running,jogging,swimming,cycling,biking,hiking,camping,climbing,rock climbing,
bouldering,skiing,snowboarding,surfing,skating,skateboarding,sailing,rowing,kayaking,canoeing,fishing,
hunting,yoga,pilates,meditation,dancing,ballet,salsa,boxing,karate,judo,taekwondo,martial arts,crossfit,
weightlifting,gym,fitness,tennis,football,soccer,basketball,baseball,volleyball,rugby,cricket,golf,hockey,
badminton,table tennis,ping pong,chess,poker,gaming,video games,board games,painting,drawing,sketching,
photography,pottery,ceramics,knitting,crocheting,sewing,quilting,woodworking,gardening,cooking,baking,
reading,writing,poetry,journaling,blogging,singing,piano,guitar,violin,drums,cello,flute,saxophone,ukulele,
traveling,travelling,birdwatching,horse riding,riding,volunteering,calligraphy,origami,scrapbooking,
sculpting,acting,theater,theatre,improv,stand-up,coding,programming,running marathons,marathons,triathlon,
walking,sports,music,art,marathon,kayak,diving,scuba diving,snorkeling,archery,fencing,bowling,darts,
woodwork,metalwork,embroidery,carpentry,upholstery,brewing,home brewing,beekeeping,foraging,gardening,
wild swimming,open water swimming,paddleboarding,climbing,parkrun,netball,squash,spinning,zumba,
five-a-side,futsal,lacrosse,handball,water polo,ultimate frisbee,frisbee,padel,pickleball,softball,
hurling,gaelic football,shinty,korfball,snooker,billiards,dominoes,backgammon,mahjong`)

// instruments are played ("I play the violin" → PRACTICES violin).
var instruments = wordSet(`piano,guitar,violin,drums,cello,flute,saxophone,sax,ukulele,bass,trumpet,clarinet,
harp,keyboard,banjo,harmonica,accordion,trombone,viola,organ`)

// musicGenres are liked like foods are, and typed as artworks.
var musicGenres = wordSet(`jazz,rock,rock music,pop,pop music,hip hop,hip-hop,rap,classical music,classical,
country,country music,metal,heavy metal,punk,blues,reggae,techno,house music,edm,electronic music,folk,
folk music,indie,indie music,r&b,soul,funk,disco,opera,k-pop,kpop,gospel,latin music,salsa music`)

// vehicleMakes and vehicleNouns make a possession a car ("DRIVES").
var vehicleMakes = wordSet(`toyota,honda,ford,tesla,bmw,audi,mercedes,mercedes-benz,volkswagen,vw,nissan,
hyundai,kia,subaru,mazda,volvo,chevrolet,chevy,jeep,porsche,fiat,renault,peugeot,citroen,skoda,seat,lexus,
mini,jaguar,land rover,range rover,dodge,ram,gmc,cadillac,buick,lincoln,mitsubishi,suzuki,polestar,rivian,
lucid,ferrari,lamborghini,maserati,alfa romeo,dacia,opel,saab,byd,prius,corolla,camry,civic,accord,vauxhall,
fiesta,mondeo,kuga,yaris,auris,rav4,clio,megane,corsa,astra,octavia,fabia,qashqai,micra,passat,tiguan,sportage,
tucson,outback,cx-5,cr-v,mustang`)

var vehicleNouns = wordSet(`car,truck,van,suv,minivan,pickup,pickup truck,motorcycle,motorbike,scooter,
moped,convertible,sedan,hatchback,jeep,camper,camper van,campervan,motorhome,caravan,rv,electric car,ev,
people carrier,minibus,quad bike,tractor`)

// productBrands are devices and other branded products people own or use.
var productBrands = wordSet(`iphone,ipad,macbook,mac,imac,apple watch,airpods,android,pixel,samsung,galaxy,
oneplus,xiaomi,huawei,nokia,motorola,blackberry,kindle,surface,thinkpad,dell,lenovo,hp,asus,acer,chromebook,
playstation,ps5,ps4,xbox,nintendo,switch,nintendo switch,steam deck,gopro,canon,nikon,sony,fitbit,garmin,
peloton,roomba,alexa,echo,google home,windows,linux,ubuntu,macos,ios,vim,emacs,vscode,spotify,netflix,
firefox,chrome,safari,fedora,debian,tidal,deezer,qobuz,apple music,youtube music,soundcloud,audible,kobo,
evernote,whatsapp,telegram,gmail,duolingo,strava,disney plus,hulu,prime video`)

var productNouns = wordSet(`phone,smartphone,laptop,computer,pc,tablet,watch,smartwatch,camera,bike,bicycle,
e-bike,guitar,piano,violin,keyboard,tv,television,console,headphones,earbuds,printer,drone,house,apartment,
flat,condo,boat,kayak,tent,bed,sofa,couch,desk,car,truck,van,motorcycle,scooter,e-reader,speaker,microphone,
campervan,motorhome,caravan,narrowboat,canoe,paddleboard,telescope,sewing machine,3d printer,smoker,barbecue,hot tub,
allotment,greenhouse,polytunnel,beehive,shed,wallet,purse,handbag,backpack,rucksack,suitcase,passport,keys,
ring,necklace,glasses,sunglasses,kindle,ipad,iphone,airpods,record player,turntable,amp,ukulele,drum kit,telly,
freezer,fridge,dishwasher,tumble dryer,treadmill,exercise bike,rowing machine,
shoe,shoes,trainer,trainers,sneaker,sneakers,boot,boots,sandal,sandals,jacket,coat,raincoat,dress,suit,jeans,
hoodie,jumper,sweater,scarf,figurine,figurines,rug,lamp,mirror,vase,mattress,kettle,toaster,blender,air fryer,
coffee machine,espresso machine,washing machine,vacuum,hoover,vinyl,board game,jigsaw,lego set`)

// occupations are job titles (singular, folded). Multi-word titles end in
// one of these heads: "data analyst", "software engineer".
var occupations = wordSet(`nurse,dev,doctor,physician,surgeon,dentist,pharmacist,therapist,counselor,counsellor,
psychologist,psychiatrist,teacher,professor,lecturer,tutor,instructor,coach,trainer,student,researcher,
scientist,engineer,developer,programmer,analyst,designer,architect,consultant,manager,director,executive,
ceo,cto,cfo,founder,entrepreneur,accountant,lawyer,attorney,paralegal,judge,banker,economist,writer,author,
journalist,editor,reporter,photographer,artist,painter,musician,singer,actor,actress,dancer,chef,cook,baker,
waiter,waitress,bartender,barista,cashier,clerk,receptionist,secretary,assistant,administrator,intern,
mechanic,electrician,plumber,carpenter,builder,technician,pilot,driver,firefighter,police officer,officer,
soldier,veteran,farmer,gardener,librarian,social worker,caregiver,paramedic,midwife,veterinarian,vet,
salesperson,marketer,recruiter,realtor,agent,broker,trader,investor,freelancer,contractor,blogger,youtuber,
influencer,streamer,podcaster,translator,interpreter,scientist,biologist,chemist,physicist,mathematician,
statistician,historian,curator,pastor,priest,rabbi,imam,volunteer,activist,mentor,specialist,officer,
administrator,supervisor,lead,head,coordinator,strategist,planner,producer,animator,illustrator,
copywriter,tester,sysadmin,devops engineer,data scientist,data analyst,data engineer,software engineer,
web developer,product manager,project manager,ux designer,graphic designer,nanny,babysitter,housekeeper,
cleaner,janitor,guard,security guard,miner,fisherman,tailor,hairdresser,barber,stylist,makeup artist,
pharmacist,optician,surveyor,welder,electrician,retiree,homemaker,stay-at-home mom,stay-at-home dad,
servant,civil servant,controller,air traffic controller,dispatcher,operator,inspector,auditor,actuary,bookkeeper,
underwriter,teller,solicitor,barrister,notary,magistrate,detective,constable,sergeant,warden,diplomat,
councillor,politician,lobbyist,publicist,proofreader,publisher,columnist,presenter,broadcaster,newsreader,
screenwriter,scriptwriter,playwright,novelist,composer,conductor,choreographer,drummer,guitarist,pianist,
violinist,cellist,dj,sommelier,brewer,winemaker,butcher,fishmonger,grocer,florist,jeweller,jeweler,locksmith,
roofer,plasterer,bricklayer,joiner,decorator,landscaper,handyman,upholsterer,potter,sculptor,courier,postman,
postwoman,porter,carer,care worker,support worker,childminder,teaching assistant,headteacher,headmaster,
headmistress,principal,zookeeper,ranger,lifeguard,sailor,captain,steward,stewardess,flight attendant,attendant,
chauffeur,trucker,lorry driver,cabbie,labourer,laborer,foreman,draughtsman,draftsman,geologist,astronomer,
archaeologist,anthropologist,sociologist,linguist,philosopher,botanist,zoologist,ecologist,geneticist,
epidemiologist,pathologist,radiologist,cardiologist,neurologist,dermatologist,paediatrician,pediatrician,
obstetrician,oncologist,anaesthetist,anesthetist,physiotherapist,physio,osteopath,chiropractor,radiographer,
sonographer,optometrist,orthodontist,hygienist,dietitian,dietician,nutritionist,psychotherapist,gp,registrar,
undertaker,caretaker,groundskeeper,cleaner,housekeeper,concierge,doorman,bouncer,machinist,fitter,coder,
videographer,cameraman,sound engineer,lab technician,estate agent,letting agent,paramedic,vicar,minister,
missionary,nun,monk,rabbi,cantor,glazier,tiler,scaffolder,electrician,seamstress,dressmaker,cobbler,
shopkeeper,shop assistant,sales assistant,store manager,warehouse worker,packer,picker,dog walker,groomer,
dog trainer,trainer,personal trainer,farmhand,shepherd,beekeeper,forester,fireman,policeman,policewoman`)

// diets are eating patterns ("I'm vegetarian" → HAS_DIET vegetarian).
var diets = wordSet(`vegetarian,vegan,pescatarian,pescetarian,flexitarian,keto,ketogenic,paleo,gluten-free,
gluten free,dairy-free,dairy free,lactose-free,halal,kosher,raw vegan,plant-based,plant based,carnivore,
low-carb,low carb,intermittent fasting,fasting,whole30,mediterranean diet,atkins`)

// statuses are relationship statuses ("I'm single" → HAS_STATUS single).
var statuses = wordSet(`single,married,divorced,engaged,widowed,separated,dating,taken,newlywed,remarried`)

// identityWords are adjectives that describe who someone is ("I'm
// transgender" → IS_A transgender).
var identityWords = wordSet(`transgender,trans,nonbinary,non-binary,gay,lesbian,bisexual,bi,queer,straight,
asexual,pansexual,christian,catholic,protestant,muslim,jewish,hindu,buddhist,atheist,agnostic,sikh,
introverted,extroverted,introvert,extrovert,left-handed,right-handed,deaf,blind,autistic,neurodivergent,
retired,unemployed,self-employed,pregnant,diabetic,disabled,colorblind,colourblind,adopted,bilingual,
teetotal,sober,tee-total,non-drinker,nondrinker`)

// conditions maps condition adjectives to the condition they name.
var conditions = map[string]string{
	"pregnant": "pregnancy", "diabetic": "diabetes", "asthmatic": "asthma", "epileptic": "epilepsy",
	"lactose intolerant": "lactose intolerance", "gluten intolerant": "gluten intolerance",
	"celiac": "celiac disease", "coeliac": "celiac disease", "colorblind": "color blindness",
	"colourblind": "color blindness", "anemic": "anemia", "insomniac": "insomnia",
}

// conditionNouns are long-term conditions named as nouns ("I've had
// asthma since I was a kid", "I have type 1 diabetes"): what "have" holds
// is then a condition, not a possession.
var conditionNouns = wordSet(`diabetes,asthma,epilepsy,arthritis,eczema,psoriasis,migraines,migraine,anxiety,
depression,adhd,dyslexia,dyspraxia,insomnia,anemia,anaemia,tinnitus,fibromyalgia,endometriosis,hypertension,
lupus,sciatica,scoliosis,osteoporosis,glaucoma,cataracts,ibs,crohn's,colitis,gout,vertigo,ptsd,ocd,autism,
hayfever,hay fever,high blood pressure,celiac disease,coeliac disease,long covid,sleep apnea,sleep apnoea,
multiple sclerosis,ms,parkinson's,dementia,cancer,leukaemia,leukemia,tennis elbow,a bad back`)

// timeSpans are the spans of time one spends doing a hobby in ("I spend
// Sundays restoring an old Vespa", "I spend most evenings knitting").
var timeSpans = wordSet(`mondays,tuesdays,wednesdays,thursdays,fridays,saturdays,sundays,weekends,weekend,
evenings,mornings,afternoons,nights,days,hours,time,summers,winters,holidays,lunchtimes,lunchbreaks,breaks`)

// relation describes a family or social role word.
type relation struct {
	pred  string // the predicate from the speaker to the relative
	label string // canonical qualifier ("sister", "children")
}

// relations maps role words (singular and plural) to predicates. The
// direction is always speaker → relative: "my mother" is CHILD_OF (the
// speaker is her child); "my kids" is PARENT_OF.
var relations = map[string]relation{
	"sister": {"SIBLING_OF", "sister"}, "sisters": {"SIBLING_OF", "sister"},
	"brother": {"SIBLING_OF", "brother"}, "brothers": {"SIBLING_OF", "brother"},
	"sibling": {"SIBLING_OF", "sibling"}, "siblings": {"SIBLING_OF", "sibling"},
	"twin": {"SIBLING_OF", "twin"}, "twins": {"PARENT_OF", "twins"}, "stepsister": {"SIBLING_OF", "stepsister"}, "stepbrother": {"SIBLING_OF", "stepbrother"},
	"mother": {"CHILD_OF", "mother"}, "mom": {"CHILD_OF", "mother"}, "mum": {"CHILD_OF", "mother"},
	"mommy": {"CHILD_OF", "mother"}, "mama": {"CHILD_OF", "mother"}, "father": {"CHILD_OF", "father"},
	"dad": {"CHILD_OF", "father"}, "daddy": {"CHILD_OF", "father"}, "papa": {"CHILD_OF", "father"},
	"parents": {"CHILD_OF", "parents"}, "parent": {"CHILD_OF", "parent"}, "folks": {"CHILD_OF", "parents"},
	"stepmother": {"CHILD_OF", "stepmother"}, "stepmom": {"CHILD_OF", "stepmother"}, "stepfather": {"CHILD_OF", "stepfather"},
	"stepdad": {"CHILD_OF", "stepfather"}, "stepmum": {"CHILD_OF", "stepmother"},
	"mother-in-law": {"RELATIVE_OF", "mother-in-law"}, "father-in-law": {"RELATIVE_OF", "father-in-law"},
	"sister-in-law": {"RELATIVE_OF", "sister-in-law"}, "brother-in-law": {"RELATIVE_OF", "brother-in-law"},
	"son": {"PARENT_OF", "son"}, "sons": {"PARENT_OF", "son"}, "daughter": {"PARENT_OF", "daughter"},
	"daughters": {"PARENT_OF", "daughter"}, "kid": {"PARENT_OF", "child"}, "kids": {"PARENT_OF", "children"},
	"child": {"PARENT_OF", "child"}, "children": {"PARENT_OF", "children"}, "baby": {"PARENT_OF", "baby"},
	"toddler": {"PARENT_OF", "child"}, "boy": {"PARENT_OF", "son"},
	"girl": {"PARENT_OF", "daughter"}, "stepson": {"PARENT_OF", "stepson"}, "stepdaughter": {"PARENT_OF", "stepdaughter"},
	"husband": {"MARRIED_TO", "husband"}, "wife": {"MARRIED_TO", "wife"}, "spouse": {"MARRIED_TO", "spouse"},
	"hubby": {"MARRIED_TO", "husband"}, "missus": {"MARRIED_TO", "wife"}, "wifey": {"MARRIED_TO", "wife"},
	"boyfriend": {"PARTNER_OF", "boyfriend"}, "girlfriend": {"PARTNER_OF", "girlfriend"},
	"partner": {"PARTNER_OF", "partner"}, "fiance": {"PARTNER_OF", "fiance"}, "fiancee": {"PARTNER_OF", "fiancee"},
	"fiancée": {"PARTNER_OF", "fiancee"}, "fiancé": {"PARTNER_OF", "fiance"},
	"friend": {"FRIEND_OF", "friend"}, "friends": {"FRIEND_OF", "friends"}, "bestie": {"FRIEND_OF", "best friend"},
	"bff": {"FRIEND_OF", "best friend"}, "roommate": {"FRIEND_OF", "roommate"}, "flatmate": {"FRIEND_OF", "roommate"},
	"housemate": {"FRIEND_OF", "roommate"},
	// the everyday words for a friend in British, Irish and Australian
	// English ("my mate Dev", "my best mate Ravi") and elsewhere
	"mate": {"FRIEND_OF", "friend"}, "mates": {"FRIEND_OF", "friends"}, "buddy": {"FRIEND_OF", "friend"},
	"buddies": {"FRIEND_OF", "friends"}, "pal": {"FRIEND_OF", "friend"}, "pals": {"FRIEND_OF", "friends"},
	"colleague": {"COLLEAGUE_OF", "colleague"}, "colleagues": {"COLLEAGUE_OF", "colleagues"},
	"coworker": {"COLLEAGUE_OF", "coworker"}, "coworkers": {"COLLEAGUE_OF", "coworkers"},
	"co-worker": {"COLLEAGUE_OF", "coworker"}, "boss": {"COLLEAGUE_OF", "boss"}, "manager": {"COLLEAGUE_OF", "manager"},
	"teammate": {"COLLEAGUE_OF", "teammate"},
	"cousin":   {"RELATIVE_OF", "cousin"}, "cousins": {"RELATIVE_OF", "cousins"}, "aunt": {"RELATIVE_OF", "aunt"},
	"auntie": {"RELATIVE_OF", "aunt"}, "uncle": {"RELATIVE_OF", "uncle"}, "niece": {"RELATIVE_OF", "niece"},
	"nephew": {"RELATIVE_OF", "nephew"}, "grandmother": {"RELATIVE_OF", "grandmother"}, "grandma": {"RELATIVE_OF", "grandmother"},
	"granny": {"RELATIVE_OF", "grandmother"}, "nana": {"RELATIVE_OF", "grandmother"}, "gran": {"RELATIVE_OF", "grandmother"},
	"nan": {"RELATIVE_OF", "grandmother"}, "grandad": {"RELATIVE_OF", "grandfather"}, "granddad": {"RELATIVE_OF", "grandfather"}, "grandfather": {"RELATIVE_OF", "grandfather"},
	"grandpa": {"RELATIVE_OF", "grandfather"}, "grandparents": {"RELATIVE_OF", "grandparents"},
	"grandson": {"RELATIVE_OF", "grandson"}, "granddaughter": {"RELATIVE_OF", "granddaughter"},
	"grandkids": {"RELATIVE_OF", "grandchildren"}, "grandchildren": {"RELATIVE_OF", "grandchildren"},
	"in-laws": {"RELATIVE_OF", "in-laws"}, "family": {"RELATIVE_OF", "family"},
	"neighbor": {"KNOWS", "neighbor"}, "neighbour": {"KNOWS", "neighbor"}, "mentor": {"KNOWS", "mentor"},
}

// occasionNouns head the names of recurring or one-off events: schedules
// attach to them and "went to a X" is ATTENDED.
var occasionNouns = wordSet(`meeting,standup,stand-up,sync,call,class,lesson,lessons,practice,session,
appointment,training,rehearsal,review,check-in,club,group,conference,concert,festival,parade,party,wedding,
workshop,seminar,webinar,show,game,match,event,fair,exhibition,exhibit,gala,fundraiser,race,marathon,
retreat,camp,ceremony,service,mass,funeral,reunion,meetup,meet-up,hackathon,tournament,competition,
recital,performance,play,talk,lecture,course,interview,date,dinner,lunch,brunch,breakfast,picnic,trip,
vacation,holiday,tour,cruise,night,shift,book club,therapy,support group,council,protest,rally,march,
convention,summit,premiere,screening,auction,sale,open house,potluck,barbecue,bbq,shower,celebration,
mot,check-up,checkup,inspection,scan,flight,ferry,sailing,surgery,operation,exam,test,hearing,viewing,consultation,
mri,x-ray,xray,ultrasound,smear,jab,vaccination,booster,physio,haircut,filling,procedure,biopsy,colonoscopy,
induction,graduation,christening,baptism,hen do,stag do,appraisal,assessment,audition,orientation,induction`)

// placeNouns head common-noun places one visits ("went to the museum").
var placeNouns = wordSet(`museum,park,beach,zoo,aquarium,gym,library,church,temple,mosque,synagogue,lake,
mountain,mountains,forest,island,city,town,village,countryside,coast,river,garden,botanical garden,mall,
market,farmers market,restaurant,cafe,bar,pub,club,theater,theatre,cinema,movies,stadium,arena,gallery,
art gallery,hospital,clinic,office,school,university,college,campus,shelter,center,centre,studio,spa,
hotel,resort,cabin,cottage,campsite,trail,national park,amusement park,theme park,water park,farm,
vineyard,winery,brewery,bakery,bookstore,store,shop,supermarket,airport,station,downtown,neighborhood,
pool,swimming pool,lido,leisure centre,leisure center,climbing wall,allotment,rink,ice rink`)

// orgSuffixes end organization names ("Acme Corp", "Oxford University").
var orgSuffixes = wordSet(`corp,corporation,inc,incorporated,ltd,llc,plc,gmbh,ag,sa,co,company,companies,group,
labs,lab,technologies,technology,tech,systems,solutions,software,industries,enterprises,holdings,partners,
bank,university,college,school,academy,institute,hospital,clinic,agency,foundation,association,society,
club,fc,united,studios,studio,media,network,networks,ventures,capital,consulting,services,motors,airlines,
council,ministry,department,museum,church,charity,center,centre,organization,organisation,team,band`)

// knownOrgs are well-known employers and organizations without a suffix.
var knownOrgs = wordSet(`google,microsoft,apple,amazon,meta,facebook,netflix,ibm,intel,oracle,salesforce,
nvidia,tesla,spacex,uber,lyft,airbnb,spotify,twitter,openai,anthropic,deloitte,accenture,mckinsey,kpmg,
pwc,walmart,target,starbucks,nike,adidas,ikea,siemens,bosch,sap,nasa,unicef,who,un,red cross,
arsenal,chelsea,liverpool,barcelona,real madrid,juventus,bayern,manchester united,manchester city,
tottenham,celtic,rangers,ajax,psg,lakers,celtics,yankees,red sox,warriors,knicks,bulls,cowboys,patriots,
globex,initech,hooli,acme,umbrella,stark industries,wayne enterprises,harvard,stanford,mit,oxford,cambridge,
yale,princeton,berkeley,ucla,nyu,columbia`)

// teamWords mark an organization as a sports team ("supports X").
var teamWords = wordSet(`arsenal,chelsea,liverpool,barcelona,real madrid,juventus,bayern,manchester united,
manchester city,tottenham,celtic,rangers,ajax,psg,lakers,celtics,yankees,red sox,warriors,knicks,bulls,
cowboys,patriots,everton,milan,inter,dortmund,benfica,porto,galatasaray,fenerbahce,boca juniors,
river plate,flamengo,dodgers,mets,cubs,eagles,packers,steelers,49ers,giants,raiders,heat,nets,spurs`)

// firstNames is a small list of common given names, used only to type an
// unknown capitalized word as a Person.
var firstNames = wordSet(`aaron,adam,adrian,alan,alex,alexander,alice,alicia,amanda,amy,andrea,andrew,angela,
anna,anne,anthony,ashley,audrey,barbara,ben,benjamin,beth,bill,bob,brandon,brian,caroline,carlos,carol,
catherine,charles,charlie,chloe,chris,christian,christina,christopher,claire,daniel,david,deborah,dennis,
diana,donna,dylan,edward,elena,eli,elizabeth,ella,ellie,emily,emma,eric,ethan,eva,evan,frank,gabriel,
george,grace,hannah,harry,helen,henry,isabella,jack,jacob,james,jane,jason,jennifer,jessica,joanna,joe,
john,jon,jonathan,jordan,jose,joseph,josh,joshua,julia,julie,justin,karen,kate,katie,kevin,kim,laura,
lauren,leo,liam,lily,linda,lisa,lucas,lucy,luis,luke,maria,mark,mary,matt,matthew,max,megan,mel,melanie,
mia,michael,michelle,mike,natalie,nathan,nick,nicole,noah,olivia,oliver,paul,peter,rachel,rebecca,richard,
robert,ryan,sam,samantha,samuel,sara,sarah,scott,sean,sophia,sophie,stephanie,steve,steven,susan,thomas,
tim,tom,tony,victoria,william,zoe,jolene,john,audrey,andrew,deborah,evan,sam,calvin,dave,gina,jon,
joanna,nate,tim,james,maria,john,tony,wendy,yuki,hiro,ahmed,fatima,mohammed,omar,priya,raj,wei,li,ana,
juan,pedro,sofia,lucia,marco,giulia,pierre,marie,hans,anna,lars,ingrid,olga,ivan,dmitri,kenji,sakura`)

// entityTypeOf guesses the type of a name from the gazetteers; ok is false
// when nothing matched.
func entityTypeOf(key string) (ontology.EntityType, bool) {
	switch {
	case key == "":
		return ontology.Concept, false
	case places[key]:
		return ontology.Place, true
	case languages[key]:
		return ontology.Language, true
	case petSpecies[key] || animals[key]:
		return ontology.Animal, true
	case foods[key]:
		return ontology.Food, true
	case musicGenres[key]:
		return ontology.Artwork, true
	case activities[key] || instruments[key]:
		return ontology.Activity, true
	case knownOrgs[key] || orgSuffixes[lastWord(key)] && strings.Contains(key, " "):
		return ontology.Organization, true
	case vehicleMakes[firstWord(key)] || productBrands[key] || productBrands[firstWord(key)] || vehicleNouns[key]:
		return ontology.Product, true
	case diets[key]:
		return ontology.Condition, true
	case firstNames[key]:
		return ontology.Person, true
	}
	if l := lastWord(key); foods[l] && strings.Contains(key, " ") {
		return ontology.Food, true
	}
	if occasionNouns[lastWord(key)] {
		return ontology.Occasion, true
	}
	return ontology.Concept, false
}

func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

func lastWord(s string) string {
	if i := strings.LastIndexByte(s, ' '); i >= 0 {
		return s[i+1:]
	}
	return s
}
