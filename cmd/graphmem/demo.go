package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/graphmem/graphmem/client"
)

// The demo user: a small but realistic memory that exercises every part of
// the graph a Browser guide shows, written through the public REST API like
// any agent would. Sessions are spread over the ten months before the
// current month (insights read the last year of events, so fixed dates
// would age out of them), anchored on the first day of the month so that a
// second run in the same month sends byte-identical events.
const (
	demoUser     = "maya"
	demoUserName = "Maya"
	demoAgent    = "demo-assistant"
)

// demoTurn is one message of a demo session.
type demoTurn struct{ role, content string }

// demoSession is one conversation, monthsAgo months before the anchor.
type demoSession struct {
	id        string
	monthsAgo int
	day, hour int
	turns     []demoTurn
	// condense ends the session with a condensation request, which the
	// demo's view call answers with the summarizing profile: the event
	// tier then holds a condensation besides the session summaries.
	condense bool
}

// demoSessions is the story: a move (Lisbon → Berlin), a job change (Acme
// → Globex), a taste turnaround (sushi), a relative with facts of her own
// (sister Emma), two pets (a collection insight), an assistant suggestion
// the user turns down, a hedged remark that stays an open conflict, and
// repeated habits (insights).
var demoSessions = []demoSession{
	{id: "demo-maya-01-intro", monthsAgo: 10, day: 3, hour: 9, turns: []demoTurn{
		{"user", "Hi! I'm Maya. I live in Lisbon and I work at Acme as a designer."},
		{"assistant", "Nice to meet you, Maya! How can I help?"},
		{"user", "I love sushi, it's my favourite food."},
		{"assistant", "Sushi is great. I'll keep that in mind for restaurant ideas."},
		{"user", "I have a dog named Biscuit."},
		{"assistant", "Biscuit is a lovely name."},
	}},
	{id: "demo-maya-02-family", monthsAgo: 9, day: 12, hour: 19, turns: []demoTurn{
		{"user", "My sister Emma lives in Porto."},
		{"assistant", "Porto is beautiful. Do you visit her often?"},
		{"user", "Emma works at Globex as an engineer."},
		{"assistant", "Noted."},
		{"user", "I go climbing every Saturday."},
		{"assistant", "Climbing is a great way to spend a weekend."},
		{"user", "I prefer window seats when I fly to Porto."},
		{"assistant", "I'll remember the window seat."},
	}},
	{id: "demo-maya-03-phone", monthsAgo: 8, day: 20, hour: 18, turns: []demoTurn{
		{"user", "I use an iPhone."},
		{"assistant", "Many people switch to Android for the price. Would you like me to compare a few models?"},
		{"user", "Not me, I'm keeping my iPhone."},
		{"assistant", "Understood, I'll stick to iPhone tips."},
		{"user", "I love sushi, we had it again on Friday."},
		{"assistant", "Sounds like a good Friday."},
	}},
	{id: "demo-maya-04-move", monthsAgo: 6, day: 14, hour: 10, condense: true, turns: []demoTurn{
		{"user", "Big news: I moved to Berlin last month."},
		{"assistant", "Congratulations on the move! How is the new flat?"},
		{"user", "The flat is small but bright, and the rent is fine."},
		{"assistant", "Do you need help setting up internet or registering your address?"},
		{"user", "Yes, please list what I need for the Anmeldung."},
		{"assistant", "You need your passport, the landlord's confirmation and an appointment at the Bürgeramt."},
		{"user", "I go climbing every Saturday, there is a great gym in Kreuzberg."},
		{"assistant", "Berlin has many climbing gyms."},
	}},
	{id: "demo-maya-05-job", monthsAgo: 4, day: 7, hour: 9, turns: []demoTurn{
		{"user", "I left Acme and joined Zalando as a product designer."},
		{"assistant", "Good luck at Zalando!"},
		{"user", "We adopted a cat too, her name is Miso."},
		{"assistant", "Two pets now!"},
	}},
	{id: "demo-maya-06-tastes", monthsAgo: 2, day: 16, hour: 20, turns: []demoTurn{
		{"assistant", "Since you love sushi, shall I book Sushi Sato for Friday?"},
		{"user", "Actually I don't like sushi anymore, raw fish makes me sick now."},
		{"assistant", "Sorry to hear that. Something else then?"},
		{"user", "I love ramen."},
		{"assistant", "Ramen it is."},
	}},
	{id: "demo-maya-07-weekend", monthsAgo: 1, day: 9, hour: 11, turns: []demoTurn{
		{"user", "I go climbing every Saturday with Emma when she visits."},
		{"assistant", "Climbing with your sister sounds fun."},
		{"user", "I think I might live in Hamburg next year."},
		{"assistant", "Hamburg is a lovely city."},
	}},
}

