// Package llm is the OpenAI-compatible language engine: summaries,
// attention, extraction and insights from any server that speaks the OpenAI
// chat API (OpenAI, Azure, Ollama, vLLM, llama.cpp, LM Studio), plus the
// embeddings client.
//
// It owns the prompts (prompts/*.tmpl, rendered with text/template and
// pinned by the golden files in testdata), the structured-output schemas,
// the validation that keeps every model answer inside the ontology before it
// reaches the graph, and the bounded retries that turn transient failures
// into extract.ErrUnavailable and bad answers into extract.ErrInvalidOutput.
// Tests run only against a local fake server replaying recorded answers.
//
// llm is the only package that may import github.com/sashabaranov/go-openai.
// It imports extract (the shared types) and ontology, and never the offline
// engine, nlp, graph, memory or condenser.
package llm
