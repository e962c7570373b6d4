package storage

import (
	"context"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// eventWhom lists the ids a hub event says its action was done to (the
// action table's Subject: whom the write named).
func eventWhom(ev api.Event) []int64 { return outbox.ReadSubject(ev.Raw).Whom }

// whomNames names associates: as their branch lists them, else as the
// work order does (someone since taken off a branch's list).
type whomNames struct {
	byID map[int64]api.Associate
}

func (s *Store) whomNames(ctx context.Context, woID int64) *whomNames {
	n := &whomNames{byID: s.associatesByID(ctx)}
	if wo, err := s.WorkOrder(ctx, woID); err == nil {
		who, _ := wo.Assigned()
		for _, a := range who {
			if _, ok := n.byID[a.Id]; !ok {
				n.byID[a.Id] = a
			}
		}
	}
	return n
}

func (n *whomNames) name(ids []int64) string { return NameAssociates(ids, n.byID) }
