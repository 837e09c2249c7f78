package main

// Builds a fresh spanner.Client from a cell's configuration. One source compiles against every
// client version (v1.x and the monorepo cloud.google.com/go v0.x): fields that not every version
// has are set through reflection, and a version that lacks a requested option fails the cell with
// "option X is not supported by go <version>" (exit 4) instead of a crash.

import (
	"context"
	"fmt"
	"net"
	"os"
	"reflect"
	"strconv"

	"cloud.google.com/go/spanner"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
)

// unsupportedOption is a requested option the client version does not have.
type unsupportedOption struct{ message string }

func (u *unsupportedOption) Error() string { return u.message }

func unsupported(cell *DriverCell, option, why string) error {
	m := fmt.Sprintf("option %s is not supported by %s %s", option, cell.Client.Language, cell.Client.Version)
	if why != "" {
		m += ": " + why
	}
	return &unsupportedOption{m}
}

// The environment variables the multiplexed-session switch of v1.66.0..v1.87.0 reads.
var multiplexedEnv = []string{
	"GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS",
	"GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW",
	"GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_PARTITIONED_OPS",
}

// clientSetup is everything newClient needs; making it has no side effects.
type clientSetup struct {
	config spanner.ClientConfig
	opts   []option.ClientOption
	// Environment variables to set ("" = unset) in this process before the client is made.
	env map[string]string
	// spanner.UseNumberWithJSONDecoderEncoder's setting, when the cell gives one (a package-wide switch).
	jsonUseNumber *bool
}

// useJSONNumber is spanner.UseNumberWithJSONDecoderEncoder where the client version has it
// (cloud.google.com/go/spanner v1.54.0 on: scan_json_number.go, built with the scb_json_number tag).
var useJSONNumber func(bool)

