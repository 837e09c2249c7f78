package bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The reading the generated records of Protocol.java build on (scripts/contract.ts writes those, not
 * this file): JSON values of Gson's tree into the protocol's types, an error naming the field.
 */
final class ProtocolReader {
  private ProtocolReader() {}

  /** Reads one JSON value; `path` names it in errors. */
  interface Reader<T> {
    T read(JsonElement json, String path);
  }

  static final BigDecimal MAX_SAFE_INTEGER = BigDecimal.valueOf((1L << 53) - 1);

  static <T> T required(JsonObject o, String path, String name, Reader<T> reader) {
    JsonElement e = o.get(name);
    String at = path.isEmpty() ? name : path + "." + name;
    if (e == null || e.isJsonNull()) throw new IllegalArgumentException("missing field " + at);
    return reader.read(e, at);
  }

  /** The field's value, or `fallback` when it is absent or null. */
  static <T> T optional(JsonObject o, String path, String name, Reader<T> reader, T fallback) {
    JsonElement e = o.get(name);
    return e == null || e.isJsonNull() ? fallback : reader.read(e, path.isEmpty() ? name : path + "." + name);
  }

  static IllegalArgumentException mustBe(String path, String what) {
    return new IllegalArgumentException((path.isEmpty() ? "the JSON value" : "field " + path) + " must be " + what);
  }

  static JsonObject object(JsonElement json, String path) {
    if (!json.isJsonObject()) throw mustBe(path, "an object");
    return json.getAsJsonObject();
  }

  static String string(JsonElement json, String path) {
    if (!json.isJsonPrimitive() || !json.getAsJsonPrimitive().isString()) throw mustBe(path, "a string");
    return json.getAsString();
  }

  static String oneOf(String value, String path, String... values) {
    for (String v : values) {
      if (v.equals(value)) return value;
    }
    throw mustBe(path, "one of " + String.join(", ", values) + ", not \"" + value + "\"");
  }

  static BigDecimal decimal(JsonElement json, String path) {
    if (!json.isJsonPrimitive() || !json.getAsJsonPrimitive().isNumber()) throw mustBe(path, "a number");
    return json.getAsBigDecimal();
  }

  static Double number(JsonElement json, String path) {
    return decimal(json, path).doubleValue();
  }

  /** A number without a fraction that JSON's readers all hold exactly (at most 2^53 - 1 either way). */
  static Long int64(JsonElement json, String path) {
    BigDecimal d = decimal(json, path);
    if (d.abs().compareTo(MAX_SAFE_INTEGER) > 0 || d.remainder(BigDecimal.ONE).signum() != 0) throw mustBe(path, "an integer");
    return d.longValue();
  }

  static Integer int32(JsonElement json, String path) {
    long n = int64(json, path);
    if (n != (int) n) throw mustBe(path, "an integer of 32 bits");
    return (int) n;
  }

  static Boolean bool(JsonElement json, String path) {
    if (!json.isJsonPrimitive() || !json.getAsJsonPrimitive().isBoolean()) throw mustBe(path, "true or false");
    return json.getAsBoolean();
  }

  static <T> List<T> list(JsonElement json, String path, Reader<T> reader) {
    if (!json.isJsonArray()) throw mustBe(path, "an array");
    JsonArray a = json.getAsJsonArray();
    List<T> items = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) items.add(reader.read(a.get(i), path + "[" + i + "]"));
    return List.copyOf(items);
  }
}
