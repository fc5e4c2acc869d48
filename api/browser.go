package api

import (
	"bytes"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"

	"github.com/gin-gonic/gin"
)

// The Neo4j Browser guide: docs/browser.md (main passes it in
// Options.BrowserGuide) rendered as the HTML slides `:play <url>` shows,
// each code block runnable with a click, and docs/graphmem.grass for
// `:style <url>`. Browser fetches both with cross-origin requests from its
// own page (and a preflight, since it sends Cache-Control and Pragma), so
// these routes answer CORS for any origin: they are public documents that
// carry no data and accept no credentials. Browser also requires the
// host to be listed in Neo4j's browser.remote_content_hostname_whitelist.

// browserQuery presets the guide's parameters; Browser's :param lines are
// rewritten to these values.
type browserQuery struct {
	Tenant string `form:"tenant" binding:"omitempty,ident"`
	User   string `form:"user" binding:"omitempty,ident"`
}

// browserFile serves one document of the Browser guide.
func (s *server) browserFile(c *gin.Context) {
	corsAnyOrigin(c)
	switch c.Param("file") {
	case "guide.html":
		if len(s.opts.BrowserGuide) == 0 {
			s.fail(c, errRouteNotFound)
			return
		}
		var q browserQuery
		if err := s.bindQuery(c, &q); err != nil {
			s.fail(c, err)
			return
		}
		page := renderGuide(s.opts.BrowserGuide, guidePresets{base: requestBase(c), tenant: q.Tenant, user: q.User})
		c.Header("Cache-Control", "no-cache")
		c.Data(http.StatusOK, "text/html; charset=utf-8", page)
	case "graphmem.grass":
		if len(s.opts.BrowserStyle) == 0 {
			s.fail(c, errRouteNotFound)
			return
		}
		// The presets mean nothing to the style, but the route takes them
		// (openapi.yaml): the same rule for both files.
		if err := s.bindQuery(c, &browserQuery{}); err != nil {
			s.fail(c, err)
			return
		}
		c.Header("Cache-Control", "no-cache")
		c.Data(http.StatusOK, "text/plain; charset=utf-8", s.opts.BrowserStyle)
	default:
		s.fail(c, errRouteNotFound)
	}
}

// browserPreflight answers the CORS preflight Browser sends before it
// fetches a guide or a style.
func (s *server) browserPreflight(c *gin.Context) {
	if f := c.Param("file"); f != "guide.html" && f != "graphmem.grass" {
		s.fail(c, errRouteNotFound)
		return
	}
	corsAnyOrigin(c)
	c.Header("Access-Control-Allow-Methods", "GET, OPTIONS")
	c.Header("Access-Control-Allow-Headers", "Cache-Control, Pragma, Content-Type")
	c.Header("Access-Control-Max-Age", "600")
	c.Status(http.StatusNoContent)
}

func corsAnyOrigin(c *gin.Context) { c.Header("Access-Control-Allow-Origin", "*") }

// requestBase is the address the client used to reach this server, so the
// guide's :style line points back at it.
func requestBase(c *gin.Context) string {
	scheme := "http"
	if c.Request.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.Request.Host
}

// guidePresets are the values the rendered guide substitutes.
type guidePresets struct {
	base, tenant, user string
}

var (
	presetParam = regexp.MustCompile(`^:param (tenant|user) => '[^']*'$`)
	localURL    = regexp.MustCompile(`http://127\.0\.0\.1:8080`)
	inlineCode  = regexp.MustCompile("`([^`]+)`")
	bold        = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	mdLink      = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	autoLink    = regexp.MustCompile(`&lt;(https?://[^\s&]+)&gt;`)
)

