package dev.dtap.tools;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a command prints: named values, tables and notes, rendered as aligned text for people or,
 * with {@code --json}, as one JSON object for scripts (tables become arrays of objects keyed by
 * column, numbers stay numbers). Not thread-safe.
 */
final class Report {
  /** How a column's numbers read as text. */
  enum Kind {
    TEXT,
    COUNT,
    BYTES
  }

  private final List<Object> parts = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  /** A named value. */
  Report field(String name, Object value) {
    parts.add(new Object[] {name, value});
    return this;
  }

  /** A line for people; in JSON it is one of the {@code notes}. */
  Report note(String line) {
    notes.add(line);
    return this;
  }

  /**
   * Starts a table.
   *
   * @param name its key in JSON
   * @param columns its column headers, each with an optional {@code :bytes} or {@code :count}
   */
  Table table(String name, String... columns) {
    Table t = new Table(name, columns);
    parts.add(t);
    return t;
  }

  /** A table of rows. */
  static final class Table {
    private final String name;
    private final String[] headers;
    private final Kind[] kinds;
    private final List<Object[]> rows = new ArrayList<>();

    private Table(String name, String[] columns) {
      this.name = name;
      this.headers = new String[columns.length];
      this.kinds = new Kind[columns.length];
      for (int i = 0; i < columns.length; i++) {
        String[] p = columns[i].split(":", 2);
        headers[i] = p[0];
        kinds[i] = p.length == 1 ? Kind.TEXT : Kind.valueOf(p[1].toUpperCase(Locale.ROOT));
      }
    }

    /** Adds a row, one value per column (null for none). */
    Table row(Object... values) {
      if (values.length != headers.length) {
        throw new IllegalArgumentException(
            name + ": " + values.length + " values for " + headers.length + " columns");
      }
      rows.add(values.clone());
      return this;
    }

    boolean isEmpty() {
      return rows.isEmpty();
    }
  }

  /** Prints the report as text or JSON. */
  void print(PrintStream out, boolean json) throws IOException {
    if (json) {
      out.println(toJson());
    } else {
      printText(out);
    }
    out.flush();
  }

  private void printText(PrintStream out) {
    for (Object p : parts) {
      if (p instanceof Table) {
        printTable(out, (Table) p);
      } else {
        Object[] f = (Object[]) p;
        out.println(f[0] + ": " + text(f[1], Kind.TEXT));
      }
    }
    for (String n : notes) {
      out.println(n);
    }
  }

  private static void printTable(PrintStream out, Table t) {
    int[] width = new int[t.headers.length];
    List<String[]> cells = new ArrayList<>();
    String[] head = new String[t.headers.length];
    for (int i = 0; i < head.length; i++) {
      head[i] = t.headers[i].toUpperCase(Locale.ROOT);
    }
    cells.add(head);
    for (Object[] r : t.rows) {
      String[] c = new String[r.length];
      for (int i = 0; i < r.length; i++) {
        c[i] = text(r[i], t.kinds[i]);
      }
      cells.add(c);
    }
    for (String[] c : cells) {
      for (int i = 0; i < c.length; i++) {
        width[i] = Math.max(width[i], c[i].length());
      }
    }
    for (String[] c : cells) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < c.length; i++) {
        boolean last = i == c.length - 1;
        boolean right = t.kinds[i] != Kind.TEXT;
        String pad = spaces(width[i] - c[i].length());
        line.append(right ? pad + c[i] : c[i] + (last ? "" : pad));
        if (!last) {
          line.append("  ");
        }
      }
      out.println(line.toString().replaceAll("\\s+$", ""));
    }
  }

  private static String spaces(int n) {
    char[] c = new char[n];
    Arrays.fill(c, ' ');
    return new String(c);
  }

  static String text(Object v, Kind kind) {
    if (v == null) {
      return "-";
    }
    if (v instanceof List) {
      StringBuilder b = new StringBuilder();
      for (Object o : (List<?>) v) {
        b.append(b.length() == 0 ? "" : ",").append(o);
      }
      return b.length() == 0 ? "-" : b.toString();
    }
    if (kind == Kind.BYTES && v instanceof Number) {
      return bytes(((Number) v).longValue());
    }
    return String.valueOf(v);
  }

  /** A byte count for people: {@code 512 B}, {@code 1.5 MiB}. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  String toJson() throws IOException {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
      g.setPrettyPrinter(new DefaultPrettyPrinter());
      g.writeStartObject();
      for (Object p : parts) {
        if (p instanceof Table) {
          Table t = (Table) p;
          g.writeArrayFieldStart(t.name);
          for (Object[] r : t.rows) {
            g.writeStartObject();
            for (int i = 0; i < r.length; i++) {
              g.writeFieldName(key(t.headers[i]));
              value(g, r[i]);
            }
            g.writeEndObject();
          }
          g.writeEndArray();
        } else {
          Object[] f = (Object[]) p;
          g.writeFieldName(key((String) f[0]));
          value(g, f[1]);
        }
      }
      g.writeArrayFieldStart("notes");
      for (String n : notes) {
        g.writeString(n);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return w.toString();
  }

  private static String key(String header) {
    return header.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
  }

  private static void value(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof Long || v instanceof Integer) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof Double) {
      g.writeNumber((Double) v);
    } else if (v instanceof Boolean) {
      g.writeBoolean((Boolean) v);
    } else if (v instanceof List) {
      g.writeStartArray();
      for (Object o : (List<?>) v) {
        value(g, o);
      }
      g.writeEndArray();
    } else {
      g.writeString(String.valueOf(v));
    }
  }
}
