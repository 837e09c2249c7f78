package bench;

import com.google.cloud.ByteArray;
import com.google.cloud.Date;
import com.google.cloud.Timestamp;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.ResultSet;
import com.google.cloud.spanner.Statement;
import com.google.cloud.spanner.StructReader;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The `scan` operation: a single-use query whose result has the job's shape, read as the cell's
 * `resultSet.read` says, every value decoded with the client's own getters into its Java type and
 * folded into its column's checksum (packages/shared/src/result-set/values.ts defines it; the Node
 * driver's scan.ts is the reference), then checked: a value decoded wrong ends the driver (exit 5),
 * naming the column and its type.
 */
final class Scan {
  private Scan() {}

  static final int START = 0x811c9dc5;
  static final int END = 0x110000;
  static final int NULL = 0x110001;
  static final int OPEN = 0x110002;
  static final int CLOSE = 0x110003;

  /** FNV-1a, 32 bits: int multiplication wraps like Math.imul. */
  static int fold(int h, int unit) {
    return (h ^ unit) * 16777619;
  }

  /**
   * The getters not every version has, looked up once: FLOAT32's came in google-cloud-spanner 6.61.0
   * (JSON's long before the versions we run, looked up all the same so this compiles against any).
   */
  private static final MethodHandle GET_FLOAT = getter("getFloat", float.class);
  private static final MethodHandle GET_FLOAT_LIST = getter("getFloatList", List.class);
  private static final MethodHandle GET_JSON = getter("getJson", String.class);
  private static final MethodHandle GET_JSON_LIST = getter("getJsonList", List.class);
  /** UUID's: getUuid and getUuidList (java.util.UUID), from 6.92.0 on (not in 6.91.1: javap on the jars). */
  private static final MethodHandle GET_UUID = getter("getUuid", UUID.class);
  private static final MethodHandle GET_UUID_LIST = getter("getUuidList", List.class);

