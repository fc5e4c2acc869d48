package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// LoCoMo as graphmem sees it. Each conversation is one user (user_id =
// sample_id) and each LoCoMo session one graphmem session. Both speakers
// are people, but the API needs user/assistant roles: speaker_a is sent as
// "user" and speaker_b as "assistant", always with name = the speaker, so
// nothing about who said what is lost (the name is what identifies them).

type locomoFile []struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question string          `json:"question"`
		Answer   json.RawMessage `json:"answer"`
		Evidence []string        `json:"evidence"`
		Category int             `json:"category"`
	} `json:"qa"`
}

type turn struct {
	ID, Speaker, Role, Text, Caption string
	At                               time.Time
}

// indexText is what the BM25 baseline indexes for a turn, as in the
// reference run: "speaker: text [caption]".
func (t turn) indexText() string {
	s := t.Speaker + ": " + t.Text
	if t.Caption != "" {
		s += " [" + t.Caption + "]"
	}
	return s
}

type locomoSession struct {
	Num   int
	ID    string // graphmem session id
	Start time.Time
	Turns []turn
}

// question is one QA item with its evidence resolved to turn ids.
type question struct {
	UserID   string
	Index    int // position in the conversation's qa list
	Text     string
	Answer   string
	Category int
	Gold     []string // normalized, existing turn ids
	Dropped  []string // evidence pieces that did not resolve
}

type conversation struct {
	UserID   string
	Sessions []locomoSession
	Turns    []turn // every turn, in order
	QA       []question
}

// loadLoCoMo reads the file and builds the conversations.
func loadLoCoMo(path string) ([]*conversation, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f locomoFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []*conversation
	for _, s := range f {
		c, err := buildConversation(s.SampleID, s.Conversation)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.SampleID, err)
		}
		known := map[string]bool{}
		for _, t := range c.Turns {
			known[t.ID] = true
		}
		for i, qa := range s.QA {
			gold, dropped := normalizeEvidence(qa.Evidence, func(id string) bool { return known[id] })
			c.QA = append(c.QA, question{UserID: c.UserID, Index: i, Text: qa.Question,
				Answer: answerText(qa.Answer), Category: qa.Category, Gold: gold, Dropped: dropped})
		}
		out = append(out, c)
	}
	return out, nil
}

// answerText renders an answer that may be a string or a number (2022).
func answerText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}

func buildConversation(sampleID string, conv map[string]json.RawMessage) (*conversation, error) {
	var speakerA, speakerB string
	if err := json.Unmarshal(conv["speaker_a"], &speakerA); err != nil {
		return nil, fmt.Errorf("speaker_a: %w", err)
	}
	if err := json.Unmarshal(conv["speaker_b"], &speakerB); err != nil {
		return nil, fmt.Errorf("speaker_b: %w", err)
	}
	c := &conversation{UserID: sampleID}
	// Sessions are the keys session_<n> holding a list; some files have
	// more session_<n>_date_time keys than sessions, which are ignored.
	var nums []int
	for k := range conv {
		if n, err := strconv.Atoi(strings.TrimPrefix(k, "session_")); err == nil && strings.HasPrefix(k, "session_") {
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	for _, n := range nums {
		var when string
		if err := json.Unmarshal(conv[fmt.Sprintf("session_%d_date_time", n)], &when); err != nil {
			return nil, fmt.Errorf("session_%d_date_time: %w", n, err)
		}
		start, err := parseSessionTime(when)
		if err != nil {
			return nil, err
		}
		var raw []struct {
			Speaker     string `json:"speaker"`
			DiaID       string `json:"dia_id"`
			Text        string `json:"text"`
			BlipCaption string `json:"blip_caption"`
		}
		if err := json.Unmarshal(conv[fmt.Sprintf("session_%d", n)], &raw); err != nil {
			return nil, fmt.Errorf("session_%d: %w", n, err)
		}
		s := locomoSession{Num: n, ID: fmt.Sprintf("%s-s%d", sampleID, n), Start: start}
		for i, r := range raw {
			role := "assistant"
			if r.Speaker == speakerA {
				role = "user"
			}
			t := turn{ID: r.DiaID, Speaker: r.Speaker, Role: role, Text: r.Text, Caption: r.BlipCaption,
				At: start.Add(time.Duration(i) * time.Second)}
			s.Turns = append(s.Turns, t)
			c.Turns = append(c.Turns, t)
		}
		c.Sessions = append(c.Sessions, s)
	}
	if len(c.Turns) == 0 {
		return nil, fmt.Errorf("no turns")
	}
	return c, nil
}

// events renders a session as the append request's events.
func (s locomoSession) events() []eventIn {
	out := make([]eventIn, len(s.Turns))
	for i, t := range s.Turns {
		e := eventIn{ID: t.ID, Kind: "message", Role: t.Role, Name: t.Speaker, Content: t.Text,
			OccurredAt: t.At.UTC().Format(time.RFC3339)}
		if t.Caption != "" {
			e.Metadata = map[string]any{"caption": t.Caption}
		}
		out[i] = e
	}
	return out
}
