package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestMoneyFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		amount, currency, want string
	}{
		{"1250.5", "USD", "$1,250.50"},
		{"1250.50", "USD", "$1,250.50"},
		{"120000", "JPY", "¥120,000"},
		{"980", "EUR", "€980.00"},
		{"0", "GBP", "£0.00"},
		{"-45.5", "USD", "-$45.50"},
		{"1234567.891", "BHD", "BHD 1,234,567.891"},
		{"0.005", "USD", "$0.01"}, // rounds half away from zero for display
		{"999", "USD", "$999.00"},
		{"1000", "USD", "$1,000.00"},
	}
	for _, tt := range tests {
		t.Run(tt.currency+" "+tt.amount, func(t *testing.T) {
			if got := MustMoney(tt.amount, tt.currency).Format(); got != tt.want {
				t.Errorf("Format = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMinorUnits(t *testing.T) {
	t.Parallel()
	tests := map[string]int{"USD": 2, "EUR": 2, "GBP": 2, "JPY": 0, "BHD": 3, "KWD": 3, "XYZ?": 2}
	for code, want := range tests {
		if got := MinorUnits(code); got != want {
			t.Errorf("MinorUnits(%s) = %d, want %d", code, got, want)
		}
	}
}

func TestFitsMinorUnits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		amount, currency string
		want             bool
	}{
		{"10.25", "USD", true},
		{"10.255", "USD", false},
		{"120000", "JPY", true},
		{"120000.5", "JPY", false},
		{"1.125", "BHD", true},
		{"1.1255", "BHD", false},
	}
	for _, tt := range tests {
		if got := MustMoney(tt.amount, tt.currency).FitsMinorUnits(); got != tt.want {
			t.Errorf("%s %s FitsMinorUnits = %v, want %v", tt.amount, tt.currency, got, tt.want)
		}
	}
}

func TestMoneyJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		wantOut  string
		wantText string
	}{
		{`1250.50`, `1250.5`, "1250.5"},
		{`0`, `0`, "0"},
		// beyond float64 precision: decimal keeps every digit
		{`12345678901234567.89`, `12345678901234567.89`, "12345678901234567.89"},
		{`"980.10"`, `980.1`, "980.1"}, // numeric strings are tolerated
		{`null`, `0`, "0"},
	}
	for _, tt := range tests {
		var m Money
		if err := json.Unmarshal([]byte(tt.in), &m); err != nil {
			t.Errorf("Unmarshal(%s): %v", tt.in, err)
			continue
		}
		out, err := json.Marshal(m)
		if err != nil || string(out) != tt.wantOut {
			t.Errorf("Marshal(Unmarshal(%s)) = %s, %v; want %s", tt.in, out, err, tt.wantOut)
		}
		if m.Amount.String() != tt.wantText {
			t.Errorf("amount = %s, want %s", m.Amount, tt.wantText)
		}
		var back Money
		if err := json.Unmarshal(out, &back); err != nil || !back.Amount.Equal(m.Amount) {
			t.Errorf("round trip of %s lost the value: %v %v", tt.in, back.Amount, err)
		}
	}
	var m Money
	if err := json.Unmarshal([]byte(`"a lot"`), &m); err == nil {
		t.Error("a non-number was accepted as money")
	}
	// Amounts go out as bare JSON numbers, as the service expects.
	b, _ := json.Marshal(QuoteRequest{WorkOrderId: 1, Amount: MustMoney("1500.50", "USD"), Comment: "x"})
	if !strings.Contains(string(b), `"Amount":1500.5`) {
		t.Errorf("quote body = %s, want a bare number", b)
	}
}

func TestMoneyCurrencySafety(t *testing.T) {
	t.Parallel()
	usd, eur := MustMoney("10", "USD"), MustMoney("10", "EUR")
	if _, err := usd.Add(eur); err == nil {
		t.Error("USD + EUR was allowed")
	}
	if _, err := usd.Cmp(eur); err == nil {
		t.Error("USD compared with EUR")
	}
	sum, err := usd.Add(MustMoney("0.5", "USD"))
	if err != nil || sum.Format() != "$10.50" {
		t.Errorf("sum = %v, %v", sum, err)
	}
	if _, err := NewMoney("ten", "USD"); err == nil {
		t.Error("NewMoney accepted text")
	}
}

