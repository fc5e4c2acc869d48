// Package extract turns conversation text into knowledge: summaries of a
// condensation window, entities and facts for the graph, insights over many
// events, and embeddings.
//
// Two engines implement the same methods. The offline engine is the default:
// deterministic, rule-based English extraction and extractive summaries that
// need no network and no key. The LLM engine talks to any OpenAI-compatible
// server through go-openai (the only package allowed to import it), with
// structured outputs validated before use and bounded retries.
//
// extract never imports graph or condenser: the orchestration package adapts
// their types, which keeps the leaves independent and testable alone.
package extract
