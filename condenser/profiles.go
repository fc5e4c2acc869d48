package condenser

import (
	"fmt"
	"slices"
	"strings"
)

// Profile names.
const (
	// ProfileDefault mirrors OpenHands' web sessions: ConversationWindow
	// answers explicit requests, browser outputs beyond the newest two are
	// masked, and LLMSummarizing(keep_first=4, max_size=120) keeps the size
	// in check.
	ProfileDefault = "default"
	// ProfileSDK is the OpenHands SDK's LLMSummarizingCondenser defaults.
	ProfileSDK = "sdk"
	// ProfileV1 is the preset the OpenHands V1 app server uses.
	ProfileV1 = "v1"
	// ProfileMem1 rewrites one cumulative memory block; the small max_size
	// approximates Mem1's per-turn rewrite.
	ProfileMem1 = "mem1"
	// ProfileNoOp never condenses.
	ProfileNoOp = "noop"
)

// Profiles returns the named configurations, freshly built: callers may
// modify the map and the configs.
func Profiles() map[string]Config {
	return map[string]Config{
		ProfileDefault: {Type: TypePipeline, Condensers: []Config{
			{Type: TypeConversationWindow},
			{Type: TypeBrowserOutput, AttentionWindow: Ptr(2)},
			{Type: TypeLLMSummarizing, KeepFirst: Ptr(4), MaxSize: Ptr(120)},
		}},
		ProfileSDK: {
			Type: TypeLLMSummarizing, MaxSize: Ptr(240), KeepFirst: Ptr(2), MinimumProgress: Ptr(0.1),
		},
		ProfileV1: {
			Type: TypeLLMSummarizing, MaxSize: Ptr(80), KeepFirst: Ptr(4), MinimumProgress: Ptr(0.1),
		},
		ProfileMem1: {Type: TypeMem1, KeepFirst: Ptr(1), KeepLast: Ptr(4), MaxSize: Ptr(20)},
		ProfileNoOp: {Type: TypeNoOp},
	}
}

// Profile returns one named configuration.
func Profile(name string) (Config, error) {
	profiles := Profiles()
	c, ok := profiles[name]
	if !ok {
		names := make([]string, 0, len(profiles))
		for n := range profiles {
			names = append(names, n)
		}
		slices.Sort(names)
		return Config{}, fmt.Errorf("%w: %q (known: %s)", ErrUnknownProfile, name, strings.Join(names, ", "))
	}
	return c, nil
}
