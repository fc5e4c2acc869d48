// Package localneo4j runs a real Neo4j Community server on this machine
// without Docker: it fetches the server and Browser jars from Maven Central
// once (with the machine's Maven), writes a minimal neo4j.conf bound to
// 127.0.0.1, starts the JVM with the flags the official launcher would pass,
// waits until the database answers, and stops it with SIGTERM.
//
// Why not the tarball or Docker: Neo4j is not a Debian package, machines here
// reach only package registries, and there is no Docker engine. The Maven
// artifacts are the same server the tarball ships; only the launcher script
// is missing, so this package does its job (JVM flags, config, pid file).
//
// It runs on Linux only: the server's process is identified through /proc
// (its command line names the Home), so a pid file left by a crash is never
// mistaken for a live server and a recycled pid is never signalled. Without
// /proc, Start and Stop fail with ErrUnsupported; use a Neo4j you run
// yourself (GRAPHMEM_NEO4J_URI) on other systems.
//
// Everything lives under two folders: LibDir (jars, shared by every home) and
// Home (conf, data, logs, run), both git-ignored. One Home holds one server;
// a second Start on a running Home reports ErrAlreadyRunning instead of
// fighting over the store lock.
package localneo4j