  private static MethodHandle getter(String name, Class<?> returns) {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(StructReader.class, name, MethodType.methodType(returns, int.class))
          .asType(MethodType.methodType(Object.class, StructReader.class, int.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }

  /** The query of `shape`, run on `client`; refuses a type whose getters this client version lacks. */
  static Operations.Operation of(DatabaseClient client, Protocol.ScanQuery shape, String version) {
    for (Protocol.ScanColumn c : shape.columns()) {
      // The client cannot decode a row with such a column at all, whatever `read` says.
      if (c.type().equals("FLOAT32") && (GET_FLOAT == null || GET_FLOAT_LIST == null)) {
        throw new ClientFactory.UnsupportedOption("workload.resultSet FLOAT32", version, "the client reads FLOAT32 from 6.61.0 on");
      }
      if (c.type().equals("JSON") && (GET_JSON == null || GET_JSON_LIST == null)) {
        throw new ClientFactory.UnsupportedOption("workload.resultSet JSON", version, "this client has no getJson");
      }
      if (c.type().equals("UUID") && (GET_UUID == null || GET_UUID_LIST == null)) {
        throw new ClientFactory.UnsupportedOption("workload.resultSet " + (c.array() ? "ARRAY<UUID>" : "UUID"), version, "the client reads UUID (getUuid) from 6.92.0 on");
      }
    }
    Statement sql = Statement.of(shape.sql());
    List<Protocol.ScanColumn> columns = shape.columns();
    int read = shape.read().equals("all") ? columns.size() : shape.read().equals("first") ? Math.min(1, columns.size()) : 0;
    long expected = shape.rows();
    return () -> {
      long t0 = System.nanoTime();
      long first = 0;
      long last = 0;
      int[] h = new int[read];
      Arrays.fill(h, START);
      long rows = 0;
      try (ResultSet rs = client.singleUse().executeQuery(sql)) {
        while (rs.next()) {
          if (++rows == 1) first = System.nanoTime();
          for (int i = 0; i < read; i++) h[i] = foldValue(h[i], rs, i, columns.get(i));
          // The result's last row read (a count other than the result's fails below): no clock read per row.
          if (rows == expected) last = System.nanoTime();
        }
      }
      if (rows != shape.rows()) mismatch("scan: " + rows + " rows decoded, the result has " + shape.rows());
      for (int i = 0; i < read; i++) {
        Protocol.ScanColumn c = columns.get(i);
        long got = Integer.toUnsignedLong(h[i]);
        if (got != c.checksum()) {
          String type = c.array() ? "ARRAY<" + c.type() + ">" : c.type();
          mismatch("scan: column " + c.name() + " (" + type + ") decoded to values whose checksum is " + Long.toHexString(got)
              + ", the result's is " + Long.toHexString(c.checksum()) + " (read " + shape.read() + ", " + shape.rows() + " rows)");
        }
      }
      RowTimes s = sink;
      if (s != null) s.record((first - t0) / 1000, (last - t0) / 1000);
    };
  }

  /** Where a scan's row times go: the running phase's recorder (microseconds from the scan's start). */
  interface RowTimes {
    void record(long firstRowMicros, long lastRowMicros);
  }

  /**
   * The running phase's sink of row times: from the scan's start to the first row `next()` handed the
   * application, and to the application having read the last row.
   */
  static volatile RowTimes sink;

  /** Ends the driver: a wrong value is a failed cell, whatever the rest measures (one line: the first to fail). */
  private static synchronized void mismatch(String message) {
    System.err.println(message);
    System.err.flush();
    System.out.flush();
    Runtime.getRuntime().halt(5);
  }

  /** Folds column `i` of the current row, decoded by the getter of its type. */
  static int foldValue(int h, StructReader row, int i, Protocol.ScanColumn c) throws Exception {
    if (row.isNull(i)) return fold(h, NULL);
    String type = c.type();
    if (!c.array()) return foldScalar(h, type, scalar(row, i, type));
    h = fold(h, OPEN);
    for (Object e : list(row, i, type)) h = e == null ? fold(h, NULL) : foldScalar(h, type, e);
    return fold(h, CLOSE);
  }

  private static Object scalar(StructReader row, int i, String type) throws Exception {
    switch (type) {
      case "BOOL":
        return row.getBoolean(i);
      case "INT64":
        return row.getLong(i);
      case "FLOAT32":
        return call(GET_FLOAT, row, i);
      case "FLOAT64":
        return row.getDouble(i);
      case "NUMERIC":
        return row.getBigDecimal(i);
      case "STRING":
        return row.getString(i);
      case "BYTES":
        return row.getBytes(i);
      case "DATE":
        return row.getDate(i);
      case "TIMESTAMP":
        return row.getTimestamp(i);
      case "JSON":
        return call(GET_JSON, row, i);
      case "UUID":
        return call(GET_UUID, row, i);
      default:
        throw new IllegalArgumentException("scan: unknown column type " + type);
    }
  }

  private static List<?> list(StructReader row, int i, String type) throws Exception {
    switch (type) {
      case "BOOL":
        return row.getBooleanList(i);
      case "INT64":
        return row.getLongList(i);
      case "FLOAT32":
        return (List<?>) call(GET_FLOAT_LIST, row, i);
      case "FLOAT64":
        return row.getDoubleList(i);
      case "NUMERIC":
        return row.getBigDecimalList(i);
      case "STRING":
        return row.getStringList(i);
      case "BYTES":
        return row.getBytesList(i);
      case "DATE":
        return row.getDateList(i);
      case "TIMESTAMP":
        return row.getTimestampList(i);
      case "JSON":
        return (List<?>) call(GET_JSON_LIST, row, i);
      case "UUID":
        return (List<?>) call(GET_UUID_LIST, row, i);
      default:
        throw new IllegalArgumentException("scan: unknown column type ARRAY<" + type + ">");
    }
  }

  /** A getter looked up by name, called: what it throws is what the getter threw. */
  private static Object call(MethodHandle getter, StructReader row, int i) throws Exception {
    try {
      return getter.invokeExact(row, i);
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /** One non-NULL value: its units (STRING its UTF-16 chars, BYTES its bytes, else its canonical text), then END. */
  static int foldScalar(int h, String type, Object v) {
    if (type.equals("BYTES")) {
      for (byte b : ((ByteArray) v).toByteArray()) h = fold(h, b & 0xff);
    } else {
      String t = type.equals("STRING") ? (String) v : text(type, v);
      for (int k = 0; k < t.length(); k++) h = fold(h, t.charAt(k));
    }
    return fold(h, END);
  }

  /** The canonical text of a decoded value, for the types that fold text (all but STRING and BYTES). */
  static String text(String type, Object v) {
    switch (type) {
      case "BOOL":
        return ((Boolean) v) ? "true" : "false";
      case "INT64":
        return Long.toString((Long) v);
      case "FLOAT64": {
        double d = (Double) v;
        return Double.isNaN(d) ? "NaN" : hex(Double.doubleToRawLongBits(d), 16);
      }
      case "FLOAT32": {
        float f = (Float) v;
        return Float.isNaN(f) ? "NaN" : hex(Integer.toUnsignedLong(Float.floatToRawIntBits(f)), 8);
      }
      case "NUMERIC": {
        BigDecimal n = (BigDecimal) v;
        return n.signum() == 0 ? "0" : n.stripTrailingZeros().toPlainString();
      }
      case "DATE":
        return ((Date) v).toString();
      case "TIMESTAMP": {
        Timestamp t = (Timestamp) v;
        return t.getSeconds() + "." + String.format("%09d", t.getNanos());
      }
      case "JSON":
        return (String) v;
      // java.util.UUID prints the canonical lower-case 8-4-4-4-12 form.
      case "UUID":
        return ((UUID) v).toString();
      default:
        throw new IllegalArgumentException("scan: unknown column type " + type);
    }
  }

  private static String hex(long bits, int digits) {
    String s = Long.toHexString(bits);
    return s.length() >= digits ? s : "0".repeat(digits - s.length()) + s;
  }
}
