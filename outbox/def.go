package outbox

import (
	"context"
	"encoding/json"

	"github.com/workorderdesk/workdesk/api"
)

// spec is an entry's typed columns over its request type R (the stored
// request: the service call's body, plus what only the desktop keeps of it,
// such as when a visit was tapped). Every column may be nil.
type spec[R any] struct {
	// wire is the service call's body (nil: the request itself).
	wire func(r *R) any
	// call performs the service call; result is what the caller records.
	call func(ctx context.Context, c *api.Client, r *R, env Env) (any, error)
	// landed tells, after an answer was lost, whether the write already
	// took effect at the service (see Landed and Entry.Judged).
	landed func(ctx context.Context, c *api.Client, r *R, q *LandedQuery) (bool, any, error)
	// before reads, before the write is first sent, what its landed check
	// will compare against (LandedQuery.Before): for a write matched by
	// content, how many like it the service held then, so that one posted
	// by someone else before ours is never taken for ours.
	before func(ctx context.Context, c *api.Client, r *R) (json.RawMessage, error)
	// subject is what the hub's event carries of the write.
	subject func(r *R) Subject
	// tell says what a colleague did, from the event's subject: "completed
	// step 3 of Roof inspection" ("": the verb says it).
	tell func(s Subject, wo *api.WorkOrder) string
	// effect changes the work order as the person sees it while it waits,
	// beyond its status.
	effect func(ctx context.Context, wo *api.WorkOrder, r *R, env Env)
	// draft reads back what the person entered (Entry.Fix's form).
	draft func(r *R, currency string) *Draft
	// guard runs before each send: done, the service already holds what
	// it would send, so it is not sent; a *Stopped error stops it for the
	// person to decide (Entry.Question).
	guard func(ctx context.Context, c *api.Client, r *R) (done bool, err error)
	// rebase makes a stopped request go over what stopped it.
	rebase func(ctx context.Context, r *R, env Env) error
	// required are the body's fields a sender must give: absent is not a
	// default (DecodeStrict).
	required []string
}

// impl is an entry's typed columns, implemented from its spec.
type impl[R any] struct{ s spec[R] }

// def makes an entry's typed columns from s.
func def[R any](e *Entry, s spec[R]) *Entry {
	e.typed = &impl[R]{s}
	return e
}

func (s *impl[R]) decode(raw []byte, strict bool) (any, error) {
	r := new(R)
	if strict {
		if err := decodeStrict(raw, r, s.s.required); err != nil {
			return nil, err
		}
		if err := checkTargets(r); err != nil {
			return nil, err
		}
		return r, nil
	}
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, LocalError{errUnreadable(err)}
	}
	return r, nil
}

func (s *impl[R]) targets(req any) []int64 { return targetsOf(req) }

func (s *impl[R]) wire(req any) any {
	if s.s.wire == nil {
		return req
	}
	return s.s.wire(req.(*R))
}

func (s *impl[R]) send(ctx context.Context, c *api.Client, req any, env Env) (any, error) {
	return s.s.call(ctx, c, req.(*R), env)
}

func (s *impl[R]) landed(ctx context.Context, c *api.Client, req any, q *LandedQuery) (bool, any, error) {
	return s.s.landed(ctx, c, req.(*R), q)
}

func (s *impl[R]) hasLanded() bool { return s.s.landed != nil }

func (s *impl[R]) hasBefore() bool { return s.s.before != nil }

func (s *impl[R]) before(ctx context.Context, c *api.Client, req any) (json.RawMessage, error) {
	return s.s.before(ctx, c, req.(*R))
}

func (s *impl[R]) subject(req any) Subject {
	if s.s.subject == nil {
		return Subject{}
	}
	return s.s.subject(req.(*R))
}

func (s *impl[R]) tell(sub Subject, wo *api.WorkOrder) string {
	if s.s.tell == nil {
		return ""
	}
	return s.s.tell(sub, wo)
}

func (s *impl[R]) effect(ctx context.Context, wo *api.WorkOrder, req any, env Env) {
	if s.s.effect != nil {
		s.s.effect(ctx, wo, req.(*R), env)
	}
}

func (s *impl[R]) draft(req any, currency string) (*Draft, bool) {
	if s.s.draft == nil {
		return nil, false
	}
	return s.s.draft(req.(*R), currency), true
}

func (s *impl[R]) guard(ctx context.Context, c *api.Client, req any) (bool, error) {
	if s.s.guard == nil {
		return false, nil
	}
	return s.s.guard(ctx, c, req.(*R))
}

func (s *impl[R]) rebase(ctx context.Context, req any, env Env) error {
	if s.s.rebase == nil {
		return nil
	}
	return s.s.rebase(ctx, req.(*R), env)
}

func (s *impl[R]) required() []string { return s.s.required }

// noResult adapts an api call that answers nothing to a call column.
func noResult[R any](call func(*api.Client, context.Context, *R) error) func(context.Context, *api.Client, *R, Env) (any, error) {
	return func(ctx context.Context, c *api.Client, r *R, _ Env) (any, error) {
		return nil, call(c, ctx, r)
	}
}

// result adapts an api call that answers a value to a call column.
func result[R, T any](call func(*api.Client, context.Context, *R) (T, error)) func(context.Context, *api.Client, *R, Env) (any, error) {
	return func(ctx context.Context, c *api.Client, r *R, _ Env) (any, error) {
		return call(c, ctx, r)
	}
}

// zero is an empty request of the entry's type (for tests and callers that
// build one field by field).
func (s *impl[R]) zero() any { return new(R) }
