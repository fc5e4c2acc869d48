package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/sashabaranov/go-openai/jsonschema"
)

// schema is one structured output in its two roles. The wire form goes
// to the server: for strict json_schema every property must be required,
// and enums steer the model. The check form validates what comes back: it
// requires only the fields the engine cannot do without and has no enums,
// because the engine normalizes those values itself ("city" is a Place,
// "Negative" a negative polarity); failing a whole window over a spelling a
// local model chose would repeat the peers' structured-output breakage.
type schema struct {
	check jsonschema.Definition
	wire  json.RawMessage // marshalled once: Definition.MarshalJSON mutates, so sharing it is racy
	text  string          // indented wire schema for json_object prompts
}

// schemas are the engine's structured outputs, built once per engine.
type schemas struct {
	extract   schema
	insights  schema
	attention schema
	summary   schema // create_state_summary parameters; not strict, like upstream
}

func newSchemas() (schemas, error) {
	var s schemas
	var err error
	if s.extract, err = newSchema(extraction{}, true, extractEnums()); err != nil {
		return s, fmt.Errorf("extraction schema: %w", err)
	}
	if s.insights, err = newSchema(insightOutput{}, true, nil); err != nil {
		return s, fmt.Errorf("insight schema: %w", err)
	}
	if s.attention, err = newSchema(attentionOutput{}, true, nil); err != nil {
		return s, fmt.Errorf("attention schema: %w", err)
	}
	if s.summary, err = newSchema(stateSummary{}, false, nil); err != nil {
		return s, fmt.Errorf("summary schema: %w", err)
	}
	return s, nil
}

// enum sets the allowed values of one property of a named definition.
type enum struct {
	def, prop string
	values    []string
}

// newSchema generates a schema for v with go-openai's reflector, adds the
// enums, and derives the wire and check forms.
func newSchema(v any, strict bool, enums []enum) (schema, error) {
	gen, err := jsonschema.GenerateSchemaForType(v)
	if err != nil {
		return schema{}, err
	}
	// Definitions are named after Go types; the model sees short names.
	renamed := make(map[string]jsonschema.Definition, len(gen.Defs))
	for name, d := range gen.Defs {
		renamed[defName(name)] = d
	}
	gen.Defs = renamed
	base := schemaCopy(*gen, func(d *jsonschema.Definition) {
		if name, ok := strings.CutPrefix(d.Ref, "#/$defs/"); ok {
			d.Ref = "#/$defs/" + defName(name)
		}
	})
	for _, e := range enums {
		d, ok := base.Defs[e.def]
		if !ok {
			return schema{}, fmt.Errorf("no definition %q", e.def)
		}
		p, ok := d.Properties[e.prop]
		if !ok {
			return schema{}, fmt.Errorf("no property %s.%s", e.def, e.prop)
		}
		p.Enum = slices.Clone(e.values)
		d.Properties[e.prop] = p
		base.Defs[e.def] = d
	}
	wire := base
	if strict {
		wire = schemaCopy(base, func(d *jsonschema.Definition) {
			if d.Type == jsonschema.Object {
				d.Required = slices.Sorted(maps.Keys(d.Properties))
			}
		})
	}
	raw, err := json.Marshal(&wire)
	if err != nil {
		return schema{}, err
	}
	check := schemaCopy(base, func(d *jsonschema.Definition) { d.Enum = nil })
	return schema{check: check, wire: raw, text: schemaText(json.RawMessage(raw))}, nil
}

// schemaText is the indented form of a wire schema that json_object prompts
// carry; empty if it does not marshal.
func schemaText(wire json.Marshaler) string {
	if wire == nil {
		return ""
	}
	text, err := json.MarshalIndent(wire, "", "  ")
	if err != nil {
		return ""
	}
	// encoding/json escapes <, > and & for HTML; a prompt reads better without.
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(text))
}

// defName turns a Go type name into the definition name the model
// sees: extractedFact -> fact, insightItem -> insight.
func defName(goName string) string {
	switch goName {
	case "extractedEntity":
		return "entity"
	case "extractedFact":
		return "fact"
	case "insightItem":
		return "insight"
	default:
		return goName
	}
}

// schemaCopy deep-copies a definition, applying edit to every node.
func schemaCopy(d jsonschema.Definition, edit func(*jsonschema.Definition)) jsonschema.Definition {
	out := d
	out.Enum = slices.Clone(d.Enum)
	out.Required = slices.Clone(d.Required)
	if d.Properties != nil {
		out.Properties = make(map[string]jsonschema.Definition, len(d.Properties))
		for k, p := range d.Properties {
			out.Properties[k] = schemaCopy(p, edit)
		}
	}
	if d.Defs != nil {
		out.Defs = make(map[string]jsonschema.Definition, len(d.Defs))
		for k, p := range d.Defs {
			out.Defs[k] = schemaCopy(p, edit)
		}
	}
	if d.Items != nil {
		items := schemaCopy(*d.Items, edit)
		out.Items = &items
	}
	if d.AnyOf != nil {
		out.AnyOf = make([]jsonschema.Definition, len(d.AnyOf))
		for i, p := range d.AnyOf {
			out.AnyOf[i] = schemaCopy(p, edit)
		}
	}
	edit(&out)
	return out
}

