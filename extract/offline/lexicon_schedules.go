package offline

// The words of recurring occasions and their moves beyond occasionNouns
// (rules_schedules.go, rules_reschedules.go). Each list grows by a word.

// routineNouns are activities and appointments that recur on a day or at a
// time ("physio is every Wednesday", "choir meets on Tuesdays").
var routineNouns = wordSet(`physio,physiotherapy,therapy,counselling,counseling,choir,yoga,pilates,spin,gym,swim,
football,five-a-side,netball,bootcamp,tutoring,orchestra,band,shift,rota,dialysis,chemo,checkup,check-up,
standup,stand-up,scrum,retro,catch-up,catchup,one-to-one,1:1,1-1,boxing,karate,judo,dance,ballet,crossfit,
parkrun,bingo,haircut,massage,dentist,orthodontist,quiz,pub quiz,volunteering,book club,bookclub`)

// ordinalWeekdays qualify a weekday of the month ("the last Friday of the
// month", "every second Tuesday").
var ordinalWeekdays = wordSet(`first,second,third,fourth,last,other,1st,2nd,3rd,4th`)

// dayParts follow a weekday ("Friday mornings").
var dayParts = wordSet(`morning,mornings,afternoon,afternoons,evening,evenings,night,nights,lunchtime,lunchtimes`)
