package localneo4j

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeMaven writes an executable that behaves like the copy-dependencies
// call EnsureJars makes: it creates the output folder with a server jar.
func fakeMaven(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mvn")
	script := "#!/bin/sh\nfor a; do case \"$a\" in -DoutputDirectory=*) d=\"${a#-DoutputDirectory=}\"; mkdir -p \"$d\" && touch \"$d/neo4j-" +
		DefaultVersion + ".jar\";; esac; done\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestEnsureJarsAcceptsJarsPutThereByHand(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "lib")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, "neo4j-"+DefaultVersion+".jar"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// No Maven needed: the jars are there.
	o := Options{Home: t.TempDir(), LibDir: lib, MavenBin: filepath.Join(t.TempDir(), "no-such-mvn")}
	if err := EnsureJars(t.Context(), o); err != nil {
		t.Fatalf("hand-placed jars refused: %v", err)
	}
	if _, err := os.Stat(filepath.Join(lib, completeMarker)); err != nil {
		t.Fatalf("marker not written: %v", err)
	}
}

func TestEnsureJarsNeverReplacesAFolderItDidNotFetch(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "mine")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	precious := filepath.Join(lib, "thesis.tex")
	if err := os.WriteFile(precious, []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := EnsureJars(t.Context(), Options{Home: t.TempDir(), LibDir: lib, MavenBin: fakeMaven(t)})
	if err == nil || !strings.Contains(err.Error(), "will not be replaced") {
		t.Fatalf("EnsureJars = %v, want a refusal", err)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Fatalf("a file in GRAPHMEM_NEO4J_LIB was deleted: %v", err)
	}
}

func TestEnsureJarsFetchesIntoNewOrOwnFolder(t *testing.T) {
	mvn := fakeMaven(t)
	lib := filepath.Join(t.TempDir(), "lib")
	if err := EnsureJars(t.Context(), Options{Home: t.TempDir(), LibDir: lib, MavenBin: mvn}); err != nil {
		t.Fatalf("fetch into a new folder: %v", err)
	}
	// A folder of an earlier fetch (another version) is ours to replace.
	if err := os.WriteFile(filepath.Join(lib, completeMarker), []byte("5.0.0 5.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(lib, "neo4j-"+DefaultVersion+".jar")); err != nil {
		t.Fatal(err)
	}
	if err := EnsureJars(t.Context(), Options{Home: t.TempDir(), LibDir: lib, MavenBin: mvn}); err != nil {
		t.Fatalf("refetch over an earlier fetch: %v", err)
	}
	if _, err := os.Stat(filepath.Join(lib, "neo4j-"+DefaultVersion+".jar")); err != nil {
		t.Fatal("jars not fetched")
	}
	// Without Maven and without jars, the error says both ways out.
	err := EnsureJars(t.Context(), Options{Home: t.TempDir(), LibDir: filepath.Join(t.TempDir(), "empty"), MavenBin: "no-such-mvn-here"})
	if !errors.Is(err, ErrMissingTool) || !strings.Contains(err.Error(), "put the jars") {
		t.Fatalf("no Maven: %v", err)
	}
}
