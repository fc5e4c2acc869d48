package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/ontology"
)

// guideBlock is one fenced code block of docs/browser.md: a Cypher query a
// reader runs ("cypher"), or Browser commands such as :param ("browser").
type guideBlock struct {
	lang, text string
	line       int
}

// guideBlocks returns the fenced code blocks of a markdown document.
func guideBlocks(md string) []guideBlock {
	var out []guideBlock
	var cur *guideBlock
	var body []string
	for i, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &guideBlock{lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: i + 1}
			body = nil
		case cur != nil && trimmed == "```":
			cur.text = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body = append(body, line)
		}
	}
	return out
}

var paramLine = regexp.MustCompile(`^:param\s+([A-Za-z_][A-Za-z0-9_]*)\s*=>\s*(.+)$`)

// guideParams returns the :param lines of a browser block, in order, as
// name and Cypher expression (Browser evaluates the expression).
func guideParams(block string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(block, "\n") {
		if m := paramLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			out = append(out, [2]string{m[1], strings.TrimSpace(m[2])})
		}
	}
	return out
}

var mayBeAbsent = regexp.MustCompile(`//\s*may be absent:\s*([A-Za-z0-9_, ]+)`)

// absentOK lists the properties a query's comment marks as possibly absent
// ("// may be absent: last_error"): the guide explains why Neo4j may not
// know them yet.
func absentOK(query string) map[string]bool {
	out := map[string]bool{}
	for _, m := range mayBeAbsent.FindAllStringSubmatch(query, -1) {
		for _, p := range strings.Split(m[1], ",") {
			if p = strings.TrimSpace(p); p != "" {
				out[p] = true
			}
		}
	}
	return out
}

var (
	stringLit   = regexp.MustCompile(`'[^']*'|"[^"]*"`)
	comment     = regexp.MustCompile(`//[^\n]*`)
	propAccess  = regexp.MustCompile(`\b[a-z][A-Za-z0-9_]*\.([a-z_][A-Za-z0-9_]*)\b`)
	mapKey      = regexp.MustCompile(`[{,]\s*([a-z_][A-Za-z0-9_]*)\s*:`)
	labelOrType = regexp.MustCompile(`[:|]\s*([A-Z][A-Za-z0-9_]*)`)
	allCaps     = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
)

// guideNames lists the property keys, labels and relationship types a
// query names (string literals and comments left out). Relationship types
// are written in capitals, labels in CamelCase: the graph's convention.
func guideNames(query string) (props, labels, types map[string]bool) {
	q := comment.ReplaceAllString(stringLit.ReplaceAllString(query, "''"), "")
	props, labels, types = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, m := range propAccess.FindAllStringSubmatch(q, -1) {
		props[m[1]] = true
	}
	for _, m := range mapKey.FindAllStringSubmatch(q, -1) {
		props[m[1]] = true
	}
	for _, m := range labelOrType.FindAllStringSubmatch(q, -1) {
		if allCaps.MatchString(m[1]) {
			types[m[1]] = true
		} else {
			labels[m[1]] = true
		}
	}
	return props, labels, types
}

func readGuide(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../../docs/browser.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestGuideParsing pins the reading of docs/browser.md the integration
// test relies on, so a parser slip cannot make it vacuous.
func TestGuideParsing(t *testing.T) {
	blocks := guideBlocks(readGuide(t))
	var cypher, params int
	for _, b := range blocks {
		switch b.lang {
		case "cypher":
			cypher++
		case "browser":
			params += len(guideParams(b.text))
		default:
			t.Errorf("line %d: code block %q is neither cypher (a query the test runs) nor browser (commands)", b.line, b.lang)
		}
	}
	if cypher < 15 || params < 4 {
		t.Fatalf("docs/browser.md: %d cypher blocks and %d :param lines, want at least 15 and 4", cypher, params)
	}
	props, labels, types := guideNames("MATCH (u:User {tenant: $t})-[p:LIKES|DISLIKES]->(o) // may be absent: x\n" +
		"WHERE o.name = 'A.b' RETURN u.user_id, p.fact")
	for _, want := range []string{"tenant", "name", "user_id", "fact"} {
		if !props[want] {
			t.Errorf("property %s not found: %v", want, props)
		}
	}
	if props["b"] || props["x"] || !labels["User"] || !types["LIKES"] || !types["DISLIKES"] || len(labels) != 1 {
		t.Errorf("names: props %v labels %v types %v", props, labels, types)
	}
	if got := absentOK("MATCH (j)\n// may be absent: last_error, error_at\nRETURN j"); !got["last_error"] || !got["error_at"] || len(got) != 2 {
		t.Errorf("absentOK: %v", got)
	}
}

// TestGuideHosts: the local Neo4j is told graphmem's host only when
// Browser could not fetch from it otherwise.
func TestGuideHosts(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "[]", "localhost:8080": "[]", "0.0.0.0:8080": "[]", "[::1]:8080": "[]",
		"10.1.2.3:8080": "[10.1.2.3]", "memory.lan:80": "[memory.lan]", "bad": "[]",
	} {
		if got := fmt.Sprint(guideHosts(addr)); got != want {
			t.Errorf("guideHosts(%q) = %s, want %s", addr, got, want)
		}
	}
}

