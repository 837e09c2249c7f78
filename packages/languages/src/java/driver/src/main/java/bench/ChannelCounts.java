package bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Client-side channel accounting: per gRPC channel the client builds, the RPCs started and the most in
 * flight at once (queued ones included). Installed through the channel configurator, which every
 * channel of the pool (gax's or grpc-gcp's) is built with; grpc-gcp builds all of its channels from one
 * builder, so one interceptor sees them all and tells them apart by the channel below it.
 */
final class ChannelCounts implements ClientInterceptor {
  private static final class Count {
    final int channel;
    final AtomicLong rpcs = new AtomicLong();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger peak = new AtomicInteger();

    Count(int channel) {
      this.channel = channel;
    }
  }

  private final Map<Channel, Count> byChannel = new IdentityHashMap<>();
  private final List<Count> inOrder = new ArrayList<>();

  private synchronized Count countOf(Channel next) {
    return byChannel.computeIfAbsent(next, n -> {
      Count c = new Count(inOrder.size());
      inOrder.add(c);
      return c;
    });
  }

  @Override
  public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(MethodDescriptor<ReqT, RespT> method, CallOptions options, Channel next) {
    Count count = countOf(next);
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<RespT> listener, Metadata headers) {
        count.rpcs.incrementAndGet();
        count.peak.accumulateAndGet(count.inFlight.incrementAndGet(), Math::max);
        AtomicBoolean closed = new AtomicBoolean();
        super.start(
            new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
              @Override
              public void onClose(Status status, Metadata trailers) {
                if (closed.compareAndSet(false, true)) count.inFlight.decrementAndGet();
                super.onClose(status, trailers);
              }
            },
            headers);
      }
    };
  }

  /** The protocol's clientChannels: channels in the order of their first call. */
  synchronized JsonArray toJson() {
    JsonArray a = new JsonArray();
    for (Count c : inOrder) {
      JsonObject o = new JsonObject();
      o.addProperty("channel", c.channel);
      o.addProperty("rpcs", c.rpcs.get());
      o.addProperty("peakInFlight", c.peak.get());
      a.add(o);
    }
    return a;
  }
}