// demoGuideSession is the session docs/browser.md explores: the one with
// a condensation as well as a summary.
func demoGuideSession() string {
	for _, s := range demoSessions {
		if s.condense {
			return s.id
		}
	}
	return demoSessions[0].id
}

// demoAnchor is the first day of the current month (UTC): sessions are
// dated back from it.
func demoAnchor(now time.Time) time.Time {
	now = now.UTC()
	return time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// demoEvents renders one session's events with stable ids and times.
func demoEvents(s demoSession, anchor time.Time) []client.Event {
	start := anchor.AddDate(0, -s.monthsAgo, s.day-1).Add(time.Duration(s.hour) * time.Hour)
	out := make([]client.Event, len(s.turns))
	for i, t := range s.turns {
		e := client.Event{ID: fmt.Sprintf("%s-%02d", s.id, i+1), Kind: "message", Role: t.role, Content: t.content,
			OccurredAt: start.Add(time.Duration(i) * 40 * time.Second).Format(time.RFC3339)}
		if t.role == "user" {
			e.Name = demoUserName
		}
		out[i] = e
	}
	if s.condense {
		out = append(out, client.Event{ID: fmt.Sprintf("%s-%02d", s.id, len(s.turns)+1), Kind: "condensation_request",
			OccurredAt: start.Add(time.Duration(len(s.turns)) * 40 * time.Second).Format(time.RFC3339)})
	}
	return out
}

// demoOptions are the demo command's settings.
type demoOptions struct {
	url, apiKey, tenant string
	timeout             time.Duration
}

// demoCommand runs `graphmem demo`: load the demo user through the REST
// API of a running graphmem, wait for its background work, check that the
// graph holds what the Browser guide shows, and say what to open.
func demoCommand(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := demoOptions{url: getenv("GRAPHMEM_URL"), apiKey: getenv("GRAPHMEM_API_KEY")}
	fs.StringVar(&o.url, "url", o.url, "graphmem's base URL")
	fs.StringVar(&o.tenant, "tenant", "default", "the tenant the API key maps to (for the printed Browser parameters)")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Minute, "how long to wait for the service and its background work")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return usageError{"usage: graphmem demo [-url http://127.0.0.1:8080] [-tenant default] [-timeout 5m]   (GRAPHMEM_API_KEY selects the tenant)"}
	}
	if o.url == "" {
		o.url = defaultURL
	}
	if file := getenv("GRAPHMEM_API_KEY_FILE"); o.apiKey == "" && file != "" {
		raw, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("GRAPHMEM_API_KEY_FILE: %w", err)
		}
		o.apiKey = strings.TrimSpace(string(raw))
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	rep, err := loadDemo(ctx, o, time.Now(), stdout)
	if err != nil {
		return err
	}
	printDemoReport(stdout, o, rep)
	return nil
}

// demoReport is what the demo found in the graph after loading.
type demoReport struct {
	appended, duplicates       int
	currentFacts, closedFacts  int
	currentPrefs, pastPrefs    int
	resolvedConflicts, openCfl int
	insights                   int
	relativeFacts              int
}

