package dev.dtap.commit.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The committers' JSON: records are written with a streaming generator and read back into plain
 * maps and lists, so that no data-binding library (and no particular version of one) is needed.
 * Thread-safe.
 */
public final class Json {
  private static final JsonFactory FACTORY = new JsonFactory();

  private Json() {}

  /** Writes a document. */
  public interface Writer {
    void write(JsonGenerator g) throws IOException;
  }

  public static byte[] write(Writer w) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      w.write(g);
    }
    return out.toByteArray();
  }

  /**
   * Parses a document into maps (objects), lists (arrays), strings, longs, doubles, booleans and
   * nulls.
   *
   * @param data the document
   * @param source names the document in errors
   * @return the top-level object
   * @throws IOException naming the source if the document is not a JSON object
   */
  public static Map<String, Object> parse(byte[] data, String source) throws IOException {
    try (JsonParser p = FACTORY.createParser(data)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("Corrupt commit record " + source + ": not a JSON object");
      }
      return object(p);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException("Corrupt commit record " + source + ": " + e.getOriginalMessage(), e);
    }
  }

  private static Map<String, Object> object(JsonParser p) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.getCurrentName();
      p.nextToken();
      m.put(name, value(p));
    }
    return m;
  }

  private static Object value(JsonParser p) throws IOException {
    switch (p.currentToken()) {
      case START_OBJECT:
        return object(p);
      case START_ARRAY:
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(value(p));
        }
        return l;
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
        return p.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return p.getDoubleValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new IOException("unexpected JSON token " + p.currentToken());
    }
  }

  /** Typed access to a parsed object, with errors that name the document and the field. */
  public static final class Fields {
    private final Map<String, Object> map;
    private final String source;

    public Fields(Map<String, Object> map, String source) {
      this.map = map;
      this.source = source;
    }

    String string(String name) throws IOException {
      Object v = map.get(name);
      if (!(v instanceof String)) {
        throw missing(name, "a string");
      }
      return (String) v;
    }

    public String optString(String name) {
      Object v = map.get(name);
      return v instanceof String ? (String) v : null;
    }

    boolean bool(String name) {
      return Boolean.TRUE.equals(map.get(name));
    }

    long number(String name) throws IOException {
      Object v = map.get(name);
      if (!(v instanceof Long)) {
        throw missing(name, "an integer");
      }
      return (Long) v;
    }

    List<Fields> objects(String name) throws IOException {
      Object v = map.get(name);
      if (v == null) {
        return Collections.emptyList();
      }
      if (!(v instanceof List)) {
        throw missing(name, "an array");
      }
      List<Fields> out = new ArrayList<>();
      for (Object o : (List<?>) v) {
        if (!(o instanceof Map)) {
          throw missing(name, "an array of objects");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) o;
        out.add(new Fields(m, source));
      }
      return out;
    }

    List<String> strings(String name) throws IOException {
      Object v = map.get(name);
      if (v == null) {
        return Collections.emptyList();
      }
      if (!(v instanceof List)) {
        throw missing(name, "an array");
      }
      List<String> out = new ArrayList<>();
      for (Object o : (List<?>) v) {
        if (!(o instanceof String)) {
          throw missing(name, "an array of strings");
        }
        out.add((String) o);
      }
      return out;
    }

    private IOException missing(String name, String what) {
      return new IOException(
          "Corrupt commit record " + source + ": field '" + name + "' must be " + what);
    }
  }
}