// parseGrass reads a grass file the way Neo4j Browser 5 does: selector {
// declarations }, quotes dropped, each declaration split on ":" and kept
// only when that gives exactly two parts (so a ":" inside a caption makes
// Browser drop the whole declaration silently).
func parseGrass(t *testing.T, src string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, m := range regexp.MustCompile(`(?s)([A-Za-z0-9_.]+)\s*\{(.*?)\}\s*`).FindAllStringSubmatch(
		regexp.MustCompile(`\{[a-z_]+\}`).ReplaceAllStringFunc(src, func(p string) string { return "<<" + p[1:len(p)-1] + ">>" }), -1) {
		props := map[string]string{}
		for _, decl := range strings.Split(m[2], ";") {
			if strings.TrimSpace(decl) == "" {
				continue
			}
			parts := strings.Split(strings.NewReplacer("'", "", `"`, "").Replace(decl), ":")
			if len(parts) != 2 {
				t.Errorf("grass %s: Browser drops %q (a declaration needs exactly one ':')", m[1], strings.TrimSpace(decl))
				continue
			}
			props[strings.TrimSpace(parts[0])] = strings.TrimSpace(parts[1])
		}
		out[m[1]] = props
	}
	return out
}

// TestGrassStylesEveryTierAndType: docs/graphmem.grass gives every tier
// label and entity type a colour and a caption, distinct colours to the
// entity types, fact arrows a caption that names their status (Browser
// styles by type only, so the caption is what marks a superseded fact),
// and structural relationships their type.
func TestGrassStylesEveryTierAndType(t *testing.T) {
	raw, err := os.ReadFile("../../docs/graphmem.grass")
	if err != nil {
		t.Fatal(err)
	}
	g := parseGrass(t, string(raw))
	labels := []string{"Session", "Raw", "Event", "Insight", "Conflict", "Job", "Entity", "User"}
	for _, et := range ontology.EntityTypes() {
		labels = append(labels, string(et))
	}
	colours := map[string]string{}
	for _, l := range labels {
		r := g["node."+l]
		if r["color"] == "" || !strings.HasPrefix(r["caption"], "<<") {
			t.Errorf("node.%s needs a colour and a property caption: %v", l, r)
		}
		if other, dup := colours[r["color"]]; dup && l != "Entity" && other != "Entity" {
			t.Errorf("node.%s and node.%s share colour %s", l, other, r["color"])
		}
		colours[r["color"]] = l
	}
	if g["node.Entity"]["caption"] != "<<name>>" || g["node.Insight"]["caption"] != "<<text>>" || g["node.Event"]["caption"] != "<<text>>" {
		t.Error("entities are captioned by name, insights and summaries by their text")
	}
	if c := g["relationship"]["caption"]; !strings.Contains(c, "<<status>>") || !strings.Contains(c, "<<fact>>") {
		t.Errorf("fact arrows must show their status and sentence, caption %q", c)
	}
	for _, rel := range []string{"CONTAINS", "HAS_SUMMARY", "SUMMARIZES", "MENTIONS", "ABOUT", "DERIVED_FROM"} {
		if g["relationship."+rel]["caption"] != "<type>" {
			t.Errorf("relationship.%s has no fact; caption it by type", rel)
		}
	}
	for sel, r := range g {
		if strings.HasPrefix(sel, "relationship.") && strings.Contains(r["caption"], "<<fact>>") && !strings.Contains(r["caption"], "<<status>>") {
			t.Errorf("%s hides the fact's status", sel)
		}
	}
}
