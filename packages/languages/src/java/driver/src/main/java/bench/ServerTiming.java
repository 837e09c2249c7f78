package bench;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.util.function.ObjIntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server-timing response header ("gfet4t7; dur=N", N ms: Cloud Spanner's front end sends it, and
 * so does the fake) of every RPC an operation makes, counted for that operation's kind. A call belongs
 * to the kind its thread runs when the call is created (the load loop sets it around each operation);
 * background calls (session creation, pool maintenance) run on other threads and are not counted.
 */
final class ServerTiming implements ClientInterceptor {
  /** The operation kind (index into the mix's kinds) the current thread runs, or null. */
  static final ThreadLocal<Integer> KIND = new ThreadLocal<>();
  /** Where durations go: the running phase's recorder (kind, duration in microseconds). */
  static volatile ObjIntConsumer<Long> sink;

  private static final Metadata.Key<String> HEADER = Metadata.Key.of("server-timing", Metadata.ASCII_STRING_MARSHALLER);
  private static final Pattern GFE = Pattern.compile("gfet4t7;\\s*dur=([0-9.]+)");

  @Override
  public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(MethodDescriptor<ReqT, RespT> method, CallOptions options, Channel next) {
    ClientCall<ReqT, RespT> call = next.newCall(method, options);
    Integer kind = KIND.get();
    if (kind == null) return call;
    return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
      @Override
      public void start(Listener<RespT> listener, Metadata headers) {
        super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
          @Override
          public void onHeaders(Metadata received) {
            record(kind, received.get(HEADER));
            super.onHeaders(received);
          }
        }, headers);
      }
    };
  }

  private static void record(int kind, String header) {
    ObjIntConsumer<Long> s = sink;
    if (s == null || header == null) return;
    Matcher m = GFE.matcher(header);
    if (m.find()) s.accept(Math.round(Double.parseDouble(m.group(1)) * 1000), kind);
  }
}
