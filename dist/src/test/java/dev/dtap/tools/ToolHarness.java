package dev.dtap.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/** Runs the dtap tool in this JVM as {@code hadoop jar} would, capturing what it prints. */
final class ToolHarness {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** Runs one command through ToolRunner (generic options applied) and returns its exit code. */
  int run(Configuration conf, String... args) throws Exception {
    out.reset();
    err.reset();
    return ToolRunner.run(new Configuration(conf), new DtapTool(stream(out), stream(err)), args);
  }

  private static PrintStream stream(ByteArrayOutputStream b) throws UnsupportedEncodingException {
    return new PrintStream(b, true, "UTF-8");
  }

  String out() {
    return new String(out.toByteArray(), StandardCharsets.UTF_8);
  }

  String err() {
    return new String(err.toByteArray(), StandardCharsets.UTF_8);
  }

  /** The standard output parsed as the JSON of a {@code --json} run. */
  JsonNode json() throws IOException {
    return new ObjectMapper().readTree(out());
  }
}
