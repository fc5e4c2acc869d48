package condenser

import (
	"context"
	"errors"
	"fmt"
)

// pipeline runs condensers in order, handing each the view the previous
// one produced, and stops at the first Condensation: that record is what
// gets stored, and the next run starts again from the rebuilt view.
type pipeline struct {
	steps []Condenser
	types []Type
}

func (p *pipeline) Condense(ctx context.Context, in View) (Result, error) {
	v := in
	var deferred []error
	for i, step := range p.steps {
		r, err := step.Condense(ctx, v)
		if err != nil {
			return Result{}, fmt.Errorf("pipeline step %d (%s): %w", i, p.types[i], err)
		}
		if r.Deferred != nil {
			deferred = append(deferred, r.Deferred)
		}
		if r.Condensation != nil {
			// Report the pipeline's input, not the view an earlier step
			// transformed: the caller rebuilds from the log anyway.
			return Result{View: in, Condensation: r.Condensation, Deferred: errors.Join(deferred...)}, nil
		}
		v = r.View
	}
	return Result{View: v, Deferred: errors.Join(deferred...)}, nil
}

// Assess reports the first step that wants to condense, running the
// view-only steps before it (they call no LLM) so that it judges the view
// it would really see.
func (p *pipeline) Assess(ctx context.Context, v View) (Decision, error) {
	for i, step := range p.steps {
		a, ok := step.(Assessor)
		if !ok {
			return Decision{}, fmt.Errorf("pipeline step %d (%s): cannot assess", i, p.types[i])
		}
		d, err := a.Assess(ctx, v)
		if err != nil {
			return Decision{}, fmt.Errorf("pipeline step %d (%s): %w", i, p.types[i], err)
		}
		if d.Needed() {
			return d, nil
		}
		if vo, ok := step.(viewOnly); ok {
			v = vo.transform(v)
		}
	}
	return Decision{Strategy: string(TypePipeline), Events: len(v.Events)}, nil
}
