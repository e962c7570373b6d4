package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Whether a customer accepts quotes is learned only from a refusal: 3004
// "Quote submit is not allowed by your customer" (service-facts §15; no
// settings flag is published). What the service refused once, it is told:
// the refusal is remembered per customer, from the outbox itself, and the
// quote form stays closed there until the person asks to try again (the
// customer may change its mind).

// QuotesRefusal is the service's last 3004 at a customer.
type QuotesRefusal struct {
	At      time.Time
	Message string // the service's words
}

func tryQuotesKey(customerID int64) string {
	return "quotes.try_again." + strconv.FormatInt(customerID, 10)
}

// QuotesRefused is the service's last refusal of a quote at customerID
// because the customer allows none (3004), or nil when there was none
// since the person last asked to try again.
func (s *Store) QuotesRefused(ctx context.Context, customerID int64) (*QuotesRefusal, error) {
	if customerID == 0 {
		return nil, nil
	}
	var at sql.NullInt64
	var msg sql.NullString
	// When it was refused: a failed row's last change; a discarded one's
	// last change is the discard, so its creation stands in (a refusal
	// is never older than its row).
	err := s.r.QueryRowContext(ctx, `SELECT CASE WHEN o.state = 'discarded' THEN o.created_at ELSE o.updated_at END AS refused_at, o.error
 FROM outbox o JOIN outbox_targets t ON t.outbox_id = o.id JOIN work_orders w ON w.id = t.work_order_id
 WHERE o.kind = ? AND o.error_code = ? AND w.customer_id = ? ORDER BY refused_at DESC LIMIT 1`,
		string(outbox.KindQuote), api.CodeQuotesNotAllowed, customerID).Scan(&at, &msg)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !at.Valid {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("storage: reading quote refusals: %w", err)
	}
	if v, ok, err := s.Setting(ctx, tryQuotesKey(customerID)); err != nil {
		return nil, err
	} else if ok {
		if since, err := strconv.ParseInt(v, 10, 64); err == nil && since >= at.Int64 {
			return nil, nil
		}
	}
	return &QuotesRefusal{At: time.UnixMilli(at.Int64).UTC(), Message: msg.String}, nil
}

// TryQuotesAgain forgets the customer's refusals so far: the next quote
// goes to the service, which judges again.
func (s *Store) TryQuotesAgain(ctx context.Context, customerID int64) error {
	return s.SetSetting(ctx, tryQuotesKey(customerID), strconv.FormatInt(s.now().UnixMilli(), 10))
}

// quotesRefusedError is what queueing a quote at such a customer says.
func (s *Store) quotesRefusedError(ctx context.Context, wo *api.WorkOrder) error {
	r, err := s.QuotesRefused(ctx, wo.Customer.Id)
	if err != nil || r == nil {
		return err
	}
	return invalid("%s does not accept quotes: the service refused one on %s. If the customer has changed its mind, choose Try again on the Quote tab.",
		customerLabel(wo), r.At.Local().Format("Mon 2 Jan 2006"))
}
