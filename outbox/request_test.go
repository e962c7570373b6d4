package outbox

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// fill gives every field of v a value that is not its zero, the same for
// every field of a kind (every work order id is 7, so they agree).
func fill(v reflect.Value) {
	switch v.Interface().(type) {
	case time.Time:
		v.Set(reflect.ValueOf(time.Date(2026, 11, 29, 8, 30, 0, 0, time.UTC)))
		return
	case api.Money:
		v.Set(reflect.ValueOf(api.Money{Amount: decimal.RequireFromString("1650.25"), Currency: "EUR"}))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(7.5)
	case reflect.Bool:
		v.SetBool(true)
	}
}

// TestDecodeThenWireKeepsEveryField: what the hub forwards is the typed
// request re-encoded, so a field the typed request dropped would never
// reach the service. For every kind, a body with every field of the
// service call set goes through DecodeStrict and Wire unchanged.
func TestDecodeThenWireKeepsEveryField(t *testing.T) {
	for _, e := range Entries() {
		t.Run(string(e.Kind), func(t *testing.T) {
			sample := reflect.New(reflect.TypeOf(e.typed.wire(e.typed.zero())).Elem())
			fill(sample.Elem())
			in, err := json.Marshal(sample.Interface())
			if err != nil {
				t.Fatal(err)
			}
			req, err := e.DecodeStrict(in)
			if err != nil {
				t.Fatalf("decoding %s: %v", in, err)
			}
			out, err := e.Wire(req)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			json.Unmarshal(in, &a)
			json.Unmarshal(out, &b)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("sent %s\n forwarded %s", in, out)
			}
		})
	}
}

// TestDecodeStrictRefusesWhatCouldBeReadTwoWays holds the strict decoder
// to each way a body could be read one way by the hub and another by the
// service.
func TestDecodeStrictRefusesWhatCouldBeReadTwoWays(t *testing.T) {
	assign, _ := Of(KindAssign)
	accept, _ := Of(KindAccept)
	step, _ := Of(KindStepUpdate)
	cases := []struct {
		name  string
		e     *Entry
		body  string
		field string
	}{
		{"ids two ways", assign, `{"WorkOrderId":3,"WorkOrderIds":[4],"AssociateIds":[1]}`, "WorkOrderId"},
		{"a key in two cases", assign, `{"WorkOrderIds":[4],"AssociateIds":[1],"associateIds":[2]}`, "associateIds"},
		{"a nested key twice", step, `{"WorkOrderId":4,"ProcedureId":1,"StepId":2,"Status":"Done","Value":"a","value":"b"}`, "value"},
		{"unknown", accept, `{"WorkOrderId":4,"Sneaky":true}`, "Sneaky"},
		{"no work order", accept, `{"Comment":"x"}`, "WorkOrderId"},
		{"zero", accept, `{"WorkOrderId":0}`, "WorkOrderId"},
		{"a bad id in a list", assign, `{"WorkOrderIds":[4,0],"AssociateIds":[1]}`, "WorkOrderIds"},
		{"trailing", accept, `{"WorkOrderId":4}{"WorkOrderId":5}`, ""},
		{"not an object", accept, `[4]`, ""},
		{"invalid UTF-8", accept, "{\"WorkOrderId\":4,\"Comment\":\"\xff\"}", ""},
		{"wrong type", accept, `{"WorkOrderId":"4"}`, "WorkOrderId"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.e.DecodeStrict([]byte(c.body))
			ir, ok := err.(*InvalidRequest)
			if !ok {
				t.Fatalf("%s: %v, want an InvalidRequest", c.body, err)
			}
			if c.field != "" && ir.Field != c.field {
				t.Errorf("%s: refused for %q (%s), want %q", c.body, ir.Field, ir.Msg, c.field)
			}
		})
	}
	if _, err := accept.DecodeStrict([]byte(`{"workOrderId":4,"comment":"ok"}`)); err != nil {
		t.Errorf("keys in another case, once each (the service matches them so): %v", err)
	}
}

// TestSetPerformedByOverridesTheBody: the hub forwards every write as the
// person signed in, whatever the body named. For every kind whose service
// call says who acts, a body naming Ana, decoded strictly and named for
// Ben (as the hub does), goes to the service as Ben's.
func TestSetPerformedByOverridesTheBody(t *testing.T) {
	saying := 0
	for _, e := range Entries() {
		t.Run(string(e.Kind), func(t *testing.T) {
			sample := reflect.New(reflect.TypeOf(e.typed.wire(e.typed.zero())).Elem())
			fill(sample.Elem())
			in, err := json.Marshal(sample.Interface())
			if err != nil {
				t.Fatal(err)
			}
			var body map[string]any
			json.Unmarshal(in, &body)
			if _, ok := body["PerformedBy"]; !ok {
				return
			}
			saying++
			body["PerformedBy"] = map[string]any{"Name": "Ana Ruiz"}
			in, _ = json.Marshal(body)
			req, err := e.DecodeStrict(in)
			if err != nil {
				t.Fatalf("decoding %s: %v", in, err)
			}
			if !SetPerformedBy(req, "Ben Okafor") {
				t.Fatalf("a request that names who acts took no name")
			}
			out, err := e.Wire(req)
			if err != nil {
				t.Fatal(err)
			}
			var sent struct{ PerformedBy struct{ Name string } }
			json.Unmarshal(out, &sent)
			if sent.PerformedBy.Name != "Ben Okafor" {
				t.Errorf("forwarded %s, want it performed by Ben Okafor", out)
			}
		})
	}
	if saying < 10 {
		t.Errorf("%d kinds say who acts, want most writes of the table", saying)
	}
}