func TestWorkOrderDecoding(t *testing.T) {
	t.Parallel()
	raw := `{
	  "WorkOrderId": 27796463, "WorkOrderNumber": "WN73243", "Status": "Accepted", "Type": "Request",
	  "Created": "2018-03-27T19:19:58.4597178Z",
	  "Currency": "JPY",
	  "Nte": {"Amount": 120000, "Quote": {"Amount": 150000.0, "Comment": "pump", "QuoteStatus": "Submitted",
	          "LineItems": [{"Type":"Labor","Description":"2h","Quantity":2,"Rate":30000,"Subtotal":60000}]}},
	  "Customer": {"ID": 17, "Name": "Acme Foods"},
	  "Sla": {"DueDate": "2024-03-02T17:00:00Z", "PriorityName": "HIGH", "IsEmergency": true},
	  "SomeFieldFromVersion6": {"Nested": [1, 2, 3]},
	  "IvrInfo": {"PhoneNumber": "+18005550100", "Unknown": true}
	}`
	var wo WorkOrder
	if err := json.Unmarshal([]byte(raw), &wo); err != nil {
		t.Fatalf("unknown fields must be tolerated: %v", err)
	}
	if wo.Nte.Amount.Currency != "JPY" || wo.Nte.Quote.Amount.Currency != "JPY" {
		t.Errorf("currency not stamped: Nte %q, Quote %q", wo.Nte.Amount.Currency, wo.Nte.Quote.Amount.Currency)
	}
	if got := wo.Nte.Amount.Format(); got != "¥120,000" {
		t.Errorf("Nte = %s", got)
	}
	if got := wo.Nte.Quote.Amount.Format(); got != "¥150,000" {
		t.Errorf("Quote = %s", got)
	}
	if li := wo.Nte.Quote.LineItems[0]; li.Rate.Currency != "JPY" || li.Subtotal.Currency != "JPY" {
		t.Errorf("quote line currency not stamped: %+v", li)
	}
	if wo.Customer.Id != 17 || wo.Customer.Name != "Acme Foods" {
		t.Errorf("Customer.ID not read: %+v", wo.Customer)
	}
	if wo.Nte.Quote.QuoteStatus != QuoteSubmitted || wo.Status != StatusAccepted || wo.IvrInfo == nil {
		t.Errorf("decoded = %+v", wo)
	}
	if want := time.Date(2018, 3, 27, 19, 19, 58, 459717800, time.UTC); !wo.Created.Equal(want) {
		t.Errorf("Created = %v (7 fractional digits)", wo.Created)
	}
	if wo.InvoiceVisible() {
		t.Error("a pre-4.1 work order that is not completed must be invisible to invoice operations")
	}

	// Within an event the same stamping applies.
	ev, err := ParseEvent([]byte(`{"Header":{"WorkOrderId":1,"Action":"NewWorkOrder","MessageId":"x"},
	  "Details":{"WorkOrderId":1,"Currency":"EUR","Nte":{"Amount":980}},"Extra":1}`))
	if err != nil {
		t.Fatal(err)
	}
	d := ev.Body.(*NewWorkOrderEvent).Details
	if d.Nte.Amount.Format() != "€980.00" {
		t.Errorf("event NTE = %s", d.Nte.Amount.Format())
	}
	if d.Nte.NoLimit() || !(Nte{Amount: MustMoney("0", "EUR")}).NoLimit() {
		t.Error("NTE 0 means no limit, and only 0 does")
	}
}

func TestInvoiceDecodingStampsCurrency(t *testing.T) {
	t.Parallel()
	var inv Invoice
	err := json.Unmarshal([]byte(`{"WorkOrderId":1,"Currency":"GBP","TotalAmount":12.5,"DiscountAmount":0,
	  "LineItems":[{"Id":3,"Type":"Material","Description":"filter","Quantity":1.5,"Rate":5,"Subtotal":7.5}],"NewField":"x"}`), &inv)
	if err != nil {
		t.Fatal(err)
	}
	if inv.TotalAmount.Format() != "£12.50" || inv.LineItems[0].Rate.Format() != "£5.00" {
		t.Errorf("total %s, rate %s", inv.TotalAmount.Format(), inv.LineItems[0].Rate.Format())
	}
	if got := inv.LineItems[0].ComputedSubtotal().Format(); got != "£7.50" {
		t.Errorf("computed subtotal = %s", got)
	}
}

func TestEventRoundTrip(t *testing.T) {
	t.Parallel()
	h := EventHeader{WorkOrderId: 42, Action: ActionQuoteChanged, MessageId: "m", ApiVersion: "1.1",
		ActionDate: time.Date(2024, 9, 4, 10, 12, 8, 0, time.UTC)}
	b, err := MarshalEvent(h, &QuoteChangedEvent{Quote: Quote{Amount: MustMoney("500", "USD"), QuoteStatus: QuoteApproved}})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := ParseEvent(b)
	if err != nil {
		t.Fatal(err)
	}
	q, ok := ev.Body.(*QuoteChangedEvent)
	if !ok || q.Quote.QuoteStatus != QuoteApproved || !q.Quote.Amount.Amount.Equal(MustMoney("500", "").Amount) {
		t.Errorf("round trip = %+v", ev)
	}
	if ev.Header != h {
		t.Errorf("header = %+v, want %+v", ev.Header, h)
	}
}

// In labels a bare amount but never relabels one in another currency: a
// yen amount "in USD" would be a different sum of money.
func TestInLabelsOnlyBareAmounts(t *testing.T) {
	t.Parallel()
	bare := Money{Amount: MustMoney("12.50", "").Amount}
	if got := bare.In("USD"); got.Currency != "USD" || !got.Amount.Equal(bare.Amount) {
		t.Errorf("bare 12.50 in USD = %+v", got)
	}
	yen := MustMoney("1200", "JPY")
	if got := yen.In("USD"); got.Currency != "JPY" {
		t.Errorf("¥1200 in USD became %s", got.Format())
	}
	if _, err := yen.In("USD").Add(MustMoney("1", "USD")); err == nil {
		t.Error("a yen amount labelled for a USD work order was added to dollars")
	}
}
