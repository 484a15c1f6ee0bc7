package dev.dtap.fs;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;

/**
 * Rewrites exceptions thrown by a tap's backend so that they speak {@code dtap://tap/...} and never
 * show the backend's URI: the bucket, the NameNode or the local directory behind a tap is the
 * operator's business, not the job's.
 *
 * <p>An exception that mentions no backend location is returned unchanged. Otherwise a copy of the
 * same class is made with the rewritten message (or, when the class cannot be rebuilt, of the
 * nearest standard ancestor: {@link FileNotFoundException}, {@link EOFException}, ...), carrying
 * the original stack trace and a rewritten cause chain. Thread-safe.
 */
final class ExceptionTranslator {
  private static final int MAX_CAUSE_DEPTH = 8;
  private static final List<Class<? extends IOException>> FALLBACKS =
      Arrays.asList(
          FileNotFoundException.class,
          FileAlreadyExistsException.class,
          ParentNotDirectoryException.class,
          EOFException.class,
          AccessControlException.class,
          InterruptedIOException.class);

  private final String tap;
  private final Runnable onFailure;
  private final BackendNames names;

  /** A translator hiding the servers the root itself names (an HDFS root's NameNode). */
  ExceptionTranslator(String tap, URI backendRoot) {
    this(tap, backendRoot, BackendAddresses.of(backendRoot, new Configuration(false)), () -> {});
  }

  /**
   * A translator that also hides the backend's servers and reports each backend failure it sees.
   *
   * @param addresses {@code host} or {@code host:port} of the servers behind the tap (NameNodes,
   *     the store's endpoint; see {@link BackendAddresses}), hidden wherever a message names them
   * @param onFailure run once per translated exception other than {@link FileNotFoundException}
   */
  ExceptionTranslator(
      String tap, URI backendRoot, Collection<String> addresses, Runnable onFailure) {
    this.tap = tap;
    this.onFailure = onFailure;
    this.names = new BackendNames(tap, backendRoot, addresses);
  }

  /**
   * Rewrites one message.
   *
   * @param message a backend message, may be null
   * @return the message speaking dtap, or the same instance when nothing needed rewriting
   */
  String translate(String message) {
    return names.translate(message);
  }

  /**
   * Rewrites an exception and its causes.
   *
   * @param e thrown by the backend
   * @return {@code e} itself when it shows no backend location, else a rewritten copy
   */
  IOException translate(IOException e) {
    if (!(e instanceof FileNotFoundException)) {
      onFailure.run();
    }
    return rewrite(e);
  }

  /**
   * Rewrites an exception and its causes without reporting it as a backend failure: for errors an
   * extension lets out, which it counts itself.
   *
   * @param e thrown by the backend or an extension's store client
   * @return {@code e} itself when it shows no backend location, else a rewritten copy
   */
  IOException rewrite(IOException e) {
    // a first walk only reads: an exception that shows nothing is passed on as it is, even one
    // whose chain leads back to itself (which the rewriting walk cuts, and so would copy)
    Survey survey = new Survey();
    survey(e, 0, survey);
    if (!survey.showsBackend) {
      return e;
    }
    return (IOException) translate(e, 0, new Seen(survey.unresolved));
  }

  /** What the first walk over an exception, its causes and what they suppressed found. */
  private static final class Survey {
    final Set<Throwable> visited = Collections.newSetFromMap(new IdentityHashMap<>());
    final Set<String> unresolved = new HashSet<>();
    boolean showsBackend;
  }

  /**
   * Finds whether anything names the backend, or goes deeper than is kept (a copy is cut there, so
   * what lies below cannot leak), and which servers of the tap could not be resolved.
   */
  private void survey(Throwable e, int depth, Survey survey) {
    if (e == null || !survey.visited.add(e)) {
      return;
    }
    if (depth > MAX_CAUSE_DEPTH) {
      survey.showsBackend = true;
      return;
    }
    String message = e.getMessage();
    String unresolved = e instanceof UnknownHostException ? names.unresolvedServer(message) : null;
    if (unresolved != null) {
      survey.unresolved.add(unresolved);
      survey.showsBackend = true;
    }
    // once something shows the backend, only unresolved servers are still looked for
    if (!survey.showsBackend && names.shows(message)) {
      survey.showsBackend = true;
    }
    if (e.getCause() != e) {
      survey(e.getCause(), depth + 1, survey);
    }
    for (Throwable s : e.getSuppressed()) {
      survey(s, depth + 1, survey);
    }
  }

  /**
   * Rewrites an exception of an operation on one path, and names that path when the message does
   * not: a stream's "Connection reset" says nothing of which file was being read, and a task log
   * full of them is useless without it. The class is kept: the named exception is a copy of the
   * same class with the original as its cause, and a class that cannot be rebuilt that way is
   * passed on unnamed, since callers act on the class (an interrupt, a checksum failure).
   *
   * @param e thrown by the backend
   * @param dtapPath the dtap path the operation was on
   * @return an exception of the same class, naming {@code dtapPath} where its class allows
   */
  IOException translate(IOException e, String dtapPath) {
    IOException t = translate(e);
    String message = t.getMessage();
    if (t instanceof PathIOException || names(message, dtapPath)) {
      return t;
    }
    Throwable named =
        construct(
            t.getClass(), dtapPath + ": " + (message == null ? t.getClass().getName() : message));
    if (named == null || named.getClass() != t.getClass()) {
      return t;
    }
    if (named.getCause() == null) {
      try {
        named.initCause(t);
      } catch (IllegalStateException | IllegalArgumentException ignored) {
        // the constructor set a cause already
      }
    }
    named.setStackTrace(t.getStackTrace());
    return (IOException) named;
  }

