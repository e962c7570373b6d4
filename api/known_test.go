package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestAbsentIsUnknown: a yes/no, an id or a list read from an answer
// without a published schema, sent under another name or in another shape,
// decodes as "not sent", never as "no"; and "not sent" locks nothing.
func TestAbsentIsUnknown(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		want       Flag
	}{
		{"true", `{"F": true}`, Yes},
		{"false", `{"F": false}`, No},
		{"quoted", `{"F": "false"}`, No},
		{"null", `{"F": null}`, Flag{}},
		{"absent", `{}`, Flag{}},
		{"another type", `{"F": 1}`, Flag{}},
	} {
		t.Run("flag "+tc.name, func(t *testing.T) {
			var v struct{ F Flag }
			if err := json.Unmarshal([]byte(tc.json), &v); err != nil {
				t.Fatal(err)
			}
			if v.F != tc.want {
				t.Fatalf("decoded %v, want %v", v.F, tc.want)
			}
			b, _ := json.Marshal(v)
			var back struct{ F Flag }
			if json.Unmarshal(b, &back); back.F != tc.want {
				t.Fatalf("stored as %s, read back as %v", b, back.F)
			}
		})
	}
	for _, tc := range []struct{ json, want string }{
		{`{"Id": "41021"}`, "41021"}, {`{"Id": 41021}`, "41021"}, {`{"Id": "Q-7"}`, "Q-7"}, {`{"Id": null}`, ""},
	} {
		var d CustomFieldDescriptor
		if err := json.Unmarshal([]byte(tc.json), &d); err != nil || string(d.Id) != tc.want {
			t.Errorf("descriptor %s: id %q, %v", tc.json, d.Id, err)
		}
	}

	// The audit's customer: our guessed names absent, other names present.
	var cs CustomerSettings
	renamed := `{"BackdatingAllowed": false, "RepairInfoMandatory": true,
		"RepairCodes": [{"CodeId": 1, "Code": "Replaced", "CategoryId": 2, "Category": "HVAC"}],
		"CustomFields": [{"Id": "9", "Label": "Room out of order", "IsMandatory": true}]}`
	if err := json.Unmarshal([]byte(renamed), &cs); err != nil {
		t.Fatal(err)
	}
	if cs.AllowBackdating.False() || cs.Known() {
		t.Fatalf("unknown settings read as known: back-dating %v, known %v", cs.AllowBackdating, cs.Known())
	}
	req := &WorkOrder{Type: WorkOrderTypeRequest}
	if err := CheckOutProblem(req, &cs, Completion{}); err != nil {
		t.Fatalf("a check-out at a customer whose requirements are unknown was refused here: %v", err)
	}
	if err := CheckOutProblem(req, &cs, Completion{CustomFields: []CustomField{{Id: "9", Value: "Yes"}}}); err != nil {
		t.Fatalf("an answer to an offered question was refused: %v", err)
	}

	var pl PriceList
	if err := json.Unmarshal([]byte(`{"ProviderItemsAllowed": true, "PriceListItemsAllowed": true, "Items": [{"Id": 3, "Description": "Trip", "Rate": 85}]}`), &pl); err != nil {
		t.Fatal(err)
	}
	free := LineItem{Type: LineLabor, Description: "Labour"}
	listed := LineItem{Type: LinePriceList, PriceListItemId: 3, Description: "Trip"}
	if err := pl.CheckModes([]LineItem{free, listed}); err != nil {
		t.Fatalf("lines refused at a customer whose modes are unknown: %v", err)
	}
	pl.AllowProviderItems = No
	if err := pl.CheckModes([]LineItem{free}); err == nil {
		t.Fatal("a free line was taken where the price list says no")
	}
}

// TestListAnswers: empty is null, no key or our key empty; items under a
// key we do not know are an error naming the keys, never an empty list.
func TestListAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		n          int
		err        string
	}{
		{"our key", `{"Messages": [{"Id": 1, "Text": "hi"}], "MessageId": "m"}`, 1, ""},
		{"our key, other case", `{"messages": [{"Id": 1, "Text": "hi"}]}`, 1, ""},
		{"empty", `{"Messages": [], "MessageId": "m"}`, 0, ""},
		{"null", `{"Messages": null, "MessageId": "m"}`, 0, ""},
		{"omitted", `{"MessageId": "m"}`, 0, ""},
		{"no body", ``, 0, ""},
		{"bare list", `[{"Id": 1, "Text": "hi"}, {"Id": 2, "Text": "ho"}]`, 2, ""},
		{"another key", `{"TextMessages": [{"Id": 1}], "MessageId": "m"}`, 0,
			"the service's answer to GET /api/messages had no list we know (we read Messages): keys MessageId, TextMessages"},
		{"another key, empty", `{"Items": [], "MessageId": "m"}`, 0, "keys Items, MessageId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := answering(t, http.StatusOK, tc.body)
			got, err := c.ListMessages(context.Background(), 42)
			if tc.err != "" {
				var le *ListError
				if !errors.As(err, &le) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %d messages and %v; want an error with %q", len(got), err, tc.err)
				}
				return
			}
			if err != nil || len(got) != tc.n {
				t.Fatalf("got %d messages, %v; want %d", len(got), err, tc.n)
			}
		})
	}
}

// TestDownloadLinkShapes: the link is found under Url, or as the one
// address the answer holds; an answer without one names its keys.
func TestDownloadLinkShapes(t *testing.T) {
	for _, tc := range []struct{ name, body, err string }{
		{"Url", `{"Url": "https://files.example/a?sig=1", "ExpiresAt": "2030-01-01T00:00:00Z"}`, ""},
		{"another name", `{"DownloadUrl": "https://files.example/a?sig=1", "MessageId": "m"}`, ""},
		{"bare string", `"https://files.example/a?sig=1"`, ""},
		{"two addresses", `{"A": "https://x.example/1", "B": "https://x.example/2"}`, "keys A, B"},
		{"none", `{"Link": {"Href": "x"}, "MessageId": "m"}`, "keys Link, MessageId"},
		{"not a web address", `{"Url": "file:///etc/passwd"}`, "not an http(s) address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := answering(t, http.StatusOK, tc.body)
			link, err := c.AttachmentDownloadURL(context.Background(), 42, "a")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want an error with %q", link, err, tc.err)
				}
				return
			}
			if err != nil || link.URL != "https://files.example/a?sig=1" || link.ExpiresAt.IsZero() {
				t.Fatalf("got %q expiring %v, %v", link.URL, link.ExpiresAt, err)
			}
		})
	}
}

// answering is a client of a fake service that answers every API call
// with status and body.
func answering(t *testing.T, status int, body string) (*Client, *fakeService) {
	t.Helper()
	fs := newFakeService(t)
	fs.answerJSON(status, body)
	c, _ := fs.client(t, newFakeClock())
	return c, fs
}
