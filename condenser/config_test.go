package condenser

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFromConfig is spec case 18: New maps the type and its fields.
func TestFromConfig(t *testing.T) {
	deps := Deps{Summarizer: &fakeSummarizer{}, Attender: &fakeAttender{}, Counter: wordCounter{}}
	t.Run("case18_amortized", func(t *testing.T) {
		c := mustNew(t, Config{Type: TypeAmortized, MaxSize: Ptr(50), KeepFirst: Ptr(10)}, deps).(*amortized)
		if c.trig.maxSize != 50 || c.keepFirst != 10 || !c.trig.handlesRequests {
			t.Errorf("got %+v", c)
		}
	})
	t.Run("case18_llm_summarizing", func(t *testing.T) {
		c := mustNew(t, Config{Type: TypeLLMSummarizing, MaxSize: Ptr(50), KeepFirst: Ptr(10), MaxTokens: 1000, TokenRatio: 0.75}, deps).(*summarizing)
		if c.trig.maxSize != 50 || c.keepFirst != 10 || c.maxEventLength != 10000 || c.style != StyleSections ||
			c.trig.maxTokens != 1000 || c.trig.tokenRatio != 0.75 || c.resetRetries != 5 || c.resetScaling != 0.8 {
			t.Errorf("got %+v", c)
		}
	})
	t.Run("case18_defaults", func(t *testing.T) {
		c := mustNew(t, Config{Type: TypeLLMSummarizing}, deps).(*summarizing)
		if c.trig.maxSize != 100 || c.keepFirst != 1 {
			t.Errorf("llm defaults: max_size=%d keep_first=%d, want 100 1", c.trig.maxSize, c.keepFirst)
		}
		a := mustNew(t, Config{Type: TypeLLMAttention}, deps).(*attention)
		if a.trig.maxSize != 100 || a.keepFirst != 1 {
			t.Errorf("llm_attention defaults: %+v", a)
		}
		m := mustNew(t, Config{Type: TypeMem1}, deps).(*mem1)
		if m.trig.maxSize != 0 || m.keepFirst != 1 || m.keepLast != 4 || m.maxEventLength != 10000 {
			t.Errorf("mem1 defaults: %+v", m)
		}
		s := mustNew(t, Config{Type: TypeStructured}, deps).(*summarizing)
		if s.style != StyleStructured {
			t.Errorf("structured style = %q", s.style)
		}
	})
	t.Run("case18_pipeline_in_order", func(t *testing.T) {
		cfg := Config{Type: TypePipeline, Condensers: []Config{
			{Type: TypeNoOp},
			{Type: TypeBrowserOutput, AttentionWindow: Ptr(2)},
			{Type: TypeLLMSummarizing, MaxSize: Ptr(50), KeepFirst: Ptr(10)},
		}}
		p := mustNew(t, cfg, deps).(*pipeline)
		if diff := cmp.Diff([]Type{TypeNoOp, TypeBrowserOutput, TypeLLMSummarizing}, p.types); diff != "" {
			t.Fatalf("types (-want +got):\n%s", diff)
		}
		if len(p.steps) != 3 {
			t.Fatalf("steps = %d", len(p.steps))
		}
		if s := p.steps[2].(*summarizing); s.trig.maxSize != 50 || s.keepFirst != 10 {
			t.Errorf("llm step %+v", s)
		}
	})
	t.Run("case18_json_snake_case", func(t *testing.T) {
		var cfg Config
		raw := `{"type":"pipeline","condensers":[{"type":"noop"},{"type":"browser_output_masking","attention_window":2},{"type":"llm","max_size":50,"keep_first":10,"max_event_length":300}]}`
		if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
			t.Fatal(err)
		}
		p := mustNew(t, cfg, deps).(*pipeline)
		if s := p.steps[2].(*summarizing); s.trig.maxSize != 50 || s.keepFirst != 10 || s.maxEventLength != 300 {
			t.Errorf("llm step %+v", s)
		}
		out, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var back Config
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(cfg, back); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	})
}

