package mcp

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// Input schemas are written out, not inferred from the Go types: they
// carry the REST limits (lengths, ranges, enums, the identifier pattern)
// that inference cannot know. TestToolSchemasMatchTheAPI holds them to
// openapi.yaml.

// identPattern is the API's identifier rule (openapi.yaml, Ident).
const identPattern = `^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$`

// optIdentPattern is an identifier or nothing (openapi.yaml, OptIdent);
// instantPattern an RFC 3339 time or a date, or nothing (OptInstant).
const (
	optIdentPattern = `^([A-Za-z0-9][A-Za-z0-9_.:@-]{0,127})?$`
	instantPattern  = `^([0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9]))?)?$`
)

type prop = jsonschema.Schema

func optIdent(desc string) *prop {
	return &prop{Type: "string", Pattern: optIdentPattern, Description: desc}
}

func instant(desc string) *prop {
	return &prop{Type: "string", Pattern: instantPattern, Description: desc}
}

func object(required []string, props map[string]*prop) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: required, Properties: props,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
}

func ident(desc string) *prop {
	return &prop{Type: "string", Pattern: identPattern, Description: desc}
}

func text(desc string, minLen, maxLen int) *prop {
	p := &prop{Type: "string", Description: desc}
	if minLen > 0 {
		p.MinLength = &minLen
	}
	if maxLen > 0 {
		p.MaxLength = &maxLen
	}
	return p
}

func enum(desc string, values ...string) *prop {
	p := &prop{Type: "string", Description: desc}
	for _, v := range values {
		p.Enum = append(p.Enum, v)
	}
	return p
}

func integer(desc string, lo, hi float64) *prop {
	return &prop{Type: "integer", Description: desc, Minimum: &lo, Maximum: &hi}
}

func number(desc string, lo, hi float64) *prop {
	return &prop{Type: "number", Description: desc, Minimum: &lo, Maximum: &hi}
}

func boolean(desc string) *prop {
	return &prop{Type: "boolean", Description: desc, Default: json.RawMessage("false")}
}

func array(desc string, items *prop, maxItems int) *prop {
	p := &prop{Type: "array", Description: desc, Items: items}
	if maxItems > 0 {
		p.MaxItems = &maxItems
	}
	return p
}
