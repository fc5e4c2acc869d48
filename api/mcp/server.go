package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphmem/graphmem/client"
)

// instructions tell a connecting model what graphmem is for.
const instructions = `graphmem is the user's long-term memory. Before answering anything that may depend on earlier conversations, call recall (or get_context for a prompt-ready summary). When the user tells you something worth keeping, call remember (a note, or the conversation's turns) or, for one plain fact, add_fact. When the user says a stored fact is wrong, use correct_fact; when they want it gone, retract_fact. Use the same user_id on every call.`

// NewServer returns an MCP server whose tools and resources call m.
func NewServer(m Memory, version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "graphmem", Title: "graphmem memory", Version: version},
		&mcp.ServerOptions{Instructions: instructions})
	addTools(s, m)
	addResources(s, m)
	return s
}

// addResources offers what reads well as a document: a user's profile and
// a session's view.
func addResources(s *mcp.Server, m Memory) {
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "user-profile", Title: "What graphmem knows about a user",
		URITemplate: "graphmem://users/{user_id}/profile", MIMEType: "text/markdown",
		Description: "The user's current facts and preferences, one per line."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			uri := req.Params.URI
			user, ok := between(uri, "graphmem://users/", "/profile")
			if !ok {
				return nil, mcp.ResourceNotFoundError(uri)
			}
			facts, err := m.Facts(ctx, user, client.FactsQuery{Limit: 1000})
			if err != nil {
				return nil, err
			}
			prefs, err := m.Preferences(ctx, user, client.HistoryQuery{Limit: 1000})
			if err != nil {
				return nil, err
			}
			var b strings.Builder
			fmt.Fprintf(&b, "# %s\n\n## Facts\n", user)
			for _, f := range facts {
				fmt.Fprintf(&b, "- %s%s\n", f.Text, validity(f.ValidFrom, f.ValidTo))
			}
			b.WriteString("\n## Preferences\n")
			for _, p := range prefs {
				fmt.Fprintf(&b, "- %s %s%s\n", strings.ToLower(strings.ReplaceAll(p.Predicate, "_", " ")), p.Object, qualifier(p.Qualifier))
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: b.String()}}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "session-view", Title: "A session's condensed view",
		URITemplate: "graphmem://sessions/{session_id}/view", MIMEType: "text/plain",
		Description: "The events of the session as the next LLM call should see them."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			uri := req.Params.URI
			session, ok := between(uri, "graphmem://sessions/", "/view")
			if !ok {
				return nil, mcp.ResourceNotFoundError(uri)
			}
			v, err := m.SessionView(ctx, session, client.ViewRequest{})
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: renderView(v)}}}, nil
		})
}

func between(s, prefix, suffix string) (string, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return "", false
	}
	mid, ok := strings.CutSuffix(rest, suffix)
	return mid, ok && mid != "" && !strings.Contains(mid, "/")
}

// ServeStdio speaks MCP on in and out until the peer closes in or ctx
// ends; the tools call m (a client of a running graphmem).
func ServeStdio(ctx context.Context, m Memory, version string, in io.ReadCloser, out io.WriteCloser) error {
	return NewServer(m, version).Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
}

// Handler serves MCP over Streamable HTTP. api is graphmem's own REST
// handler: each MCP request gets a client that calls it in process with
// that request's credentials (Authorization, X-API-Key), so the tools see
// exactly the memory of the key's tenant, checked by the same middleware
// as every REST call. It is stateless (no MCP session is kept), so any
// replica answers any request.
func Handler(api http.Handler, version string, log *slog.Logger) http.Handler {
	servers := &serverCache{build: func(creds http.Header) *mcp.Server {
		c, _ := client.New("http://graphmem.in-process", client.WithRetries(0, 0), client.WithUserAgent("graphmem-mcp"),
			client.WithHTTPClient(&http.Client{Transport: inProcess{handler: api, creds: creds}}))
		return NewServer(c, version)
	}}
	return mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server { return servers.get(r) },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: log})
}

// serverCache keeps a server per set of credentials: the SDK asks for the
// server more than once per request, and building one is not free. It is
// bounded; past the bound it starts again.
type serverCache struct {
	build func(creds http.Header) *mcp.Server
	mu    sync.Mutex
	byKey map[[sha256.Size]byte]*mcp.Server
}

const maxCachedServers = 256

func (sc *serverCache) get(r *http.Request) *mcp.Server {
	creds := http.Header{}
	for _, h := range []string{"Authorization", "X-API-Key"} {
		if v := r.Header.Values(h); len(v) > 0 {
			creds[h] = v
		}
	}
	var id bytes.Buffer
	_ = creds.Write(&id)
	key := sha256.Sum256(id.Bytes())
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if s, ok := sc.byKey[key]; ok {
		return s
	}
	if sc.byKey == nil || len(sc.byKey) >= maxCachedServers {
		sc.byKey = map[[sha256.Size]byte]*mcp.Server{}
	}
	s := sc.build(creds)
	sc.byKey[key] = s
	return s
}

// inProcess is an http.RoundTripper that serves a request with a handler
// of this process, adding the credentials of the MCP request it acts for.
type inProcess struct {
	handler http.Handler
	creds   http.Header
}

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Del("Authorization")
	for k, v := range t.creds {
		r.Header[k] = v
	}
	r.RequestURI = r.URL.RequestURI()
	r.RemoteAddr = "127.0.0.1:0" // this process
	w := &recorder{header: http.Header{}, status: http.StatusOK}
	t.handler.ServeHTTP(w, r)
	return &http.Response{StatusCode: w.status, Status: http.StatusText(w.status), Header: w.header,
		Body: io.NopCloser(&w.body), ContentLength: int64(w.body.Len()), Request: r,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// recorder collects a handler's response in memory.
type recorder struct {
	header      http.Header
	status      int
	body        bytes.Buffer
	wroteHeader bool
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(status int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = status, true
	}
}

func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}
