package serve

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/workorderdesk/workdesk/api"
)

// Query is the query's value for name, its key matched case-insensitively
// as ASP.NET binds it: the first value of name as spelled, else of the
// first other spelling in sorted order (so the answer never depends on a
// map's order).
func Query(q url.Values, name string) string {
	if vs, ok := q[name]; ok {
		if len(vs) == 0 {
			return ""
		}
		return vs[0]
	}
	if k := spelling(q, name); k != "" && len(q[k]) > 0 {
		return q[k][0]
	}
	return ""
}

// spelling is the first key of q, in sorted order, that is name in any case.
func spelling(q url.Values, name string) string {
	found := ""
	for k := range q {
		if strings.EqualFold(k, name) && (found == "" || k < found) {
			found = k
		}
	}
	return found
}

// ID reads a positive id given for name (a query key's or a form field's
// value), as strictly as the service binds it: required, an integer, above
// zero; never trimmed.
func ID(name, v string) (int64, *api.Error) {
	if v == "" {
		return 0, Invalid(name, "%s is required", name)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, Invalid(name, "%s must be a positive integer", name)
	}
	return n, nil
}

// QueryID is ID for the query key name. A key given more than once (in any
// spelling) is refused: which value the service would take is not
// documented, and a hub must act on the work order the service acts on.
func QueryID(q url.Values, name string) (int64, *api.Error) {
	n := 0
	for k, vs := range q {
		if strings.EqualFold(k, name) {
			n += len(vs)
		}
	}
	if n > 1 {
		return 0, Invalid(name, "%s is given more than once", name)
	}
	return ID(name, Query(q, name))
}

// IDs reads GET /api/workOrder's ids as the service takes them
// (service-facts §4.1): repeated ids=, ids[N]= (in N's order, after the
// plain ones), or comma-separated; at least one and at most
// api.MaxReadBatch. A repeated id is kept: what to answer for it is the
// caller's.
func IDs(q url.Values) ([]int64, *api.Error) {
	type key struct {
		index int // N of ids[N]; -1 for plain ids=
		name  string
	}
	var keys []key
	for k := range q {
		lk := strings.ToLower(k)
		switch {
		case lk == "ids":
			keys = append(keys, key{-1, k})
		case strings.HasPrefix(lk, "ids[") && strings.HasSuffix(lk, "]"):
			n, ok := index(lk[len("ids[") : len(lk)-1])
			if !ok {
				return nil, Invalid("ids", "%q is not an ids index", k)
			}
			keys = append(keys, key{n, k})
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.index != b.index {
			return a.index - b.index
		}
		return strings.Compare(a.name, b.name)
	})
	var raw []string
	for _, k := range keys {
		for _, v := range q[k.name] {
			raw = append(raw, strings.Split(v, ",")...)
		}
	}
	if len(raw) == 0 {
		return nil, Invalid("ids", "ids is required")
	}
	if len(raw) > api.MaxReadBatch {
		return nil, Invalid("ids", "at most %d work orders can be read per call; %d were asked for", api.MaxReadBatch, len(raw))
	}
	ids := make([]int64, len(raw))
	for i, v := range raw {
		id, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return nil, Invalid("ids", "%q is not a work order id", v)
		}
		ids[i] = id
	}
	return ids, nil
}

// index reads the N of ids[N]: digits only, as a collection index binds.
func index(s string) (int, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// MessageId is the caller's MessageId for a request: its JSON body's, else
// its query's messageId (the key matched case-insensitively); "" when it
// names none. The service echoes it in its answer (service-facts §3).
func MessageId(q url.Values, body []byte) string {
	if len(body) > 0 {
		var env struct{ MessageId string }
		if json.Unmarshal(body, &env) == nil && env.MessageId != "" {
			return env.MessageId
		}
	}
	return Query(q, "messageId")
}
