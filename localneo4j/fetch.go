package localneo4j

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/template"
)

//go:embed pom.xml.tmpl
var pomTemplate string

// completeMarker records which versions a lib folder holds; it is written
// last, so a fetch interrupted halfway is redone rather than half-used.
const completeMarker = ".graphmem-complete"

// ErrMissingTool means java or mvn is not installed; the message says how to
// install it.
var ErrMissingTool = errors.New("missing tool")

// EnsureJars fetches the Neo4j server and Browser jars from Maven Central
// into o.LibDir unless a complete fetch of the same versions is already
// there, or the folder already holds neo4j-<version>.jar (jars put there by
// hand, e.g. on a machine without Maven). It needs Maven only on the first
// run, and never replaces a non-empty folder it did not fetch itself.
func EnsureJars(ctx context.Context, o Options) error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	want := o.Version + " " + o.BrowserVersion
	marker := filepath.Join(o.LibDir, completeMarker)
	got, markerErr := os.ReadFile(marker)
	if markerErr == nil && strings.TrimSpace(string(got)) == want {
		return nil
	}
	if _, err := os.Stat(filepath.Join(o.LibDir, "neo4j-"+o.Version+".jar")); err == nil {
		if err := os.WriteFile(marker, []byte(want+"\n"), 0o644); err != nil {
			return fmt.Errorf("mark the jars in %s as complete: %w", o.LibDir, err)
		}
		fmt.Fprintf(o.Progress, "neo4j: using the Neo4j %s jars already in %s\n", o.Version, o.LibDir)
		return nil
	}
	// The fetch replaces the whole folder: only one graphmem fetched (it
	// has the marker), or an empty one, may go.
	if markerErr != nil {
		if entries, err := os.ReadDir(o.LibDir); err == nil && len(entries) > 0 {
			return fmt.Errorf("%s is not empty and graphmem did not fetch it (no %s), so it will not be replaced: "+
				"point GRAPHMEM_NEO4J_LIB at a new or empty folder, or put the Neo4j %s jars (neo4j-%s.jar and its dependencies) in it",
				o.LibDir, completeMarker, o.Version, o.Version)
		}
	}
	if _, err := exec.LookPath(o.MavenBin); err != nil {
		return fmt.Errorf("%w: Maven (%s) is needed once to fetch Neo4j %s from Maven Central; install it (apt-get install maven) or put the jars (neo4j-%s.jar and its dependencies) in %s: %v",
			ErrMissingTool, o.MavenBin, o.Version, o.Version, o.LibDir, err)
	}
	work := o.LibDir + ".fetch"
	if err := os.RemoveAll(work); err != nil {
		return fmt.Errorf("clean %s: %w", work, err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", work, err)
	}
	var pom bytes.Buffer
	if err := template.Must(template.New("pom").Parse(pomTemplate)).Execute(&pom, o); err != nil {
		return fmt.Errorf("render pom: %w", err)
	}
	if err := os.WriteFile(filepath.Join(work, "pom.xml"), pom.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write pom: %w", err)
	}
	fmt.Fprintf(o.Progress, "neo4j: fetching Neo4j %s and Browser %s from Maven Central (about 135 MB, first run only)...\n", o.Version, o.BrowserVersion)
	cmd := exec.CommandContext(ctx, o.MavenBin, "-B", "-f", filepath.Join(work, "pom.xml"),
		"org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies",
		"-DoutputDirectory="+filepath.Join(work, "lib"), "-DincludeScope=runtime")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("mvn pipe: %w", err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start mvn: %w", err)
	}
	tail := reportMavenProgress(out, o)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("mvn could not fetch the Neo4j jars (is Maven Central reachable?): %w\n%s", err, strings.Join(tail, "\n"))
	}
	if err := os.RemoveAll(o.LibDir); err != nil {
		return fmt.Errorf("replace %s: %w", o.LibDir, err)
	}
	if err := os.Rename(filepath.Join(work, "lib"), o.LibDir); err != nil {
		return fmt.Errorf("move jars into %s: %w", o.LibDir, err)
	}
	_ = os.RemoveAll(work)
	if err := os.WriteFile(filepath.Join(o.LibDir, completeMarker), []byte(want+"\n"), 0o644); err != nil {
		return fmt.Errorf("mark fetch complete: %w", err)
	}
	fmt.Fprintf(o.Progress, "neo4j: jars ready in %s\n", o.LibDir)
	return nil
}

// reportMavenProgress condenses Maven's per-artifact lines into one progress
// line every 25 downloads, and keeps the last lines for error messages.
func reportMavenProgress(r interface{ Read([]byte) (int, error) }, o Options) []string {
	sc := bufio.NewScanner(r)
	var tail []string
	downloaded := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Downloaded from") {
			downloaded++
			if downloaded%25 == 0 {
				fmt.Fprintf(o.Progress, "neo4j: ... %d files downloaded\n", downloaded)
			}
		}
		tail = append(tail, line)
		if len(tail) > 20 {
			tail = tail[1:]
		}
	}
	return tail
}
