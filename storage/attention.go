package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// The "needs attention" rule is api.AttentionFacts.Of. The replica has its
// facts per row (status, quote status, deadline) and two lists below; List
// judges each row it reads with the rule itself, and the filter and the
// count select the same work orders in SQL (attentionIdsSQL) and in the
// in-memory search index (attentionFilter). TestAttentionFollowsTheRule
// holds the three together.

// refusedSQL lists the work orders with an action of ours the service
// refused, still in the outbox.
const refusedSQL = `SELECT t.work_order_id FROM outbox o JOIN outbox_targets t ON t.outbox_id = o.id WHERE o.state = 'failed'`

// invoiceOverNteSQL lists work orders whose invoice total exceeds their
// non-zero NTE. Authorized and paid invoices are settled and need nothing.
// Amounts in different currencies are never compared.
const invoiceOverNteSQL = `SELECT i.work_order_id FROM invoices i JOIN work_orders n ON n.id = i.work_order_id
 WHERE i.status NOT IN ('Authorized','Paid') AND CAST(n.nte_amount AS REAL) > 0
   AND (i.currency = '' OR i.currency = n.currency)
   AND CAST(i.total AS REAL) > CAST(n.nte_amount AS REAL)`

// closedSQL are the statuses in which only a refusal (or a deadline, which
// they never have) needs attention.
const closedSQL = `'Rejected','Recalled'`

// attentionIdsSQL is the set of work orders that need attention, built
// from indexed lookups so that counting it does not scan the table (the
// deadline's index leads with "deadline IS NULL": migration 0010).
// ?1 = now + AttentionWindow. A deadline is NULL in a closed status.
var attentionIdsSQL = refusedSQL + `
 UNION SELECT id FROM work_orders WHERE (deadline IS NULL) = 0 AND deadline < ?1
 UNION SELECT id FROM work_orders WHERE quote_status = 'Requested' AND status NOT IN (` + quoted(api.QuoteNotAwaited()) + `)
 UNION SELECT i.work_order_id FROM (` + invoiceOverNteSQL + `) i JOIN work_orders c ON c.id = i.work_order_id WHERE c.status NOT IN (` + closedSQL + `)`

func quoted(statuses []api.WorkOrderStatus) string {
	out := make([]string, len(statuses))
	for i, s := range statuses {
		out[i] = "'" + strings.ReplaceAll(string(s), "'", "''") + "'"
	}
	return strings.Join(out, ",")
}

// NeedsAttentionCount is how many work orders List{NeedsAttention: true} returns.
func (s *Store) NeedsAttentionCount(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM work_orders WHERE id IN (`+attentionIdsSQL+`)`,
		s.now().Add(AttentionWindow).UnixMilli()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("storage: counting work orders that need attention: %w", err)
	}
	return n, nil
}

// attentionLists are the facts of the rule that the in-memory index does
// not hold, read once per search: both lists are short (a few refusals, a
// few invoices over their NTE).
type attentionLists struct {
	refused, overNte map[int64]bool
}

func readAttentionLists(ctx context.Context, conn queryRower) (attentionLists, error) {
	var l attentionLists
	for _, q := range []struct {
		sql  string
		into *map[int64]bool
	}{{refusedSQL, &l.refused}, {invoiceOverNteSQL, &l.overNte}} {
		ids, err := readIDList(ctx, conn, `SELECT group_concat(work_order_id) FROM (SELECT DISTINCT work_order_id FROM (`+q.sql+`))`)
		if err != nil {
			return l, err
		}
		*q.into = make(map[int64]bool, len(ids))
		for _, id := range ids {
			(*q.into)[id] = true
		}
	}
	return l, nil
}

// ruleNow is now as the SQL of the rule sees it: to the millisecond.
func (s *Store) ruleNow() time.Time { return s.now().Truncate(time.Millisecond) }
