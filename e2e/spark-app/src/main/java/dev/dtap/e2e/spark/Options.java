package dev.dtap.e2e.spark;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} arguments. */
final class Options {
  private final Map<String, String> values = new HashMap<>();

  Options(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (!a.startsWith("--") || i + 1 >= args.size()) {
        throw new IllegalArgumentException("expected --name value, got " + a);
      }
      values.put(a.substring(2), args.get(++i));
    }
  }

  String get(String name) {
    String v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException("missing --" + name);
    }
    return v;
  }

  String get(String name, String dflt) {
    return values.getOrDefault(name, dflt);
  }

  long getLong(String name, long dflt) {
    String v = values.get(name);
    return v == null ? dflt : Long.parseLong(v);
  }
}