// TestConfigValidation is spec case 19, plus the rules for other types.
func TestConfigValidation(t *testing.T) {
	summ := &fakeSummarizer{}
	tests := []struct {
		name     string
		cfg      Config
		deps     Deps
		field    string
		sentinel error
	}{
		{"case19_max4_keep2", Config{Type: TypeLLMSummarizing, MaxSize: Ptr(4), KeepFirst: Ptr(2)}, Deps{Summarizer: summ}, "keep_first", ErrInvalidConfig},
		{"case19_max0", Config{Type: TypeLLMSummarizing, MaxSize: Ptr(0)}, Deps{Summarizer: summ}, "max_size", ErrInvalidConfig},
		{"case19_keep_negative", Config{Type: TypeLLMSummarizing, KeepFirst: Ptr(-1)}, Deps{Summarizer: summ}, "keep_first", ErrInvalidConfig},
		{"case19_amortized_max4_keep2", Config{Type: TypeAmortized, MaxSize: Ptr(4), KeepFirst: Ptr(2)}, Deps{}, "keep_first", ErrInvalidConfig},
		{"case19_attention_max0", Config{Type: TypeLLMAttention, MaxSize: Ptr(0)}, Deps{Attender: &fakeAttender{}}, "max_size", ErrInvalidConfig},
		{"case19_structured_without_function_calling", Config{Type: TypeStructured},
			Deps{Summarizer: &capableSummarizer{fakeSummarizer{caps: &Capabilities{FunctionCalling: false}}}}, "deps.summarizer", ErrMissingDependency},
		{"case19_attention_without_response_schema", Config{Type: TypeLLMAttention},
			Deps{Attender: &capableAttender{fakeAttender{caps: &Capabilities{ResponseSchema: false}}}}, "deps.attender", ErrMissingDependency},
		{"llm_keep_leaves_no_tail", Config{Type: TypeLLMSummarizing, MaxSize: Ptr(10), KeepFirst: Ptr(4)}, Deps{Summarizer: summ}, "keep_first", ErrInvalidConfig},
		{"llm_without_summarizer", Config{Type: TypeLLMSummarizing}, Deps{}, "deps.summarizer", ErrMissingDependency},
		{"tokens_without_counter", Config{Type: TypeAmortized, MaxTokens: 100}, Deps{}, "deps.counter", ErrMissingDependency},
		{"ratio_without_max_tokens", Config{Type: TypeAmortized, TokenRatio: 0.5}, Deps{}, "token_ratio", ErrInvalidConfig},
		{"ratio_above_one", Config{Type: TypeAmortized, MaxTokens: 10, TokenRatio: 1.5}, Deps{Counter: wordCounter{}}, "token_ratio", ErrInvalidConfig},
		{"minimum_progress_one", Config{Type: TypeLLMSummarizing, MinimumProgress: Ptr(1.0)}, Deps{Summarizer: summ}, "minimum_progress", ErrInvalidConfig},
		{"scaling_one", Config{Type: TypeLLMSummarizing, HardResetScaling: Ptr(1.0)}, Deps{Summarizer: summ}, "hard_context_reset_context_scaling", ErrInvalidConfig},
		{"unknown_type", Config{Type: "magic"}, Deps{}, "type", ErrInvalidConfig},
		{"field_not_used_by_type", Config{Type: TypeNoOp, MaxSize: Ptr(3)}, Deps{}, "max_size", ErrInvalidConfig},
		{"negative_window", Config{Type: TypeObservationMasking, AttentionWindow: Ptr(-1)}, Deps{}, "attention_window", ErrInvalidConfig},
		{"recent_keep_above_max", Config{Type: TypeRecent, KeepFirst: Ptr(4), MaxEvents: Ptr(3)}, Deps{}, "keep_first", ErrInvalidConfig},
		{"mem1_max_too_small", Config{Type: TypeMem1, MaxSize: Ptr(6)}, Deps{Summarizer: summ}, "max_size", ErrInvalidConfig},
		{"nested_pipeline", Config{Type: TypePipeline, Condensers: []Config{{Type: TypePipeline}}}, Deps{}, "condensers[0].type", ErrInvalidConfig},
		{"pipeline_names_the_step", Config{Type: TypePipeline, Condensers: []Config{{Type: TypeNoOp}, {Type: TypeAmortized, KeepFirst: Ptr(-2)}}}, Deps{}, "condensers[1].keep_first", ErrInvalidConfig},
		{"pipeline_step_dependency", Config{Type: TypePipeline, Condensers: []Config{{Type: TypeLLMSummarizing}}}, Deps{}, "condensers[0].deps.summarizer", ErrMissingDependency},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg, tt.deps)
			if c != nil || err == nil {
				t.Fatalf("New = %v, nil; want an error", c)
			}
			var fe *FieldError
			if !errors.Is(err, tt.sentinel) || !errors.As(err, &fe) || fe.Field != tt.field {
				t.Fatalf("New error = %v, want %v on %s", err, tt.sentinel, tt.field)
			}
		})
	}
	t.Run("reports_every_problem", func(t *testing.T) {
		err := Config{Type: TypeNoOp, MaxSize: Ptr(3), KeepFirst: Ptr(1)}.Validate()
		if got := len(err.(interface{ Unwrap() []error }).Unwrap()); got != 2 {
			t.Errorf("%d problems reported, want 2: %v", got, err)
		}
	})
	t.Run("capable_dependencies_pass", func(t *testing.T) {
		caps := &Capabilities{FunctionCalling: true, ResponseSchema: true}
		mustNew(t, Config{Type: TypeStructured}, Deps{Summarizer: &capableSummarizer{fakeSummarizer{caps: caps}}})
		mustNew(t, Config{Type: TypeLLMAttention}, Deps{Attender: &capableAttender{fakeAttender{caps: caps}}})
	})
}