// renderGuide turns the guide's markdown into Browser guide HTML: an
// <article class="guide"> holding a carousel, one slide for the text
// before the first "##" heading and one per "##" section. It understands
// the markdown the guide uses: headings, paragraphs, fenced code, tables,
// "-" lists, inline code, bold and links. Code blocks become runnable.
func renderGuide(md []byte, p guidePresets) []byte {
	type slide struct {
		title string
		body  bytes.Buffer
	}
	var (
		title  = "graphmem"
		slides = []*slide{{}}
		para   []string
		table  [][]string
		list   []string
		code   []string
		lang   string
		inCode bool
	)
	cur := func() *bytes.Buffer { return &slides[len(slides)-1].body }
	flush := func() {
		if len(para) > 0 {
			fmt.Fprintf(cur(), "<p>%s</p>\n", inline(strings.Join(para, " "), p.base))
			para = nil
		}
		if len(list) > 0 {
			cur().WriteString("<ul>\n")
			for _, item := range list {
				fmt.Fprintf(cur(), "<li>%s</li>\n", inline(item, p.base))
			}
			cur().WriteString("</ul>\n")
			list = nil
		}
		if len(table) > 0 {
			cur().WriteString(`<table class="table table-condensed">` + "\n")
			for i, row := range table {
				cell := "td"
				if i == 0 {
					cell = "th"
				}
				cur().WriteString("<tr>")
				for _, v := range row {
					fmt.Fprintf(cur(), "<%s>%s</%s>", cell, inline(v, p.base), cell)
				}
				cur().WriteString("</tr>\n")
			}
			cur().WriteString("</table>\n")
			table = nil
		}
	}
	for _, line := range strings.Split(string(md), "\n") {
		trimmed := strings.TrimSpace(line)
		if inCode {
			if trimmed != "```" {
				code = append(code, line)
				continue
			}
			inCode = false
			text := strings.Join(code, "\n")
			if lang == "browser" {
				text = presetCommands(text, p)
			}
			mode := ""
			if lang == "cypher" {
				mode = ` mode="cypher"`
			}
			fmt.Fprintf(cur(), "<figure><pre%s class=\"pre-scrollable code runnable\">%s</pre></figure>\n", mode, html.EscapeString(text))
			continue
		}
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush()
			inCode, lang, code = true, strings.TrimPrefix(trimmed, "```"), nil
		case strings.HasPrefix(trimmed, "# "):
			flush()
			title = strings.TrimPrefix(trimmed, "# ")
			slides[0].title = title
		case strings.HasPrefix(trimmed, "## "):
			flush()
			slides = append(slides, &slide{title: strings.TrimPrefix(trimmed, "## ")})
		case strings.HasPrefix(trimmed, "|"):
			if len(para) > 0 || len(list) > 0 {
				flush()
			}
			cells := strings.Split(strings.Trim(trimmed, "|"), "|")
			if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
				continue // the header's separator row
			}
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			table = append(table, cells)
		case strings.HasPrefix(trimmed, "- "):
			if len(para) > 0 || len(table) > 0 {
				flush()
			}
			list = append(list, strings.TrimPrefix(trimmed, "- "))
		case trimmed == "":
			flush()
		default:
			if len(list) > 0 && strings.HasPrefix(line, "  ") {
				list[len(list)-1] += " " + trimmed
				continue
			}
			if len(table) > 0 {
				flush()
			}
			para = append(para, trimmed)
		}
	}
	flush()

	var out bytes.Buffer
	fmt.Fprintf(&out, "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n", html.EscapeString(title))
	out.WriteString("<article class=\"guide\">\n<carousel class=\"deck container-fluid\">\n")
	for _, s := range slides {
		out.WriteString("<slide class=\"row-fluid\">\n<div class=\"col-sm-3\">\n")
		fmt.Fprintf(&out, "<h3>%s</h3>\n</div>\n<div class=\"col-sm-9\">\n", inline(s.title, p.base))
		out.Write(s.body.Bytes())
		out.WriteString("</div>\n</slide>\n")
	}
	out.WriteString("</carousel>\n</article>\n</body></html>\n")
	return out.Bytes()
}

// presetCommands rewrites a browser block for this server and reader: the
// tenant and user presets, and graphmem's own address.
func presetCommands(text string, p guidePresets) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if m := presetParam.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			// Both values passed the ident rule: no quote can close the
			// Cypher string.
			switch {
			case m[1] == "tenant" && p.tenant != "":
				lines[i] = ":param tenant => '" + p.tenant + "'"
			case m[1] == "user" && p.user != "":
				lines[i] = ":param user => '" + p.user + "'"
			}
		}
		if p.base != "" {
			lines[i] = localURL.ReplaceAllLiteralString(lines[i], p.base)
		}
	}
	return strings.Join(lines, "\n")
}

// inline renders the inline markdown of one paragraph, escaped. A link to
// a file beside the guide (graphmem.grass) points at the served copy;
// other relative links, meaningless inside Browser, keep only their text.
func inline(s, base string) string {
	s = html.EscapeString(s)
	var codes []string
	s = inlineCode.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+inlineCode.FindStringSubmatch(m)[1]+"</code>")
		return fmt.Sprintf("\x00%d\x00", len(codes)-1)
	})
	s = bold.ReplaceAllString(s, "<strong>$1</strong>")
	s = mdLink.ReplaceAllStringFunc(s, func(m string) string {
		sub := mdLink.FindStringSubmatch(m)
		text, target := sub[1], sub[2]
		switch {
		case strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://"):
			return `<a href="` + target + `" target="_blank">` + text + `</a>`
		case target == "graphmem.grass" && base != "":
			return `<a href="` + base + `/browser/graphmem.grass" target="_blank">` + text + `</a>`
		}
		return text
	})
	s = autoLink.ReplaceAllString(s, `<a href="$1" target="_blank">$1</a>`)
	for i, c := range codes {
		s = strings.Replace(s, fmt.Sprintf("\x00%d\x00", i), c, 1)
	}
	return s
}
