// Package knowledge is graphmem's knowledge-update policy: what a newly
// stated fact does to what the graph already believes about its subject.
//
// It decides, for plain values and nothing else:
//   - whether a statement repeats a stored fact (unchanged), adds evidence
//     to it (reinforced), says it ended (ended) or is new (created);
//   - which current facts a new one contradicts, and how (exclusive,
//     polarity, negation), and whether the new one is itself out of date
//     (stale); kinds of things are compared by head noun (KindOf): "I've
//     gone off podcasts" turns "likes true crime podcasts" around, "no
//     longer a teacher" ends "science teacher";
//   - that an ending naming no qualifier ends the fact whatever its note
//     ("we went our separate ways" ends "boyfriend Tom");
//   - when a contradiction closes the old fact automatically and when it
//     waits for review (weak evidence);
//   - how a fact is closed: one rule, Close, used by the write path and by
//     a reviewer's decision alike;
//   - which stored entity a new mention is (name matching without I/O);
//   - how a turn reads (ReadStatement: a statement, a question, chatter;
//     the speaker's own, hedged, a correction, a change, an ending), and
//     the language of change that ranking weighs two statements by
//     (changewords.go: Revises, Turns, Adds, Keeps, Rescheduled, and the
//     thing a revision replaced, RevisedThing), one lexicon for both.
//
// Why a package of its own: these rules are what users judge graphmem by
// ("does it know I moved?"), they change more often than the storage code,
// and a table test should be able to drive them without a database. The
// graph package loads the facts a write touches, calls Plan, and flushes
// the decision in Cypher.
//
// It imports only ontology and nlp: never the Neo4j driver, graph, or any
// package that does I/O.
package knowledge