func TestProfiles(t *testing.T) {
	deps := Deps{Summarizer: &fakeSummarizer{}, Counter: wordCounter{}}
	for name, cfg := range Profiles() {
		t.Run(name, func(t *testing.T) {
			if _, err := New(cfg, deps); err != nil {
				t.Fatalf("profile %s: %v", name, err)
			}
		})
	}
	t.Run("default_mirrors_openhands_web", func(t *testing.T) {
		want := Config{Type: TypePipeline, Condensers: []Config{
			{Type: TypeConversationWindow},
			{Type: TypeBrowserOutput, AttentionWindow: Ptr(2)},
			{Type: TypeLLMSummarizing, KeepFirst: Ptr(4), MaxSize: Ptr(120)},
		}}
		got, err := Profile(ProfileDefault)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("sdk", func(t *testing.T) {
		got, _ := Profile(ProfileSDK)
		if *got.MaxSize != 240 || *got.KeepFirst != 2 || *got.MinimumProgress != 0.1 {
			t.Errorf("sdk profile %+v", got)
		}
	})
	t.Run("fresh_map_each_call", func(t *testing.T) {
		p := Profiles()
		*p[ProfileSDK].MaxSize = 7
		delete(p, ProfileDefault)
		q := Profiles()
		if *q[ProfileSDK].MaxSize != 240 || len(q) != 5 {
			t.Error("Profiles shares state between calls")
		}
	})
	t.Run("unknown", func(t *testing.T) {
		if _, err := Profile("nope"); !errors.Is(err, ErrUnknownProfile) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("with_defaults_is_a_full_snapshot", func(t *testing.T) {
		cfg, _ := Profile(ProfileDefault)
		snap := cfg.WithDefaults()
		llm := snap.Condensers[2]
		if *llm.MaxEventLength != 10000 || *llm.HardResetMaxRetries != 5 || *llm.MinimumProgress != 0 {
			t.Errorf("snapshot %+v", llm)
		}
		if err := snap.Validate(); err != nil {
			t.Errorf("snapshot invalid: %v", err)
		}
	})
}
