package condenser

import (
	"errors"
	"fmt"
	"slices"
)

// Type names a condenser in a Config.
type Type string

// Condenser types (spec §1), plus Mem1.
const (
	TypeNoOp               Type = "noop"
	TypeObservationMasking Type = "observation_masking"
	TypeBrowserOutput      Type = "browser_output_masking"
	TypeRecent             Type = "recent"
	TypeAmortized          Type = "amortized"
	TypeLLMAttention       Type = "llm_attention"
	TypeLLMSummarizing     Type = "llm"
	TypeStructured         Type = "structured"
	TypeConversationWindow Type = "conversation_window"
	TypePipeline           Type = "pipeline"
	TypeMem1               Type = "mem1"
)

// Config describes a condenser as JSON, so the orchestration can store the
// exact snapshot it ran with next to each condensation. Fields a type does
// not use must stay unset. Pointer fields distinguish "unset" (the type's
// default) from an explicit zero, which is meaningful for keep_first and
// attention_window and an error for max_size.
type Config struct {
	Type Type `json:"type"`

	KeepFirst       *int `json:"keep_first,omitempty"`
	KeepLast        *int `json:"keep_last,omitempty"`
	MaxSize         *int `json:"max_size,omitempty"`
	MaxEvents       *int `json:"max_events,omitempty"`
	MaxEventLength  *int `json:"max_event_length,omitempty"`
	AttentionWindow *int `json:"attention_window,omitempty"`

	// MaxTokens enables the token trigger (0: off). Without TokenRatio it
	// fires when tokens > max_tokens (SDK); with it, when tokens >=
	// max_tokens*token_ratio (AgentScope).
	MaxTokens  int     `json:"max_tokens,omitempty"`
	TokenRatio float64 `json:"token_ratio,omitempty"`

	MinimumProgress     *float64 `json:"minimum_progress,omitempty"`
	HardResetMaxRetries *int     `json:"hard_context_reset_max_retries,omitempty"`
	HardResetScaling    *float64 `json:"hard_context_reset_context_scaling,omitempty"`

	Condensers []Config `json:"condensers,omitempty"`
}

// Ptr returns a pointer to v, for filling Config's optional fields.
func Ptr[T any](v T) *T { return &v }

// Deps are what New wires into LLM-backed condensers.
type Deps struct {
	Summarizer Summarizer
	Attender   Attender
	// Counter counts tokens for the token trigger and for the records'
	// before/after counts. Required when max_tokens is set.
	Counter TokenCounter
}

// field is one optional Config field: its JSON name and whether it is set.
type field struct {
	name string
	set  bool
}

func (c Config) fields() []field {
	return []field{
		{"keep_first", c.KeepFirst != nil},
		{"keep_last", c.KeepLast != nil},
		{"max_size", c.MaxSize != nil},
		{"max_events", c.MaxEvents != nil},
		{"max_event_length", c.MaxEventLength != nil},
		{"attention_window", c.AttentionWindow != nil},
		{"max_tokens", c.MaxTokens != 0},
		{"token_ratio", c.TokenRatio != 0},
		{"minimum_progress", c.MinimumProgress != nil},
		{"hard_context_reset_max_retries", c.HardResetMaxRetries != nil},
		{"hard_context_reset_context_scaling", c.HardResetScaling != nil},
		{"condensers", c.Condensers != nil},
	}
}

// allowedFields lists the fields each type reads.
func allowedFields(t Type) ([]string, bool) {
	tokens := []string{"max_tokens", "token_ratio"}
	summarizing := append([]string{"keep_first", "max_size", "max_event_length", "minimum_progress",
		"hard_context_reset_max_retries", "hard_context_reset_context_scaling"}, tokens...)
	switch t {
	case TypeNoOp, TypeConversationWindow:
		return nil, true
	case TypeObservationMasking, TypeBrowserOutput:
		return []string{"attention_window"}, true
	case TypeRecent:
		return []string{"keep_first", "max_events"}, true
	case TypeAmortized, TypeLLMAttention:
		return append([]string{"keep_first", "max_size"}, tokens...), true
	case TypeLLMSummarizing, TypeStructured:
		return summarizing, true
	case TypeMem1:
		return append([]string{"keep_first", "keep_last", "max_size", "max_event_length",
			"hard_context_reset_max_retries", "hard_context_reset_context_scaling"}, tokens...), true
	case TypePipeline:
		return []string{"condensers"}, true
	}
	return nil, false
}