  /**
   * Whether a message names a path: as a whole path, not as the start of a longer one ({@code
   * dtap://t/a} is not named by {@code dtap://t/ab}); the root is written without its slash.
   */
  private static boolean names(String message, String dtapPath) {
    if (message == null) {
      return false;
    }
    String path =
        dtapPath.endsWith("/") && !dtapPath.endsWith("//")
            ? dtapPath.substring(0, dtapPath.length() - 1)
            : dtapPath;
    for (int at = message.indexOf(path); at >= 0; at = message.indexOf(path, at + 1)) {
      int end = at + path.length();
      if (end == message.length() || endsPath(message, end)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a path that stops at {@code end} of the message ends there (a sentence's full stop).
   */
  private static boolean endsPath(String message, int end) {
    char c = message.charAt(end);
    if (c == '.') {
      return end + 1 == message.length() || !isPathChar(message.charAt(end + 1));
    }
    return !isPathChar(c);
  }

  private static boolean isPathChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '/' || c == '.';
  }

  /**
   * The exceptions met while rewriting one: a cause or a suppressed exception may be shared, or
   * lead back to one on the way (A suppresses B, whose cause is A).
   */
  private static final class Seen {
    final Set<Throwable> inProgress = Collections.newSetFromMap(new IdentityHashMap<>());
    final Map<Throwable, Throwable> done = new IdentityHashMap<>();

    /** Servers an {@link UnknownHostException} of this failure could not resolve. */
    final Set<String> unresolved;

    Seen(Set<String> unresolved) {
      this.unresolved = unresolved;
    }
  }

  /** Null for what is dropped: past the depth limit, and the edge that closes a cycle. */
  private Throwable translate(Throwable e, int depth, Seen seen) {
    if (e == null || depth > MAX_CAUSE_DEPTH || seen.inProgress.contains(e)) {
      return null;
    }
    if (seen.done.containsKey(e)) {
      return seen.done.get(e);
    }
    seen.inProgress.add(e);
    Throwable result = rewriteOne(e, depth, seen);
    seen.inProgress.remove(e);
    seen.done.put(e, result);
    return result;
  }

  private Throwable rewriteOne(Throwable e, int depth, Seen seen) {
    String message = e.getMessage();
    String rewritten = names.translate(message, seen.unresolved);
    Throwable cause = e.getCause() == e ? null : e.getCause();
    Throwable newCause = translate(cause, depth + 1, seen);
    // what went wrong while handling the failure (a close, an abort) is part of what users see
    Throwable[] suppressed = e.getSuppressed();
    boolean suppressedChanged = false;
    for (int i = 0; i < suppressed.length; i++) {
      Throwable s = translate(suppressed[i], depth + 1, seen);
      suppressedChanged |= s != suppressed[i];
      suppressed[i] = s;
    }
    if (rewritten == message && newCause == cause && !suppressedChanged) {
      return e;
    }
    Throwable copy = copy(e, rewritten);
    if (newCause != null && copy.getCause() == null) {
      try {
        copy.initCause(newCause);
      } catch (IllegalStateException | IllegalArgumentException ignored) {
        // the constructor fixed the cause already; keep it
      }
    }
    for (Throwable s : suppressed) {
      if (s != null && s != copy) {
        copy.addSuppressed(s);
      }
    }
    copy.setStackTrace(e.getStackTrace());
    return copy;
  }

  private Throwable copy(Throwable e, String message) {
    if (e instanceof RemoteException) {
      return new RemoteException(((RemoteException) e).getClassName(), message);
    }
    if (e instanceof PathIOException) {
      return copyPathException((PathIOException) e, message);
    }
    if (!(e instanceof IOException)) {
      // Only the message matters for a foreign runtime cause; its type is not part of our API.
      return new IOException(e.getClass().getSimpleName() + ": " + message);
    }
    Throwable same = construct(e.getClass(), message);
    if (same != null) {
      return same;
    }
    for (Class<? extends IOException> type : FALLBACKS) {
      if (type.isInstance(e)) {
        return construct(type, message);
      }
    }
    if (e instanceof AccessDeniedException) {
      return new AccessDeniedException(message);
    }
    return new IOException(message);
  }

  private Throwable copyPathException(PathIOException e, String message) {
    String path = translate(String.valueOf(e.getPath()));
    Throwable same = construct(e.getClass(), path);
    if (same instanceof PathIOException) {
      PathIOException p = (PathIOException) same;
      if (e.getTargetPath() != null) {
        p.setTargetPath(translate(e.getTargetPath().toString()));
      }
      if (message.equals(p.getMessage())) {
        return p;
      }
    }
    String prefix = "`" + path + "': ";
    String error = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    return new PathIOException(path, error);
  }

  private static Throwable construct(Class<?> type, String message) {
    if (Modifier.isAbstract(type.getModifiers())) {
      return null;
    }
    try {
      Constructor<?> ctor = type.getConstructor(String.class);
      return (Throwable) ctor.newInstance(message);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "ExceptionTranslator{tap=" + tap + "}";
  }
}