// setupClient maps the cell's configuration onto the client version's options.
func setupClient(cell *DriverCell) (*clientSetup, error) {
	conf := cell.Configuration
	if conf.GrpcGcp == "on" {
		return nil, unsupported(cell, "grpcGcp", "grpc-gcp is not available in the Go client")
	}
	// "off" and "default" are the same thing here: the client's own gRPC connection pool.
	if conf.DynamicChannelPool != nil {
		return nil, unsupported(cell, "dynamicChannelPool", "a Java client option")
	}

	// Start from what spanner.NewClient would use, so that options left out keep their defaults.
	config, err := newClientDefaults()
	if err != nil {
		return nil, err
	}
	address := net.JoinHostPort(cell.Endpoint.Host, strconv.FormatInt(cell.Endpoint.Port, 10))
	if r := cell.Endpoint.Resolver; r != nil {
		// grpc-go's dns resolver asks the server a target's authority names (every version built here).
		address = "dns://" + r.Server + "/" + net.JoinHostPort(r.Name, strconv.FormatInt(cell.Endpoint.Port, 10))
	}
	s := &clientSetup{
		config: config,
		// Plaintext (TLS replaces them below). grpc.WithInsecure, not insecure.NewCredentials: the
		// monorepo era's grpc-go predates the latter.
		opts: []option.ClientOption{
			option.WithEndpoint(address),
			option.WithoutAuthentication(),
			option.WithGRPCDialOption(grpc.WithInsecure()),
		},
		env: map[string]string{
			// v1.x read it. Besides the endpoint (the options above set it too, for the monorepo era
			// that ignores the variable), it turns off the built-in metrics export to Cloud
			// Monitoring and, in v1.87.0 and v1.96.1 (not v1.70.0), the probe of the GCE metadata
			// server (169.254.169.254) that looks for the client's region.
			"SPANNER_EMULATOR_HOST": address,
			// No built-in metrics export in any version: later ones export unless this is true,
			// v1.70.0 only when SPANNER_ENABLE_BUILTIN_METRICS is.
			"SPANNER_DISABLE_BUILTIN_METRICS": "true",
			"SPANNER_ENABLE_BUILTIN_METRICS":  "",
		},
	}
	if cell.Endpoint.Security == "tls" {
		// Real Spanner's path: TLS and the environment's Application Default Credentials, as every
		// version does them by default; no emulator switch. Set before the options below add to them.
		s.opts = []option.ClientOption{option.WithEndpoint(address)}
		s.env["SPANNER_EMULATOR_HOST"] = ""
		if roots := cell.Endpoint.TLSRootsFile; roots != nil && *roots != "" {
			// The test's roots through the Go standard library, not a gRPC option: crypto/x509 reads
			// SSL_CERT_FILE when it first loads the system roots (no TLS happens before newClient), so
			// every client version trusts them whichever way its transport builds TLS and credentials.
			s.env["SSL_CERT_FILE"] = *roots
		}
	}
	cfg := reflect.ValueOf(&s.config).Elem()
	pool := cfg.FieldByName("SessionPoolConfig")
	// The session pool's health checker went with the pool in v1.88.0 (only multiplexed sessions
	// since); its sample interval is in every version that has a pool, back to the monorepo era.
	hasPool := pool.FieldByName("healthCheckSampleInterval").IsValid()
	// v1.66.0 added multiplexed sessions, and GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS, with this field.
	hasMultiplexed := pool.FieldByName("MultiplexSessionCheckInterval").IsValid()

	if conf.NumChannels != nil {
		if f := cfg.FieldByName("NumChannels"); f.IsValid() {
			setNumber(f, float64(*conf.NumChannels))
		} else {
			s.opts = append(s.opts, option.WithGRPCConnectionPool(*conf.NumChannels))
		}
	}

	if sp := conf.SessionPool; !sp.empty() {
		if !hasPool {
			return nil, unsupported(cell, "sessionPool", "it has no session pool, only multiplexed sessions")
		}
		fields := []struct {
			option, field string
			value         *float64
		}{
			{"sessionPool.minSessions", "MinOpened", asFloat(sp.MinSessions)},
			{"sessionPool.maxSessions", "MaxOpened", asFloat(sp.MaxSessions)},
			{"sessionPool.writeSessionsFraction", "WriteSessions", sp.WriteSessionsFraction},
			{"sessionPool.maxIdle", "MaxIdle", asFloat(sp.MaxIdle)},
		}
		for _, f := range fields {
			if f.value == nil {
				continue
			}
			if v := pool.FieldByName(f.field); !v.IsValid() || !setNumber(v, *f.value) {
				return nil, unsupported(cell, f.option, "")
			}
		}
		if t := sp.TrackSessionHandles; t != nil {
			v := pool.FieldByName("TrackSessionHandles")
			if !v.IsValid() || v.Kind() != reflect.Bool || !v.CanSet() {
				return nil, unsupported(cell, "sessionPool.trackSessionHandles", "")
			}
			v.SetBool(*t)
		}
	}

	switch m := conf.MultiplexedSessions; {
	case m == nil:
		// The version's default, whatever the runner's environment says.
		for _, e := range multiplexedEnv {
			s.env[e] = ""
		}
	case hasPool && hasMultiplexed:
		for _, e := range multiplexedEnv {
			s.env[e] = strconv.FormatBool(*m)
		}
	case !hasPool && *m:
		// Multiplexed sessions are all it has.
	case !hasPool:
		return nil, unsupported(cell, "multiplexedSessions=false", "it always uses multiplexed sessions")
	default:
		return nil, unsupported(cell, "multiplexedSessions", "it has no multiplexed sessions")
	}
	if u := conf.GoJsonUseNumber; u != nil {
		if useJSONNumber == nil {
			return nil, unsupported(cell, "goJsonUseNumber", "UseNumberWithJSONDecoderEncoder came in cloud.google.com/go/spanner v1.54.0")
		}
		s.jsonUseNumber = u
	}
	// Every version takes these (grpc-go has had both since before 1.17); later ones chain their own after.
	s.opts = append(s.opts,
		option.WithGRPCDialOption(grpc.WithUnaryInterceptor(driverUnary)),
		option.WithGRPCDialOption(grpc.WithStreamInterceptor(timingStream)))
	return s, nil
}

// newClient sets the environment and makes the client.
func newClient(ctx context.Context, cell *DriverCell, s *clientSetup) (*spanner.Client, error) {
	for k, v := range s.env {
		if v == "" {
			os.Unsetenv(k)
		} else {
			os.Setenv(k, v)
		}
	}
	// Before the client exists, as its doc asks: the switch is read by every JSON decode.
	if s.jsonUseNumber != nil {
		useJSONNumber(*s.jsonUseNumber)
	}
	return spanner.NewClientWithConfig(ctx, cell.Database.Path(), s.config, s.opts...)
}

// setNumber sets an exported numeric field; false when it is not a number.
func setNumber(f reflect.Value, v float64) bool {
	if !f.CanSet() {
		return false
	}
	switch f.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.SetInt(int64(v))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(uint64(v))
	case reflect.Float32, reflect.Float64:
		f.SetFloat(v)
	default:
		return false
	}
	return true
}

func asFloat(v *int) *float64 {
	if v == nil {
		return nil
	}
	f := float64(*v)
	return &f
}
