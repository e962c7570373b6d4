package sandboxtest_test

import (
	"context"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
)

// TestPause is the package documentation's example, kept compiling and passing.
func TestPause(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.New(t)
	wo := sb.WorkOrderAt("Northwind Retail", api.StatusCheckedIn)
	err := sb.Client.Pause(context.Background(), &api.VisitRequest{WorkOrderId: wo.WorkOrderId})
	if err != nil {
		t.Fatal(err)
	}
	if got := sb.WorkOrder(wo.WorkOrderId).Status; got != api.StatusPaused {
		t.Errorf("after a pause the service has it %s", got)
	}
}