// WithDefaults returns the config with every field its type uses filled
// in, recursively. Store this form: it records what actually ran even if
// the defaults change later.
func (c Config) WithDefaults() Config {
	set := func(p **int, v int) {
		if *p == nil {
			*p = Ptr(v)
		}
	}
	setF := func(p **float64, v float64) {
		if *p == nil {
			*p = Ptr(v)
		}
	}
	switch c.Type {
	case TypeObservationMasking:
		set(&c.AttentionWindow, 100)
	case TypeBrowserOutput:
		set(&c.AttentionWindow, 1)
	case TypeRecent:
		set(&c.KeepFirst, 1)
		set(&c.MaxEvents, 100)
	case TypeAmortized, TypeLLMAttention:
		set(&c.KeepFirst, 1)
		set(&c.MaxSize, 100)
	case TypeLLMSummarizing, TypeStructured, TypeMem1:
		set(&c.KeepFirst, 1)
		set(&c.MaxEventLength, 10000)
		set(&c.HardResetMaxRetries, 5)
		setF(&c.HardResetScaling, 0.8)
		if c.Type == TypeMem1 {
			set(&c.KeepLast, 4) // max_size stays optional: unset fires on requests only
		} else {
			set(&c.MaxSize, 100)
			setF(&c.MinimumProgress, 0)
		}
	case TypePipeline:
		subs := make([]Config, len(c.Condensers))
		for i, sub := range c.Condensers {
			subs[i] = sub.WithDefaults()
		}
		c.Condensers = subs
	}
	return c
}

// Validate reports every problem with the config, each a *FieldError
// naming its JSON field and unwrapping to ErrInvalidConfig.
func (c Config) Validate() error { return errors.Join(c.validate("")...) }