// loadDemo appends and closes every demo session (idempotent: event ids
// are fixed, so a re-run appends nothing and schedules nothing), waits for
// the tenant's jobs, derives insights and checks the result.
func loadDemo(ctx context.Context, o demoOptions, now time.Time, progress io.Writer) (demoReport, error) {
	var rep demoReport
	c, err := client.New(o.url, client.WithAPIKey(o.apiKey), client.WithRetries(client.DefaultMaxRetries, 5*time.Second),
		client.WithUserAgent("graphmem-demo/"+version))
	if err != nil {
		return rep, fmt.Errorf("-url: %w", err)
	}
	if err := waitReady(ctx, c, progress); err != nil {
		return rep, err
	}
	anchor := demoAnchor(now)
	for _, s := range demoSessions {
		// A session already stored and closed with all its events is left
		// alone: a re-run reads, it does not write (an append of known ids
		// would still touch the session, a close would schedule a job).
		var sess struct {
			Status     string `json:"status"`
			EventCount int    `json:"event_count"`
		}
		err := demoHTTP(ctx, o, http.MethodGet, "/v1/sessions/"+url.PathEscape(s.id), &sess)
		events := demoEvents(s, anchor)
		switch {
		case err == nil && sess.Status == "closed" && sess.EventCount == len(events):
			rep.duplicates += len(events)
			continue
		case err != nil && !errors.Is(err, errDemoNotFound):
			return rep, fmt.Errorf("read session %s: %w", s.id, err)
		}
		res, err := c.Append(ctx, s.id, client.AppendRequest{UserID: demoUser, AgentID: demoAgent, Events: events})
		if err != nil {
			return rep, fmt.Errorf("append %s: %w", s.id, err)
		}
		for _, e := range res.Events {
			if e.Duplicate {
				rep.duplicates++
			} else {
				rep.appended++
			}
		}
		if s.condense {
			// What an agent does before its next LLM call: ask for the
			// view, which answers the pending request by condensing.
			if _, err := c.SessionView(ctx, s.id, client.ViewRequest{Profile: "sdk"}); err != nil {
				return rep, fmt.Errorf("condense %s: %w", s.id, err)
			}
		}
		// Close with wait: the session is condensed and extracted before
		// the next one, so facts arrive in the order they were said.
		for {
			cl, err := c.Close(ctx, s.id, true)
			if err != nil {
				return rep, fmt.Errorf("close %s: %w", s.id, err)
			}
			if cl.Done {
				break
			}
		}
		fmt.Fprintf(progress, "demo: session %s loaded and extracted\n", s.id)
	}
	if err := waitDemoJobs(ctx, o, progress); err != nil {
		return rep, err
	}
	if rep.appended > 0 {
		if err := generateInsights(ctx, o); err != nil {
			return rep, err
		}
	}
	return rep, checkDemo(ctx, c, o, &rep)
}

// waitReady polls /readyz until the service answers 200 (make run may still
// be starting Neo4j).
func waitReady(ctx context.Context, c *client.Client, progress io.Writer) error {
	said := false
	for {
		err := c.Ready(ctx)
		if err == nil {
			return nil
		}
		if !said {
			fmt.Fprintf(progress, "demo: waiting for graphmem to be ready (%v)\n", err)
			said = true
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("graphmem is not ready: %w (is `make run` running? set -url or GRAPHMEM_URL)", err)
		case <-time.After(time.Second):
		}
	}
}

// demoHTTP sends one request the Go client does not cover (jobs, insights)
// and decodes the JSON answer into out.
func demoHTTP(ctx context.Context, o demoOptions, method, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(o.url, "/")+path, nil)
	if err != nil {
		return err
	}
	if o.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.apiKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode == http.StatusNotFound {
		return fmt.Errorf("%s %s: %w", method, path, errDemoNotFound)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(body, out)
}

// errDemoNotFound is a 404 answer: the thing asked for does not exist yet.
var errDemoNotFound = errors.New("not found")

