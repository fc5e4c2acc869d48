package offline

import (
	"regexp"
	"strings"
)

// Contact details: the speaker's email address or phone number, one
// current value per kind ("my new email is sam.k@mailbox.org", "you can
// reach me on 07700 900123 now"). The tokenizer splits addresses apart,
// so they are read from the sentence's text; the speaker's own detail is
// told from a relative's by the possessive before the kind.

var (
	emailPattern = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)
	phonePattern = regexp.MustCompile(`\+?\d[\d ()-]{6,}\d`)
	// contactOwn: the detail is the speaker's ("my email", "reach me at").
	contactOwn = regexp.MustCompile(`(?i)\b(my|our)\s+(new\s+|current\s+|work\s+|personal\s+|updated\s+)?` +
		`(e-?mail|email address|address|phone|phone number|number|mobile|mobile number|cell|cell number)\b|` +
		`\b(reach|contact|email|e-mail|call|text|ring)\s+(me|us)\b`)
	// contactNew: a sentence that opens with its new detail, the "my" left
	// out ("new email is jo@fastmail.fm", "Updated number: 07700 900456").
	contactNew = regexp.MustCompile(`(?i)^\W*(new|updated|current)\s+(e-?mail|email address|address|phone|phone number|number|mobile|mobile number)\b`)
	// streetPattern: a street address, house number first ("12 Rowan
	// Close", "27 Holloway Lane, Frome, BA11 3QT").
	streetPattern = regexp.MustCompile(`\b\d{1,4}[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Road|Rd|Lane|Ln|Close|Avenue|Ave|Way|Drive|Dr|Court|Ct|Crescent|Place|Pl|Terrace|Gardens|Grove|Row|Square|Hill|Mews|Walk|Boulevard|Blvd)\b(?:,\s*[A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)?(?:,\s*[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})?`)
	// contactOther: the detail is someone else's ("my sister's email").
	contactOther = regexp.MustCompile(`(?i)\b(my|our)\s+\w+'s\s+(e-?mail|phone|number|mobile)|\b(his|her|their)\s+(e-?mail|phone|number|mobile)`)
)

// contacts reads the contact details of one sentence of the speaker's.
func (w *window) contacts(u *utterance, s sentence) {
	text := s.text
	if u.speaker == "" || !contactOwn.MatchString(text) && !contactNew.MatchString(text) || contactOther.MatchString(text) ||
		strings.Contains(strings.ToLower(text), "if ") {
		return
	}
	c := &clause{said: u, subj: u.speaker}
	if m := emailPattern.FindString(text); m != "" {
		c.emit(fx{pred: "HAS_CONTACT", obj: c.value(m), qual: "email", conf: 0.85, tmpl: "{S's} email is {O}", noDate: true})
	}
	if m := streetPattern.FindString(text); m != "" && strings.Contains(strings.ToLower(text), "address") {
		c.emit(fx{pred: "HAS_CONTACT", obj: c.value(m), qual: "address", conf: 0.8, tmpl: "{S's} address is {O}", noDate: true})
	}
	low := strings.ToLower(text)
	if m := strings.TrimSpace(phonePattern.FindString(emailPattern.ReplaceAllString(text, ""))); m != "" &&
		countDigits(m) >= 7 && (strings.Contains(low, "phone") || strings.Contains(low, "number") ||
		strings.Contains(low, "mobile") || strings.Contains(low, "cell") || strings.Contains(low, "call") ||
		strings.Contains(low, "text") || strings.Contains(low, "ring") || strings.Contains(low, "reach")) {
		c.emit(fx{pred: "HAS_CONTACT", obj: c.value(m), qual: "phone", conf: 0.85, tmpl: "{S's} phone number is {O}", noDate: true})
	}
}

func countDigits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}
