package daysheetview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/daysheet"
	"github.com/workorderdesk/workdesk/storage"
)

// Source is what the day sheet reads: who can go, and one technician's
// visits of some days.
type Source interface {
	// Technicians are everyone a visit can be planned for, technicians
	// first, each by name.
	Technicians(ctx context.Context) ([]api.Associate, error)
	// Visits are tech's visits starting in [from, to), those done or
	// closed included.
	Visits(ctx context.Context, tech int64, from, to time.Time) ([]daysheet.Visit, error)
}

// StoreSource is a Source over the replica: the board's plan, queued
// plans included. The window and `workdesk daysheet` both read through it.
func StoreSource(s *storage.Store) Source { return storeSource{s} }

type storeSource struct{ s *storage.Store }

func (s storeSource) Technicians(ctx context.Context) ([]api.Associate, error) {
	crew, err := s.s.AllAssociates(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.Associate, len(crew))
	for i, c := range crew {
		out[i] = c.Associate
	}
	return out, nil
}

func (s storeSource) Visits(ctx context.Context, tech int64, from, to time.Time) ([]daysheet.Visit, error) {
	visits, err := s.s.TechnicianVisits(ctx, tech, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]daysheet.Visit, len(visits))
	for i, v := range visits {
		out[i] = daysheet.Visit{WorkOrder: v.WorkOrder, Note: v.Note}
	}
	return out, nil
}

// Sheet reads tech's sheet of days days from the local midnight of from.
func Sheet(ctx context.Context, src Source, tech api.Associate, from time.Time, days int) (daysheet.Sheet, error) {
	if days < 1 {
		days = 1
	}
	first := midnight(from)
	visits, err := src.Visits(ctx, tech.Id, first, first.AddDate(0, 0, days))
	if err != nil {
		return daysheet.Sheet{}, err
	}
	return daysheet.Sheet{Technician: tech, From: first, Days: days, Visits: visits}, nil
}

func midnight(t time.Time) time.Time {
	t = t.In(time.Local)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.Local)
}

// ErrNoSuchTechnician is a name that matches no one, or more than one.
var ErrNoSuchTechnician = errors.New(wordNoSuchTechnician)

// FindTechnician is the one of techs name means: the same name (case and
// spacing aside), else the only one whose name holds it. The error says
// who there is.
func FindTechnician(techs []api.Associate, name string) (api.Associate, error) {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	want := norm(name)
	var like []api.Associate
	for _, a := range techs {
		if norm(a.Name) == want {
			return a, nil
		}
		if want != "" && strings.Contains(norm(a.Name), want) {
			like = append(like, a)
		}
	}
	if len(like) == 1 {
		return like[0], nil
	}
	names := func(list []api.Associate) string {
		var n []string
		for _, a := range list {
			n = append(n, a.Name)
		}
		n = slices.Compact(n)
		return strings.Join(n, ", ")
	}
	if len(like) > 1 {
		return api.Associate{}, fmt.Errorf("%w: %q could be %s", ErrNoSuchTechnician, name, names(like))
	}
	if len(techs) == 0 {
		return api.Associate{}, fmt.Errorf("%w: %q; "+wordNobodyKnown, ErrNoSuchTechnician, name)
	}
	return api.Associate{}, fmt.Errorf("%w: %q; "+wordKnown, ErrNoSuchTechnician, name, names(techs))
}
