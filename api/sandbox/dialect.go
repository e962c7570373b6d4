package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// A dialect is another plausible way the real service could answer where
// its schema is not published (service-facts §13–15): the sandbox answers
// with the names we guessed by default, and with DialectRenamed it renames
// or drops those guessed names, so tests (and an integrator) see what the
// app does when a guess was wrong: the contract check must name each one,
// and nothing in the app may lock.

// Dialect names a way of answering (Options.Dialect).
type Dialect string

const (
	// DialectPlain answers with the names the client guessed.
	DialectPlain Dialect = ""
	// DialectRenamed answers the reads without a published schema with
	// other names (see renamed).
	DialectRenamed Dialect = "renamed"
)

// Dialects lists the dialects `workdesk sandbox --dialect` takes.
var Dialects = []Dialect{DialectPlain, DialectRenamed}

// ParseDialect reads a --dialect value ("" or "plain", "renamed").
func ParseDialect(s string) (Dialect, error) {
	switch strings.ToLower(s) {
	case "", "plain":
		return DialectPlain, nil
	case string(DialectRenamed):
		return DialectRenamed, nil
	}
	return "", fmt.Errorf("unknown dialect %q: use plain or renamed", s)
}

// renaming is one guessed name answered as another ("" = dropped), inside
// the objects found at path (a dotted path from the answer's root; []
// steps into each item of a list).
type renaming struct {
	path, from, to string
}

// renamed is DialectRenamed, by normalized route: every guessed name of
// the reads the audit found failing silently.
var renamed = map[string][]renaming{
	"/api/customersettings": {
		{"CustomerSettings", "AllowBackdating", "BackdatingAllowed"},
		{"CustomerSettings", "RepairInfoRequired", "RepairInfoMandatory"},
		{"CustomerSettings", "RepairCodes", "RepairInfos"},
		{"CustomerSettings.CustomFields[]", "IsRequired", "IsMandatory"},
	},
	"/api/invoice/pricelist": {
		{"PriceList", "AllowProviderItems", "ProviderItemsAllowed"},
		{"PriceList", "AllowPriceListItems", "PriceListItemsAllowed"},
	},
	// The invoice's number, date and line categories: documented as
	// required for submission, under names not published.
	"/api/invoice": {
		{"Invoice", "InvoiceNumber", "Number"},
		{"Invoice", "InvoiceDate", "Date"},
		{"Invoice.LineItems[]", "Type", "Category"},
	},
	// Where a work order lists its associates is our guess: a service
	// that lists them nowhere (service-facts §16: assignment changes no
	// property GET /api/workOrder returns) leaves it out.
	"/api/workorder":                                 {{"WorkOrders[]", "Associates", ""}},
	"/api/associates":                                {{"", "Associates", "Members"}},
	"/api/workorder/notehistory":                     {{"", "NoteHistory", "Versions"}},
	"/api/procedure":                                 {{"", "Procedures", "ProcedureList"}},
	"/api/procedure/step":                            {{"", "Step", "ProcedureStep"}},
	"/api/messages":                                  {{"", "Messages", "TextMessages"}},
	"/api/attachments":                               {{"", "Attachments", "Files"}},
	"/api/invoice/attachments":                       {{"", "Attachments", "Files"}},
	"/api/procedure/step/attachments":                {{"", "Attachments", "Files"}},
	"/api/attachments/downloadurl":                   {{"", "Url", "DownloadUrl"}, {"", "ExpiresAt", ""}},
	"/api/invoice/attachments/getdownloadurl":        {{"", "Url", "DownloadUrl"}, {"", "ExpiresAt", ""}},
	"/api/procedure/step/attachments/getdownloadurl": {{"", "Url", "DownloadUrl"}, {"", "ExpiresAt", ""}},
}

// RenamedFields lists what DialectRenamed renames, as "Old → New" (for
// tests and `workdesk sandbox`'s banner).
func RenamedFields() []string {
	var out []string
	seen := map[string]bool{}
	for _, rs := range renamed {
		for _, r := range rs {
			s := r.from + " → " + r.to
			if r.to == "" {
				s = r.from + " dropped"
			}
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	slices.Sort(out)
	return out
}

// speak rewrites a successful GET answer b of route p in the sandbox's
// dialect; other answers pass unchanged.
func (s *Sandbox) speak(p string, status int, b []byte) []byte {
	rs := renamed[p]
	if s.opts.Dialect != DialectRenamed || status != http.StatusOK || len(rs) == 0 {
		return b
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return b
	}
	for _, r := range rs {
		rename(v, strings.Split(r.path, "."), r.from, r.to)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return append(out, '\n')
}

func rename(v any, path []string, from, to string) {
	if len(path) > 0 && path[0] == "" {
		path = path[1:]
	}
	if len(path) == 0 {
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		if x, ok := obj[from]; ok {
			delete(obj, from)
			if to != "" {
				obj[to] = x
			}
		}
		return
	}
	step, list := strings.CutSuffix(path[0], "[]")
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	next := obj[step]
	if !list {
		rename(next, path[1:], from, to)
		return
	}
	items, _ := next.([]any)
	for _, it := range items {
		rename(it, path[1:], from, to)
	}
}
