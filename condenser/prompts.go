package condenser

import (
	"fmt"
	"strings"
)

// The prompts follow the structure of OpenHands' summarizing prompt
// (spec §3) in our own words: preamble, sections, priorities, examples,
// the previous summary, one <EVENT> per forgotten event, and the final
// instruction. Changing them changes every summary; the orchestration
// should record a prompt version with each condensation.

const sectionsPreamble = `You keep a running, context-aware summary of an agent's session. The summary replaces the events listed below, which are about to be dropped from the agent's context, so everything the agent still needs must survive in it.
Whenever the events show any task tracking, include a TASK_TRACKING section and copy task IDs and statuses exactly.

Keep these sections:

USER_CONTEXT: (what the user wants: requirements, goals, clarifications, briefly)
TASK_TRACKING: {open tasks with their exact IDs and statuses}
COMPLETED: (what is done, each with its result)
PENDING: (what is still to do)
CURRENT_STATE: (variables, data structures or other state that matters now)

For coding work add:
CODE_STATE: {file paths, function signatures, data structures}
TESTS: {failing cases, error messages, outputs}
CHANGES: {edits made, values changed}
DEPS: {dependencies, imports, external calls}
VERSION_CONTROL_STATUS: {repository state, branch, pull request, commits}

PRIORITIZE:
1. Shape the sections to the kind of task at hand
2. Keep the user's requirements and goals
3. Keep completed and pending work apart
4. Stay short and relevant in every section

SKIP: details that do not matter for the current task.

Example for a coding task:
USER_CONTEXT: Make the CSV importer accept semicolon separators
COMPLETED: Added a delimiter sniffing step in importer.go; unit tests pass
PENDING: Document the option, open a pull request
CODE_STATE: sniffDelimiter() in importer.go
TESTS: TestImportSemicolon passes
CHANGES: reader.Comma set from sniffDelimiter()
DEPS: none changed
VERSION_CONTROL_STATUS: branch csv-semicolon, last commit 4f2e9a1

Example for another task:
USER_CONTEXT: Plan a 5-day trip with one museum per day
COMPLETED: Days 1-3 planned (Louvre, Orsay, Rodin)
PENDING: Days 4 and 5
CURRENT_STATE: Budget left: 240 EUR, day counter 3/5`

const structuredPreamble = `You keep the state summary of an agent's session. The events below are about to be dropped from the agent's context; record everything it still needs by calling create_state_summary.
Capture in particular: the user's stated requirements, work completed, tasks pending, the current state of code, variables and data, and the state of version control.`

const mem1Preamble = `You maintain the agent's only persistent memory, a single <think> block. Earlier context is about to be discarded: after this step the agent sees only the task, this memory and its newest events.
Merge the previous memory with the new information into one updated memory. Keep what matters for the next steps: the user's goal and constraints, key decisions, tool results, file paths, errors and open TODOs. Drop what no longer matters.`

// Prompt renders the request as the single user message OpenHands sends.
// Summarizers may use it as is or render their own template from the
// request's fields.
func (r SummaryRequest) Prompt() string {
	var b strings.Builder
	switch r.Style {
	case StyleMem1:
		b.WriteString(mem1Preamble)
		b.WriteString("\n\n<PREVIOUS_THINK>\n" + r.PreviousSummary + "\n</PREVIOUS_THINK>\n\n<information>\n")
		for _, e := range r.Events {
			note := "dropped after this step"
			if e.Retained {
				note = "stays in context"
			}
			fmt.Fprintf(&b, "<EVENT id=%s> (%s)\n%s\n</EVENT>\n", e.ID, note, e.Text)
		}
		b.WriteString("</information>\n\nOutput only the updated memory as <think>...</think>.")
		return b.String()
	case StyleStructured:
		b.WriteString(structuredPreamble)
	default:
		b.WriteString(sectionsPreamble)
	}
	b.WriteString("\n\n<PREVIOUS SUMMARY>\n" + r.PreviousSummary + "\n</PREVIOUS SUMMARY>\n\n")
	for _, e := range r.Events {
		fmt.Fprintf(&b, "<EVENT id=%s>\n%s\n</EVENT>\n", e.ID, e.Text)
	}
	if r.Style == StyleStructured {
		b.WriteString("Now call create_state_summary.")
	} else {
		b.WriteString("Now summarize the events using the rules above.")
	}
	return b.String()
}