func (c Config) validate(prefix string) []error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fieldErr(ErrInvalidConfig, prefix+name, format, args...))
	}
	allowed, known := allowedFields(c.Type)
	if !known {
		bad("type", "unknown condenser type %q", c.Type)
		return errs
	}
	for _, f := range c.fields() {
		if f.set && !slices.Contains(allowed, f.name) {
			bad(f.name, "not used by type %q", c.Type)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	d := c.WithDefaults()
	val := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	keepFirst, maxSize := val(d.KeepFirst), val(d.MaxSize)

	switch c.Type {
	case TypeObservationMasking, TypeBrowserOutput:
		if *d.AttentionWindow < 0 {
			bad("attention_window", "must be >= 0, got %d", *d.AttentionWindow)
		}
	case TypeRecent:
		if *d.MaxEvents < 1 {
			bad("max_events", "must be >= 1, got %d", *d.MaxEvents)
		}
		if keepFirst < 0 || keepFirst > *d.MaxEvents {
			bad("keep_first", "must be between 0 and max_events (%d), got %d", *d.MaxEvents, keepFirst)
		}
	case TypeAmortized, TypeLLMAttention:
		switch {
		case maxSize < 1:
			bad("max_size", "must be >= 1, got %d", maxSize)
		case keepFirst < 0:
			bad("keep_first", "must be >= 0, got %d", keepFirst)
		case keepFirst >= maxSize/2:
			bad("keep_first", "must be less than max_size/2 (%d), got %d", maxSize/2, keepFirst)
		}
	case TypeLLMSummarizing, TypeStructured:
		switch {
		case maxSize < 1:
			bad("max_size", "must be >= 1, got %d", maxSize)
		case keepFirst < 0:
			bad("keep_first", "must be >= 0, got %d", keepFirst)
		case maxSize/2-keepFirst-1 <= 0:
			// The SDK rule: a condensation must keep at least one tail event
			// besides the summary, or the forget range is empty (V0 crashes).
			bad("keep_first", "must be less than max_size/2-1 (%d) to leave room for a summary and a tail, got %d", maxSize/2-1, keepFirst)
		}
	case TypeMem1:
		switch {
		case keepFirst < 0:
			bad("keep_first", "must be >= 0, got %d", keepFirst)
		case *d.KeepLast < 0:
			bad("keep_last", "must be >= 0, got %d", *d.KeepLast)
		case d.MaxSize != nil && maxSize <= keepFirst+*d.KeepLast+1:
			bad("max_size", "must be greater than keep_first+keep_last+1 (%d), got %d", keepFirst+*d.KeepLast+1, maxSize)
		}
	case TypePipeline:
		for i, sub := range c.Condensers {
			p := fmt.Sprintf("%scondensers[%d].", prefix, i)
			if sub.Type == TypePipeline {
				errs = append(errs, fieldErr(ErrInvalidConfig, p+"type", "a pipeline cannot contain a pipeline"))
				continue
			}
			errs = append(errs, sub.validate(p)...)
		}
	}
	switch c.Type {
	case TypeAmortized, TypeLLMAttention, TypeLLMSummarizing, TypeStructured, TypeMem1:
		if c.MaxTokens < 0 {
			bad("max_tokens", "must be >= 0, got %d", c.MaxTokens)
		}
		if c.TokenRatio < 0 || c.TokenRatio > 1 {
			bad("token_ratio", "must be in (0,1], got %g", c.TokenRatio)
		}
		if c.TokenRatio != 0 && c.MaxTokens == 0 {
			bad("token_ratio", "needs max_tokens")
		}
	}
	switch c.Type {
	case TypeLLMSummarizing, TypeStructured, TypeMem1:
		if p := d.MinimumProgress; p != nil && (*p < 0 || *p >= 1) {
			bad("minimum_progress", "must be in [0,1), got %g", *p)
		}
		if *d.HardResetMaxRetries < 0 {
			bad("hard_context_reset_max_retries", "must be >= 0 (0 disables the reset), got %d", *d.HardResetMaxRetries)
		}
		if s := *d.HardResetScaling; s <= 0 || s >= 1 {
			bad("hard_context_reset_context_scaling", "must be in (0,1), got %g", s)
		}
	}
	return errs
}

// New builds the condenser a config describes. It validates the config and
// checks that the dependencies the type needs are present and capable.
func New(cfg Config, deps Deps) (Condenser, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return build(cfg.WithDefaults(), deps, "")
}

func build(c Config, deps Deps, prefix string) (Condenser, error) {
	missing := func(name, format string, args ...any) error {
		return fieldErr(ErrMissingDependency, prefix+name, format, args...)
	}
	var trig triggers
	switch c.Type {
	case TypeAmortized, TypeLLMAttention, TypeLLMSummarizing, TypeStructured, TypeMem1:
		if c.MaxTokens > 0 && deps.Counter == nil {
			return nil, missing("deps.counter", "max_tokens needs a TokenCounter")
		}
		trig = triggers{
			strategy: c.Type, handlesRequests: true, maxTokens: c.MaxTokens,
			tokenRatio: c.TokenRatio, counter: deps.Counter,
		}
		if c.MaxSize != nil {
			trig.maxSize = *c.MaxSize
		}
	}
	switch c.Type {
	case TypeNoOp:
		return newNoOp(), nil
	case TypeObservationMasking:
		return newObservationMasking(*c.AttentionWindow), nil
	case TypeBrowserOutput:
		return newBrowserOutputMasking(*c.AttentionWindow), nil
	case TypeRecent:
		return newRecentEvents(*c.KeepFirst, *c.MaxEvents), nil
	case TypeConversationWindow:
		return window{}, nil
	case TypeAmortized:
		return &amortized{trig: trig, keepFirst: *c.KeepFirst}, nil
	case TypeLLMAttention:
		if deps.Attender == nil {
			return nil, missing("deps.attender", "llm_attention needs an Attender")
		}
		if r, ok := deps.Attender.(CapabilityReporter); ok && !r.Capabilities().ResponseSchema {
			return nil, missing("deps.attender", "llm_attention needs a model that supports response schemas")
		}
		return &attention{trig: trig, keepFirst: *c.KeepFirst, attender: deps.Attender}, nil
	case TypeLLMSummarizing, TypeStructured:
		style := StyleSections
		if c.Type == TypeStructured {
			style = StyleStructured
		}
		if deps.Summarizer == nil {
			return nil, missing("deps.summarizer", "%s needs a Summarizer", c.Type)
		}
		if r, ok := deps.Summarizer.(CapabilityReporter); ok && style == StyleStructured && !r.Capabilities().FunctionCalling {
			return nil, missing("deps.summarizer", "structured needs a model with function calling")
		}
		return &summarizing{
			trig: trig, style: style, keepFirst: *c.KeepFirst, maxEventLength: *c.MaxEventLength,
			minProgress: *c.MinimumProgress, resetRetries: *c.HardResetMaxRetries,
			resetScaling: *c.HardResetScaling, summarizer: deps.Summarizer,
		}, nil
	case TypeMem1:
		if deps.Summarizer == nil {
			return nil, missing("deps.summarizer", "mem1 needs a Summarizer")
		}
		return &mem1{
			trig: trig, keepFirst: *c.KeepFirst, keepLast: *c.KeepLast, maxEventLength: *c.MaxEventLength,
			resetRetries: *c.HardResetMaxRetries, resetScaling: *c.HardResetScaling, summarizer: deps.Summarizer,
		}, nil
	case TypePipeline:
		p := &pipeline{}
		for i, sub := range c.Condensers {
			step, err := build(sub, deps, fmt.Sprintf("%scondensers[%d].", prefix, i))
			if err != nil {
				return nil, err
			}
			p.steps = append(p.steps, step)
			p.types = append(p.types, sub.Type)
		}
		return p, nil
	}
	return nil, fieldErr(ErrInvalidConfig, prefix+"type", "unknown condenser type %q", c.Type)
}
