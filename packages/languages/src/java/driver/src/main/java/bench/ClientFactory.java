package bench;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.SessionPoolOptions;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Builds a fresh Spanner client from a cell's configuration. Every builder method that is not in
 * all versions is called through reflection, so this one source compiles against any version and a
 * version that lacks a requested option fails the cell with a clear sentence instead of a crash.
 */
final class ClientFactory {

  /** A requested option the client version does not have. */
  static final class UnsupportedOption extends RuntimeException {
    UnsupportedOption(String option, String version) {
      super("option " + option + " is not supported by java " + version);
    }

    UnsupportedOption(String option, String version, String why) {
      super("option " + option + " is not supported by java " + version + ": " + why);
    }
  }

  private ClientFactory() {}

  /** A client whose channels nobody counts (the conformance harness). */
  static Spanner create(Protocol.DriverCell cell) {
    return create(cell, new ChannelCounts());
  }

  static Spanner create(Protocol.DriverCell cell, ChannelCounts counts) {
    String version = cell.client().version();
    Protocol.Configuration conf = cell.configuration();
    metricsOff();
    noGcpProbe();
    Protocol.Endpoint endpoint = cell.endpoint();
    boolean tls = endpoint.security().equals("tls");
    // grpc-java's DNS resolver ignores a DNS server named in a dns:// target (grpc-java #1140).
    if (endpoint.resolver() != null)
      throw new UnsupportedOption("target.dns", version, "grpc-java's DNS resolver ignores the DNS server a dns:// target names");
    if (endpoint.tlsRootsFile() != null) trustOnly(endpoint.tlsRootsFile());
    // Never setChannelProvider: it silently bypasses grpc-gcp. The configurator is applied to every
    // channel builder, grpc-gcp's included.
    SpannerOptions.Builder b =
        SpannerOptions.newBuilder()
            .setProjectId(cell.database().projectId())
            .setHost((tls ? "https://" : "http://") + endpoint.host() + ":" + endpoint.port())
            .setChannelConfigurator(builder -> (tls ? builder : builder.usePlaintext()).intercept(counts, new ServerTiming(), new SessionCount()));
    // TLS keeps the client's default: Application Default Credentials from the environment.
    if (!tls) b.setCredentials(NoCredentials.getInstance());
    // The cell says where to connect: an inherited SPANNER_EMULATOR_HOST (even empty) would replace
    // the host, the TLS and the credentials above at build(). Versions without the setter: no guard.
    Method emulator = find(b.getClass(), "setEmulatorHost", String.class);
    if (emulator != null) invoke(emulator, b, (Object) null);
    // No metrics export (it would look for GCP credentials and a project); not every version has it.
    Method metrics = find(b.getClass(), "setBuiltInMetricsEnabled", boolean.class);
    if (metrics != null) invoke(metrics, b, false);

    String grpcGcp = conf.grpcGcp();
    if (grpcGcp.equals("on")) {
      call(b, "enableGrpcGcpExtension", "grpcGcp", version);
    } else if (grpcGcp.equals("off")) {
      // Versions without the switch predate grpc-gcp being on by default: off is what they do.
      Method off = find(b.getClass(), "disableGrpcGcpExtension");
      if (off != null) invoke(off, b);
    }
    if (conf.numChannels() != null) b.setNumChannels(conf.numChannels());
    if (conf.dynamicChannelPool() != null) {
      if (conf.dynamicChannelPool()) {
        // Only takes effect when numChannels is unset; the UI says so, we do not refuse.
        call(b, "enableDynamicChannelPool", "dynamicChannelPool", version);
      } else {
        // A version without a dynamic pool already gives what "false" asks for.
        Method off = find(b.getClass(), "disableDynamicChannelPool");
        if (off != null) invoke(off, b);
      }
    }
    SessionPoolOptions pool = sessionPool(conf, version);
    if (pool != null) b.setSessionPoolOption(pool);
    if (conf.decodeMode() != null) decodeMode(b, conf.decodeMode(), version);
    if (conf.nodeRows() != null) throw new UnsupportedOption("nodeRows", version, "a node client option (its json and wrapNumbers query options)");
    if (conf.nodeScan() != null) throw new UnsupportedOption("nodeScan", version, "a node client option (database.run or database.runStream)");
    if (conf.goJsonUseNumber() != null) throw new UnsupportedOption("goJsonUseNumber", version, "a go client option (UseNumberWithJSONDecoderEncoder)");
    return b.build().getService();
  }

