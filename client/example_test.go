package client_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/graphmem/graphmem/client"
)

// Store a conversation turn and recall it: the example the README shows.
func Example() {
	ctx := context.Background()
	c, _ := client.New("http://127.0.0.1:8080", client.WithAPIKey(os.Getenv("GRAPHMEM_API_KEY")))
	_, err := c.Append(ctx, "chat-1", client.AppendRequest{UserID: "alice", Events: []client.Event{
		{ID: "m1", Kind: "message", Role: "user", Content: "I moved to Berlin and I love sushi."}}})
	if err != nil {
		log.Fatal(err) // a *client.Problem: errors.As gives its Status, Detail and Errors
	}
	res, err := c.Search(ctx, client.SearchRequest{UserID: "alice", Query: "Where does Alice live?"})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res.Results {
		fmt.Println(r.Kind, r.Status, r.Text)
	}
}

// TestReadmeShowsTheExample: the README's Go example is Example's body,
// so the code people copy compiles against this package.
func TestReadmeShowsTheExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)func Example\(\) \{\n(.*?)\n\}\n`).FindSubmatch(src)
	block := regexp.MustCompile("(?s)```go\n(.*?)```").FindSubmatch(readme)
	if body == nil || block == nil {
		t.Fatal("no Example body, or no ```go block in README.md")
	}
	for _, line := range strings.Split(string(body[1]), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.Contains(string(block[1]), line) {
			t.Errorf("README.md's Go example lacks %q", line)
		}
	}
}
