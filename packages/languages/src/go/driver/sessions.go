package main

// Sessions the client creates on the server, from its start: one per CreateSession answer, and per
// BatchCreateSessions answer the sessions it holds. A job-wide Cloud Spanner budget bounds them.

import (
	"context"
	"reflect"
	"strings"
	"sync/atomic"

	"google.golang.org/grpc"
)

var sessionsCreated atomic.Int64

// driverUnary is the one unary interceptor the driver installs: server-timing, then sessions counted.
func driverUnary(ctx context.Context, method string, req, reply interface{}, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := timingUnary(ctx, method, req, reply, cc, invoker, opts...)
	if err == nil {
		sessionsCreated.Add(sessionsIn(method, reply))
	}
	return err
}

// sessionsIn reads the answer by field name: the generated types moved between packages across
// versions (genproto, then spannerpb), the field did not.
func sessionsIn(method string, reply interface{}) int64 {
	switch {
	case strings.HasSuffix(method, "/CreateSession"):
		return 1
	case strings.HasSuffix(method, "/BatchCreateSessions"):
		v := reflect.ValueOf(reply)
		if v.Kind() == reflect.Ptr {
			v = v.Elem()
		}
		if v.Kind() == reflect.Struct {
			if f := v.FieldByName("Session"); f.IsValid() && f.Kind() == reflect.Slice {
				return int64(f.Len())
			}
		}
	}
	return 0
}