  /**
   * SpannerOptions.Builder.setDecodeMode, client-wide: every query's values decoded as the row
   * arrives (DIRECT), when the row is first read (LAZY_PER_ROW) or each value when read
   * (LAZY_PER_COL). DecodeMode came in 6.59.0 (java-spanner PR #2847); its default was LAZY_PER_COL
   * up to 6.72.0 and DIRECT from 6.73.0.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void decodeMode(SpannerOptions.Builder b, String mode, String version) {
    Class<?> type;
    try {
      type = Class.forName("com.google.cloud.spanner.DecodeMode", false, ClientFactory.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new UnsupportedOption("decodeMode", version, "DecodeMode came in google-cloud-spanner 6.59.0");
    }
    Object value;
    try {
      value = Enum.valueOf((Class<? extends Enum>) type.asSubclass(Enum.class), mode);
    } catch (IllegalArgumentException e) {
      throw new UnsupportedOption("decodeMode=" + mode, version, "its DecodeMode has no " + mode);
    }
    call(b, "setDecodeMode", "decodeMode", version, type, value);
  }

  /**
   * Trusts only the certificates of a PEM file (tests' own CA): written to a PKCS12 trust store that
   * the JVM's default trust manager, which grpc-netty-shaded uses, reads from these properties.
   */
  private static void trustOnly(String pemFile) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      int i = 0;
      try (InputStream in = Files.newInputStream(Path.of(pemFile))) {
        for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) store.setCertificateEntry("root-" + i++, c);
      }
      if (i == 0) throw new IllegalArgumentException("no certificate in " + pemFile);
      Path file = Files.createTempFile("scb-roots", ".p12");
      file.toFile().deleteOnExit();
      char[] password = "scb-roots".toCharArray();
      try (OutputStream out = Files.newOutputStream(file)) {
        store.store(out, password);
      }
      System.setProperty("javax.net.ssl.trustStore", file.toString());
      System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
      System.setProperty("javax.net.ssl.trustStorePassword", new String(password));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot read the trusted roots " + pemFile + ": " + e.getMessage(), e);
    }
  }

  /**
   * Every metrics switch of the client's environment reads false, whatever the process environment
   * says. Older versions (6.104.0) gate their gRPC metrics only on the variable
   * SPANNER_DISABLE_DIRECT_ACCESS_GRPC_BUILTIN_METRICS and then probe metadata.google.internal and
   * add per-call metric work; that must not differ between the versions we compare.
   */
  private static void metricsOff() {
    try {
      Class<?> type = Class.forName("com.google.cloud.spanner.SpannerOptions$SpannerEnvironment");
      Field current = SpannerOptions.class.getDeclaredField("environment");
      current.setAccessible(true);
      Object real = current.get(null);
      Object quiet =
          Proxy.newProxyInstance(
              type.getClassLoader(),
              new Class<?>[] {type},
              (proxy, m, args) -> {
                if (m.getName().startsWith("isEnable") && m.getName().endsWith("Metrics")) return false;
                try {
                  return m.invoke(real, args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              });
      SpannerOptions.class.getMethod("useEnvironment", type).invoke(null, quiet);
    } catch (ReflectiveOperationException e) {
      // A version without the hook: the runner's environment variables are all there is.
    }
  }

  /**
   * The client asks metadata.google.internal whether it runs on GCP (for metric and trace labels),
   * even with metrics off. Off GCP the answer is the location "global": give it that answer
   * up front, and should a version keep it elsewhere, make its probe give up quickly.
   */
  private static void noGcpProbe() {
    System.setProperty("spanner.check_is_running_on_gcp_timeout", "1");
    try {
      Field location = Class.forName("com.google.cloud.spanner.BuiltInMetricsProvider").getDeclaredField("location");
      location.setAccessible(true);
      if (location.get(null) == null) location.set(null, "global");
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Not there in this version: the short timeout above is what we have.
    }
  }

  /** Session options, or null when the configuration sets none (the version's defaults stay). */
  private static SessionPoolOptions sessionPool(Protocol.Configuration conf, String version) {
    Protocol.SessionPool pool = conf.sessionPool();
    boolean poolSet = pool != null
        && (pool.minSessions() != null || pool.maxSessions() != null || pool.maxIdle() != null || pool.writeSessionsFraction() != null);
    Boolean multiplexed = conf.multiplexedSessions();
    if (multiplexed == null && !poolSet) return null;
    // Versions without a session pool (6.123.0 has none) take the settings below and ignore them.
    boolean hasPool = classExists("com.google.cloud.spanner.SessionPool");
    if (!hasPool && poolSet) {
      throw new UnsupportedOption("sessionPool", version, "it has no session pool, only multiplexed sessions");
    }
    if (!hasPool && multiplexed != null && !multiplexed) {
      throw new UnsupportedOption("multiplexedSessions=false", version, "it always uses multiplexed sessions");
    }
    SessionPoolOptions.Builder sb = SessionPoolOptions.newBuilder();
    if (multiplexed != null) {
      // Package-private (@VisibleForTesting) up to at least 6.123.0, hence setAccessible. The env
      // variable GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS, when set, overrides it in the client.
      call(sb, "setUseMultiplexedSession", "multiplexedSessions", version, boolean.class, multiplexed);
    }
    if (!poolSet) return sb.build();
    if (pool.minSessions() != null) {
      call(sb, "setMinSessions", "sessionPool.minSessions", version, int.class, pool.minSessions());
    }
    if (pool.maxSessions() != null) {
      call(sb, "setMaxSessions", "sessionPool.maxSessions", version, int.class, pool.maxSessions());
    }
    if (pool.maxIdle() != null) {
      call(sb, "setMaxIdleSessions", "sessionPool.maxIdle", version, int.class, pool.maxIdle());
    }
    if (pool.writeSessionsFraction() != null) {
      call(sb, "setWriteSessionsFraction", "sessionPool.writeSessionsFraction", version, float.class,
          pool.writeSessionsFraction().floatValue());
    }
    return sb.build();
  }

  /** Calls a no-argument builder method, or fails the cell when the version lacks it. */
  private static void call(Object target, String method, String option, String version) {
    Method m = find(target.getClass(), method);
    if (m == null) throw new UnsupportedOption(option, version);
    invoke(m, target);
  }

  /** Calls a one-argument builder method, or fails the cell when the version lacks it. */
  private static void call(Object target, String method, String option, String version, Class<?> type, Object arg) {
    Method m = find(target.getClass(), method, type);
    if (m == null) throw new UnsupportedOption(option, version);
    invoke(m, target, arg);
  }

  private static boolean classExists(String name) {
    try {
      Class.forName(name, false, ClientFactory.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** The method, public or not, declared by the class or a superclass; null when absent. */
  static Method find(Class<?> type, String name, Class<?>... params) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        Method m = c.getDeclaredMethod(name, params);
        m.setAccessible(true);
        return m;
      } catch (NoSuchMethodException e) {
        // look further up
      }
    }
    return null;
  }

  private static void invoke(Method m, Object target, Object... args) {
    try {
      m.invoke(target, args);
    } catch (InvocationTargetException e) {
      // The builder refused the value (e.g. minSessions > maxSessions): report its own message.
      Throwable cause = e.getCause();
      throw cause instanceof RuntimeException ? (RuntimeException) cause : new RuntimeException(cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call " + m.getName(), e);
    }
  }

  /**
   * close() waits for sessions and channels: a bounded wait, then halt with 0. Halt, not exit: the
   * output is written, and shutdown hooks of the client's libraries could block.
   */
  static void closeThenHalt(Spanner spanner) throws InterruptedException {
    Thread closer = new Thread(spanner::close, "close");
    closer.setDaemon(true);
    closer.start();
    closer.join(3000);
    System.out.flush();
    System.err.flush();
    Runtime.getRuntime().halt(0);
  }
}
