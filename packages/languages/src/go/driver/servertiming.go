package main

// The server-timing response header ("gfet4t7; dur=N", N ms: Cloud Spanner's front end sends it, and
// so does the fake) of every RPC an operation makes, counted for that operation's kind: the server's
// side of the client/server split on targets that keep no accounting of their own. Background RPCs
// (session creation, pool maintenance) run on contexts of their own and are not counted.

import (
	"context"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

type timingKindKey struct{}

// withKind marks ctx as running operation kind k of the mix.
func withKind(ctx context.Context, k int) context.Context {
	return context.WithValue(ctx, timingKindKey{}, k)
}

// timingPhase is the recorder of the running phase: the interceptors report to it.
var timingPhase atomic.Pointer[recorder]

var gfeDur = regexp.MustCompile(`gfet4t7;\s*dur=([0-9.]+)`)

func recordTiming(k int, md metadata.MD) {
	rec := timingPhase.Load()
	if rec == nil {
		return
	}
	for _, v := range md.Get("server-timing") {
		if m := gfeDur.FindStringSubmatch(v); m != nil {
			if ms, err := strconv.ParseFloat(m[1], 64); err == nil {
				rec.serverTiming(k, ms)
			}
			return
		}
	}
}

func timingUnary(ctx context.Context, method string, req, reply interface{}, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	k, ok := ctx.Value(timingKindKey{}).(int)
	if !ok {
		return invoker(ctx, method, req, reply, cc, opts...)
	}
	var md metadata.MD
	err := invoker(ctx, method, req, reply, cc, append(opts, grpc.Header(&md))...)
	recordTiming(k, md)
	return err
}

func timingStream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	cs, err := streamer(ctx, desc, cc, method, opts...)
	k, ok := ctx.Value(timingKindKey{}).(int)
	if err != nil || !ok {
		return cs, err
	}
	return &timedStream{ClientStream: cs, kind: k}, nil
}

// timedStream reads the header once the first message (or the end) has arrived: Header() does not wait then.
type timedStream struct {
	grpc.ClientStream
	kind int
	once sync.Once
}

func (s *timedStream) RecvMsg(m interface{}) error {
	err := s.ClientStream.RecvMsg(m)
	s.once.Do(func() {
		if md, herr := s.ClientStream.Header(); herr == nil {
			recordTiming(s.kind, md)
		}
	})
	return err
}
