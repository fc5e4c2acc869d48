package graph

import (
	"context"
	"fmt"
)

// PrecedingTurns returns, for each of a user's turns, the turn right
// before it in its session (by seq), when that turn is the same user's and
// was there at the scope's as_of. Search reads them for the few
// assistant's turns that match a question about the user: an assistant's
// reply names what the user just said in other words ("A demanding job!"
// after "I'm an air traffic controller"), so the statement it replies to
// is the evidence.
func (s *Store) PrecedingTurns(ctx context.Context, sc SearchScope, turns []TurnRef) (map[TurnRef]RawEvent, error) {
	if len(turns) == 0 {
		return nil, nil
	}
	keys := make([]map[string]any, len(turns))
	for i, t := range turns {
		keys[i] = map[string]any{"session": t.SessionID, "id": t.ID}
	}
	params := scopeParams(sc)
	params["keys"] = keys
	res, err := s.read(ctx, "search.preceding_turns", `
		UNWIND $keys AS k
		MATCH (r:Raw {tenant: $tenant, session_id: k.session, id: k.id}) WHERE r.user_id = $user
		MATCH (p:Raw {tenant: $tenant, session_id: r.session_id, seq: r.seq - 1})
		WHERE p.user_id = $user AND p.kind <> 'condensation_request' AND (NOT $at OR p.occurred_at <= $asof)
		RETURN collect({session: k.session, id: k.id, p: `+rawLight("p")+`}) AS turns`, params)
	if err != nil {
		return nil, fmt.Errorf("preceding turns: %w", err)
	}
	out := map[TurnRef]RawEvent{}
	if len(res.Records) == 0 {
		return out, nil
	}
	// One collected record: a row per turn costs the driver and Neo4j
	// about twice as much (docs/retrieval.md).
	var lights []lightRaw
	var of []TurnRef
	for _, row := range rows(res.Records[0], "turns") {
		if l, ok := decodeLight(sc.Tenant, sc.UserID, row["p"]); ok {
			lights, of = append(lights, l), append(of, TurnRef{str(row, "session"), str(row, "id")})
		}
	}
	evs, found, err := s.completeRaws(ctx, sc, lights)
	if err != nil {
		return nil, fmt.Errorf("preceding turns: %w", err)
	}
	for i, ev := range evs {
		if found[i] {
			out[of[i]] = ev
		}
	}
	return out, nil
}
