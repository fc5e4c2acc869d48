// Package condenser keeps an agent session's short-term context within
// bounds. It is pure: no I/O, no clock, no globals. It never calls an LLM
// directly, only the small Summarizer and Attender interfaces it declares,
// so every behaviour is testable with hand-written fakes.
//
// # Log, condensation, view
//
// A session is an append-only log of Events. Condensing never deletes
// anything: a condenser returns a Condensation record (which events to
// forget, and optionally a summary and where to insert it), the caller
// appends it to the log as a KindCondensation event, and BuildView folds
// the log into the View the LLM sees. Because the View is a pure fold over
// stored records, it can be rebuilt at any time, on any replica, without
// an LLM call, and the original events stay available for audit or reload.
//
// # Why the SDK fold
//
// BuildView's default mode follows the OpenHands SDK rather than V0: each
// condensation applies at its position in the log, so a record means the
// same thing whenever the view is rebuilt; several summaries can coexist,
// each with a stable id ("<cid>-summary") that a later condensation can
// forget; and the tool-call invariants LLM APIs demand (one result per
// call, calls paired with results, parallel-call batches whole) are
// enforced to a fixpoint. Condensers only cut at ManipulationIndices, so
// enforcement is a safety net rather than the rule. ModeNewestSummary
// keeps OpenHands V0's reading (one summary, the newest) for compatibility.
//
// # Condensers
//
// New builds any condenser of spec §1 from a JSON Config: view-only ones
// (noop, observation_masking, browser_output_masking, recent), rolling
// ones that return records (amortized, llm_attention, llm, structured,
// conversation_window, mem1) and pipeline, which stops at the first
// record. Rolling condensers fire on explicit requests, on event count and
// on tokens; REQUEST and TOKENS make the need HARD, EVENTS alone SOFT. A
// SOFT need with no safe cut returns the view (Result.Deferred says why);
// a HARD one falls back to a hard context reset that summarizes the whole
// view, retrying with shorter event texts. Empty forget ranges are never
// produced: where OpenHands V0 would crash on an empty slice, these
// condensers report ErrNoCondensation instead.
//
// # Why the first user message is protected
//
// The first user message usually states the task. OpenHands V0 may forget
// it when keep_first is small and then re-inserts it elsewhere; the SDK
// relies on keep_first covering it. Here no condenser ever forgets it:
// range-based condensers grow their head past it, the attention condenser
// always keeps it, view-only condensers keep it, and a hard reset
// summarizes everything else. The view thus always retains the goal that
// every summary is written for.
//
// Large payloads can be moved out of the view with Offload (AgentScope's
// preview-plus-reference strategy) and brought back with Reload.
package condenser
