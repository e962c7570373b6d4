package api

import (
	"reflect"
	"time"
)

// WireTime is t as the service's documents write date-times (service-facts
// header: "UTC with a trailing Z ... up to 7 fractional digits", .NET's
// DateTime resolution of 100 ns). Go's encoder writes a time.Time in its own
// zone with up to 9 digits; in UTC, truncated to 100 ns, it writes exactly
// what the service's samples show.
func WireTime(t time.Time) time.Time { return t.UTC().Truncate(100 * time.Nanosecond) }

var timeType = reflect.TypeOf(time.Time{})

// wireTimes rewrites, in place, every exported time.Time reachable from v
// (a pointer to a request) with WireTime, so no request type can forget a
// field. Unexported fields (decimal internals) are left alone.
func wireTimes(v any) { normalizeTimes(reflect.ValueOf(v)) }

func normalizeTimes(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			normalizeTimes(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == timeType {
			if v.CanSet() {
				v.Set(reflect.ValueOf(WireTime(v.Interface().(time.Time))))
			}
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				normalizeTimes(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			normalizeTimes(v.Index(i))
		}
	}
}
