package jobsheet_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/jobsheet"
)

// BenchmarkJobSheet makes a job sheet of Latin text only, and one with
// every script (the CJK font parsed and subset): the time a person waits
// after Open, and the file's size.
func BenchmarkJobSheet(b *testing.B) {
	set := fonts(b)
	latin := demoWorkOrder(&testing.T{}, "USD")
	scripts, _ := everyScript(&testing.T{})
	for _, c := range []struct {
		name string
		wo   *api.WorkOrder
		note string
	}{{"latin", &latin, ""}, {"every-script", &scripts, "게이트 코드 4471"}} {
		b.Run(c.name, func(b *testing.B) {
			var size int
			for b.Loop() {
				var buf bytes.Buffer
				if err := jobsheet.Write(&buf, c.wo, jobsheet.Options{Fonts: set, Printed: time.Now(), AccessNote: c.note}); err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			b.ReportMetric(float64(size), "bytes/sheet")
		})
	}
}
