package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/workorderdesk/workdesk/api"
)

// A work order's procedures come with its record (WorkDetails.Procedures),
// and from GET /api/procedure, which the docs name as the source of the
// actual procedures and of AllowMarkNotApplicable (/docs/completing-
// procedures, service-facts §16). That list is read on the procedure
// notifications (api.TouchProcedures) and when the Procedures tab opens
// (RefreshProcedures), and replaces the record's. A later read of the
// record brings its own again; should it lack AllowMarkNotApplicable,
// that is unknown and N/A is offered (api.Procedure.MarkNAAllowed).

// putProcedures writes procs as work order woID's procedures, and reports
// whether that changed the stored record. ErrNotFound when the replica
// does not hold the work order: a list is no record.
func putProcedures(ctx context.Context, tx *sql.Tx, woID int64, procs []api.Procedure) (bool, error) {
	wo, err := getWorkOrder(ctx, tx, woID)
	if err != nil {
		return false, err
	}
	before, err := json.Marshal(wo.Procedures())
	if err != nil {
		return false, err
	}
	after, err := json.Marshal(procs)
	if err != nil {
		return false, err
	}
	if string(before) == string(after) || len(procs) == 0 && wo.WorkDetails == nil {
		return false, nil
	}
	if wo.WorkDetails == nil {
		wo.WorkDetails = &api.WorkDetails{}
	}
	wo.WorkDetails.Procedures = procs
	wo.StampCurrency()
	if err := putWorkOrders(ctx, tx, []api.WorkOrder{*wo}); err != nil {
		return false, fmt.Errorf("storage: writing the procedures of work order %d: %w", woID, err)
	}
	return true, nil
}

// RefreshProcedures reads work order woID's procedures from GET
// /api/procedure into the replica; the window hears of it when they
// changed (Store.Subscribe). For the Procedures tab, as it opens.
func (y *Syncer) RefreshProcedures(ctx context.Context, woID int64) error {
	procs, err := y.c.GetProcedures(ctx, woID)
	if err != nil {
		return fmt.Errorf("reading the procedures of work order %d: %w", woID, err)
	}
	var changed bool
	err = y.s.inTx(ctx, func(tx *sql.Tx) error {
		changed, err = putProcedures(ctx, tx, woID, procs)
		return err
	})
	if err != nil {
		return err
	}
	if changed {
		y.s.notify([]int64{woID})
	}
	return nil
}
