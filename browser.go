package graphmem

import _ "embed"

// BrowserGuide is docs/browser.md, the Neo4j Browser guide: graphmem
// serves it as slides for `:play`, and a test runs every query in it
// against the demo graph.
//
//go:embed docs/browser.md
var BrowserGuide []byte

// BrowserStyle is docs/graphmem.grass, the Browser style graphmem serves
// for `:style <url>`.
//
//go:embed docs/graphmem.grass
var BrowserStyle []byte
