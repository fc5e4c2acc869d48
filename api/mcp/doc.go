// Package mcp is graphmem's Model Context Protocol server: memory tools
// (remember, recall, get_context, get_session_view, list_preferences,
// list_facts, list_conflicts, resolve_conflict, add_fact, correct_fact,
// retract_fact, mark_memory, request_condensation) and resources (a user's profile, a
// session's view) for agents that reach memory through tools.
//
// Every tool is one call of graphmem's REST API through the Go client
// (package client), never a second implementation: the same route
// validates the input, the same service method runs, the same problem
// mapper words the errors, which come back to the model as tool errors
// carrying the problem's detail. Two transports share the tools:
//   - Handler serves Streamable HTTP at /mcp on graphmem's own listener;
//     the client calls the API in process, with the MCP request's own
//     credentials, so an API key sees exactly its tenant's memory.
//   - ServeStdio speaks MCP on stdin/stdout (graphmem mcp --stdio, for
//     desktop clients that launch a process) and calls a running graphmem
//     over HTTP.
//
// The tools' input schemas repeat the REST limits and enums (a test holds
// them to openapi.yaml), so a model sees the rules before it calls.
//
// It is the only package that uses the MCP SDK. It may import client; never
// api, memory, graph or the Neo4j driver.
package mcp