// decode parses a model's JSON answer into out: it tolerates what local
// models commonly wrap around JSON (a <think> block, Markdown fences, prose),
// treats null as absent, validates against the check schema with
// Definition.Unmarshal, and on failure names the first offending path so
// the ErrInvalidOutput says what was wrong.
func decode(content string, s schema, out any) error {
	payload := jsonPayload(content)
	if payload == "" {
		return errors.New("output contains no JSON object")
	}
	var data any
	if err := json.Unmarshal([]byte(payload), &data); err != nil {
		return fmt.Errorf("output is not valid JSON: %w", err)
	}
	data = dropNulls(data)
	clean, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("re-encode output: %w", err)
	}
	if err := s.check.Unmarshal(string(clean), out); err != nil {
		if reason := schemaMismatch(s.check, data, jsonschema.CollectDefs(s.check), "$"); reason != "" {
			return fmt.Errorf("output does not match the schema: %s", reason)
		}
		return fmt.Errorf("output does not match the schema: %w", err)
	}
	return nil
}

// thinkBlock matches a reasoning or Mem1 memory block.
var thinkBlock = regexp.MustCompile(`(?s)<think>(.*?)</think>`)

// jsonPayload cuts the JSON object out of a model answer.
func jsonPayload(content string) string {
	s := strings.TrimSpace(content)
	if strings.HasPrefix(s, "<think>") {
		if loc := thinkBlock.FindStringIndex(s); loc != nil && loc[0] == 0 {
			s = strings.TrimSpace(s[loc[1]:])
		}
	}
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```JSON")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
		s = strings.TrimSpace(s)
	}
	if strings.HasPrefix(s, "{") {
		return s
	}
	start, end := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if start < 0 || end < start {
		return ""
	}
	return s[start : end+1]
}

// dropNulls removes null members and elements, so an optional field a
// model set to null reads as absent rather than failing validation.
func dropNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			t[k] = dropNulls(e)
		}
		return t
	case []any:
		out := t[:0]
		for _, e := range t {
			if e != nil {
				out = append(out, dropNulls(e))
			}
		}
		return out
	default:
		return v
	}
}

// schemaMismatch mirrors jsonschema.Validate but returns the first
// offending path and why, or "" when data conforms.
func schemaMismatch(def jsonschema.Definition, data any, defs map[string]jsonschema.Definition, path string) string {
	if def.Type == "" && def.Ref != "" {
		ref, ok := defs[def.Ref]
		if !ok {
			return path + ": unresolved " + def.Ref
		}
		return schemaMismatch(ref, data, defs, path)
	}
	switch def.Type {
	case jsonschema.Object:
		m, ok := data.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want object, got %s", path, jsonKind(data))
		}
		for _, f := range def.Required {
			if _, ok := m[f]; !ok {
				return fmt.Sprintf("%s.%s: required field missing", path, f)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(def.Properties)) {
			if v, ok := m[k]; ok {
				if r := schemaMismatch(def.Properties[k], v, defs, path+"."+k); r != "" {
					return r
				}
			}
		}
	case jsonschema.Array:
		a, ok := data.([]any)
		if !ok {
			return fmt.Sprintf("%s: want array, got %s", path, jsonKind(data))
		}
		if def.Items != nil {
			for i, e := range a {
				if r := schemaMismatch(*def.Items, e, defs, fmt.Sprintf("%s[%d]", path, i)); r != "" {
					return r
				}
			}
		}
	case jsonschema.String:
		s, ok := data.(string)
		if !ok {
			return fmt.Sprintf("%s: want string, got %s", path, jsonKind(data))
		}
		if len(def.Enum) > 0 && !slices.Contains(def.Enum, s) {
			return fmt.Sprintf("%s: %q is not one of %v", path, s, def.Enum)
		}
	case jsonschema.Number, jsonschema.Integer:
		if _, ok := data.(float64); !ok {
			return fmt.Sprintf("%s: want number, got %s", path, jsonKind(data))
		}
	case jsonschema.Boolean:
		if _, ok := data.(bool); !ok {
			return fmt.Sprintf("%s: want boolean, got %s", path, jsonKind(data))
		}
	}
	return ""
}

// jsonKind names the JSON type of a decoded value for error messages.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	default:
		return fmt.Sprintf("%T", v)
	}
}
