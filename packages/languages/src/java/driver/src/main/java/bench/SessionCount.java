package bench;

import com.google.spanner.v1.BatchCreateSessionsResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sessions the client creates on the server, from its start: one per CreateSession answer, and per
 * BatchCreateSessions answer the sessions it holds. A job-wide Cloud Spanner budget bounds them.
 */
final class SessionCount implements ClientInterceptor {
  private static final AtomicLong CREATED = new AtomicLong();

  static long created() {
    return CREATED.get();
  }

  @Override
  public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(MethodDescriptor<ReqT, RespT> method, CallOptions options, Channel next) {
    String name = method.getFullMethodName();
    if (!name.equals("google.spanner.v1.Spanner/CreateSession") && !name.equals("google.spanner.v1.Spanner/BatchCreateSessions")) {
      return next.newCall(method, options);
    }
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<RespT> listener, Metadata headers) {
        super.start(
            new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
              @Override
              public void onMessage(RespT message) {
                CREATED.addAndGet(message instanceof BatchCreateSessionsResponse b ? b.getSessionCount() : 1);
                super.onMessage(message);
              }
            },
            headers);
      }
    };
  }
}
