package storage

import (
	"context"
	"encoding/json"

	"github.com/workorderdesk/workdesk/api"
)

// eventWhom lists the ids a hub event says its action was done to: the
// request field the action table names (Colleague.Whom), which the hub
// copies into the event's Detail.
func eventWhom(ev api.Event) []int64 {
	if len(ev.Raw) == 0 {
		return nil
	}
	var d struct {
		Detail map[string]json.RawMessage `json:"Detail"`
	}
	if json.Unmarshal(ev.Raw, &d) != nil || len(d.Detail) == 0 {
		return nil
	}
	w, ok := ColleagueWording(ev.Header.Action)
	if !ok || w.Whom == "" {
		return nil
	}
	var ids []int64
	if json.Unmarshal(d.Detail[w.Whom], &ids) != nil {
		return nil
	}
	return ids
}

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
