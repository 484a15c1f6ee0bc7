package dev.dtap.fs.testing;

import java.io.StringWriter;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;

/**
 * Captures everything logged through log4j (Hadoop's and dtap's logging, via SLF4J) while open, at
 * every level, with stack traces.
 *
 * <p>Not thread-safe to open concurrently; the captured text is.
 */
public final class LogCapture implements AutoCloseable {
  private final StringWriter out = new StringWriter();
  private final WriterAppender appender;
  private final Level previous;

  private LogCapture() {
    appender = new WriterAppender(new PatternLayout("%p %c - %m%n"), out);
    appender.setThreshold(Level.ALL);
    Logger root = Logger.getRootLogger();
    previous = Logger.getLogger("dev.dtap").getLevel();
    Logger.getLogger("dev.dtap").setLevel(Level.ALL);
    root.addAppender(appender);
  }

  /**
   * @return a capture that runs until closed
   */
  public static LogCapture start() {
    return new LogCapture();
  }

  /**
   * @return everything captured so far
   */
  public String text() {
    synchronized (out) {
      return out.toString();
    }
  }

  @Override
  public void close() {
    Logger.getRootLogger().removeAppender(appender);
    Logger.getLogger("dev.dtap").setLevel(previous);
  }
}