// waitDemoJobs waits until the tenant has no pending or running job: the
// sessions' extraction and the insight job that follows it.
func waitDemoJobs(ctx context.Context, o demoOptions, progress io.Writer) error {
	said := false
	for {
		active := 0
		for _, status := range []string{"pending", "running"} {
			var out struct {
				Jobs []client.Job `json:"jobs"`
			}
			if err := demoHTTP(ctx, o, http.MethodGet, "/v1/jobs?limit=1000&status="+status, &out); err != nil {
				return fmt.Errorf("list jobs: %w", err)
			}
			active += len(out.Jobs)
		}
		if active == 0 {
			return nil
		}
		if !said {
			fmt.Fprintf(progress, "demo: waiting for %d background job(s)\n", active)
			said = true
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("background jobs did not finish: %w", ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// generateInsights derives the user's insights now rather than waiting for
// the batched background pass; unchanged insights are left as they are.
func generateInsights(ctx context.Context, o demoOptions) error {
	if err := demoHTTP(ctx, o, http.MethodPost, "/v1/users/"+url.PathEscape(demoUser)+"/insights", nil); err != nil {
		return fmt.Errorf("generate insights: %w", err)
	}
	return nil
}

// checkDemo reads the user back through the API and fails unless the graph
// shows what the guide is about: superseded facts, a resolved and an open
// conflict, current and past preferences, insights and a relative's fact.
func checkDemo(ctx context.Context, c *client.Client, o demoOptions, rep *demoReport) error {
	facts, err := c.Facts(ctx, demoUser, client.FactsQuery{IncludeHistory: true, Limit: 500})
	if err != nil {
		return fmt.Errorf("list facts: %w", err)
	}
	for _, f := range facts {
		if f.Status == "current" {
			rep.currentFacts++
		} else {
			rep.closedFacts++
		}
		if f.Status == "current" && !strings.EqualFold(f.Subject, demoUserName) && !strings.EqualFold(f.Subject, demoUser) {
			rep.relativeFacts++
		}
	}
	prefs, err := c.Preferences(ctx, demoUser, client.HistoryQuery{IncludeHistory: true, Limit: 500})
	if err != nil {
		return fmt.Errorf("list preferences: %w", err)
	}
	for _, p := range prefs {
		if p.Status == "current" {
			rep.currentPrefs++
		} else {
			rep.pastPrefs++
		}
	}
	conflicts, err := c.Conflicts(ctx, demoUser, "", 500)
	if err != nil {
		return fmt.Errorf("list conflicts: %w", err)
	}
	for _, cf := range conflicts {
		if cf.Status == "open" {
			rep.openCfl++
		} else {
			rep.resolvedConflicts++
		}
	}
	var ins struct {
		Insights []struct {
			Text string `json:"text"`
		} `json:"insights"`
	}
	if err := demoHTTP(ctx, o, http.MethodGet, "/v1/users/"+demoUser+"/insights", &ins); err != nil {
		return fmt.Errorf("list insights: %w", err)
	}
	rep.insights = len(ins.Insights)
	var missing []string
	for what, n := range map[string]int{"superseded facts": rep.closedFacts, "resolved conflicts": rep.resolvedConflicts,
		"current preferences": rep.currentPrefs, "past preferences": rep.pastPrefs, "insights": rep.insights,
		"facts about someone else than the user": rep.relativeFacts} {
		if n == 0 {
			missing = append(missing, what)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the demo graph lacks %s: the engine does not read the demo as expected", strings.Join(missing, ", "))
	}
	return nil
}

func printDemoReport(w io.Writer, o demoOptions, rep demoReport) {
	if rep.appended == 0 {
		fmt.Fprintf(w, "demo: already loaded (%d events were there); nothing changed\n", rep.duplicates)
	} else {
		fmt.Fprintf(w, "demo: appended %d events in %d sessions for user %q\n", rep.appended, len(demoSessions), demoUser)
	}
	fmt.Fprintf(w, "demo: %d current and %d superseded facts, %d current and %d past preferences, %d resolved and %d open conflicts, %d insights\n",
		rep.currentFacts, rep.closedFacts, rep.currentPrefs, rep.pastPrefs, rep.resolvedConflicts, rep.openCfl, rep.insights)
	guide := strings.TrimRight(o.url, "/") + "/browser/guide.html"
	if o.tenant != "default" {
		guide += "?tenant=" + url.QueryEscape(o.tenant)
	}
	fmt.Fprintf(w, `
Open Neo4j Browser (make run prints its address; the local one is http://127.0.0.1:7474/browser/),
connect with "No authentication", then run:

  :play %s

or set the parameters by hand and follow docs/browser.md:

  :param tenant => '%s'
  :param user => '%s'
  :param session => '%s'
`, guide, o.tenant, demoUser, demoGuideSession())
}
