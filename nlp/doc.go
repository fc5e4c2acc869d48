// Package nlp holds the small, dependency-light language utilities that
// several parts of graphmem share: tokenization, sentence splitting,
// stopwords, a light stemmer and name normalizer, relative-date resolution
// and token counting.
//
// It exists as its own leaf package because the offline extractor, the
// condenser's extractive summaries and search must agree on the same
// normalization: an entity key, a BM25 term and a date written into a
// summary have to come out identical wherever they are computed. Nothing
// here does I/O or imports another graphmem package; every table is an
// immutable package-level value, and every function is safe for concurrent
// use.
//
// The English here is deliberately "light": rules good enough for keys and
// rule-based extraction, not a linguistic model. Where a rule is a guess
// (the year of "on 8 May", the week that "next Friday" falls in) the
// convention is documented on the function that makes it.
package nlp
