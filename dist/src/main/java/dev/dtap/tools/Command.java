package dev.dtap.tools;

/**
 * One command of the {@code dtap} tool, such as {@code doctor} or {@code cache ls}. Implementations
 * are stateless; each run gets its own {@link Invocation}.
 */
interface Command {
  /**
   * @return the words that select it, e.g. {@code cache ls}
   */
  String name();

  /**
   * @return its arguments as in a synopsis, e.g. {@code [--json] <dtap path>}
   */
  String arguments();

  /**
   * @return one line for the list of commands
   */
  String summary();

  /**
   * @return the flags it accepts besides {@code --help}, e.g. {@code --json}
   */
  default java.util.Set<String> flags() {
    return java.util.Collections.emptySet();
  }

  /**
   * @return the options taking a value that it accepts, e.g. {@code --timeout}
   */
  default java.util.Set<String> options() {
    return java.util.Collections.emptySet();
  }

  /**
   * @return more lines of help after the synopsis; may be empty
   */
  default String details() {
    return "";
  }

  /**
   * Runs the command.
   *
   * @param in its arguments, configuration and output streams
   * @return the exit code: 0 ok, 1 a problem found
   * @throws UsageException if the arguments are wrong (exit code 2)
   * @throws Exception on a failure, reported as a problem (exit code 1)
   */
  int run(Invocation in) throws Exception;
}
