package dev.dtap.fs;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  /** Schemes whose messages name objects by key, without a leading slash. */
  private static final List<String> OBJECT_STORES = Arrays.asList("s3a", "s3", "s3n", "gs", "oss");

  /**
   * The address a host resolved to, as Java prints it after the name ({@code minio/172.18.0.2}):
   * exactly four numbers, so that a path segment ({@code minio/2024/x}) is not taken for one.
   */
  private static final String IPV4 = "\\d{1,3}(?:\\.\\d{1,3}){3}";

  private final String tap;
  private final Runnable onFailure;
  private final Pattern rootPattern;
  private final Pattern backendPattern;
  private final Pattern addressPattern;

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
    String scheme =
        BackendAddresses.S3_SCHEMES.contains(backendRoot.getScheme())
            ? "(?:s3a|s3n|s3)"
            : Pattern.quote(backendRoot.getScheme());
    String authority = backendRoot.getAuthority() == null ? "" : backendRoot.getAuthority();
    String rootPath = backendRoot.getPath() == null ? "" : backendRoot.getPath();
    if (rootPath.equals("/")) {
      rootPath = "";
    }
    String container = containerPattern(scheme, authority, backendRoot, addresses);
    String qRoot = Pattern.quote(rootPath);
    // container/root, scheme:/root (local form), and for non-trivial roots the bare path
    StringBuilder alt = new StringBuilder();
    alt.append(container).append(qRoot);
    if (authority.isEmpty()) {
      alt.append('|').append(scheme).append(':').append(qRoot.isEmpty() ? "(?=/)" : qRoot);
    }
    if (!rootPath.isEmpty()) {
      alt.append("|(?<![\\w/.:-])").append(qRoot);
      if (OBJECT_STORES.contains(backendRoot.getScheme())) {
        // S3A names objects by key ("Completing multipart upload on data/part-0"): no leading slash
        alt.append("|(?<![\\w/.:-])")
            .append(Pattern.quote(rootPath.startsWith("/") ? rootPath.substring(1) : rootPath));
      }
    }
    // the root ends at a slash, the message's end, a quote or punctuation, or a sentence's full
    // stop (but warehouse.old is another directory)
    this.rootPattern = Pattern.compile("(?:" + alt + ")(?=/|$|[\\s'\"`),;:?\\]]|\\.(?![\\w-]))");
    this.backendPattern =
        Pattern.compile(
            container
                // the whole authority: s3a://data is not s3a://data-archive nor s3a://data.old,
                // while a sentence may end right after it ("... in s3a://data.")
                + (authority.isEmpty() ? "(/)" : "(?![\\w-]|\\.[\\w-])(/?)"));
    this.addressPattern = addressPattern(addresses);
  }

  /**
   * The ways a message names the root's container: {@code scheme://authority}, and for an S3 bucket
   * its ARN, its virtual-host and path-style URLs on AWS and on the tap's own endpoint.
   */
  private static String containerPattern(
      String scheme, String authority, URI root, Collection<String> addresses) {
    String qAuthority = Pattern.quote(authority);
    StringBuilder p = new StringBuilder("(?:").append(scheme).append("://").append(qAuthority);
    if (BackendAddresses.HDFS_SCHEMES.contains(root.getScheme())) {
      // a NameNode named by its host (an HA nameservice's, or with another port, or WebHDFS's)
      for (String address : addresses) {
        if (host(address).isEmpty()) {
          continue;
        }
        p.append("|(?:hdfs|webhdfs|swebhdfs)://")
            .append(Pattern.quote(host(address)))
            .append("(?::\\d+)?");
      }
    }
    if (BackendAddresses.S3_SCHEMES.contains(root.getScheme()) && !authority.isEmpty()) {
      String port = "(?::\\d+)?";
      String aws = "s3[\\w.-]*\\.amazonaws\\.com(?:\\.cn)?" + port;
      p.append("|arn:aws[\\w-]*:s3:::").append(qAuthority);
      p.append("|(?<![\\w.-])(?:https?://)?").append(qAuthority).append("\\.").append(aws);
      p.append("|(?<![\\w.-])(?:https?://)?").append(aws).append('/').append(qAuthority);
      for (String address : addresses) {
        if (host(address).isEmpty()) {
          continue;
        }
        String host = Pattern.quote(host(address)) + port;
        p.append("|(?<![\\w.-])(?:https?://)?").append(qAuthority).append("\\.").append(host);
        p.append("|(?<![\\w.-])(?:https?://)?").append(host).append('/').append(qAuthority);
      }
    }
    return p.append(')').toString();
  }

  /**
   * A server named on its own, as clients do in connection errors ({@code Call From h/10.0.0.1 to
   * nn.example.com:8020 failed}, {@code Connect to minio.internal:9000 [minio.internal/10.0.0.5]
   * failed}): with any port and the address it resolved to. A host without a dot ({@code nn},
   * {@code localhost}) is taken only with a port, since it may be a word of the message.
   */
  private static Pattern addressPattern(Collection<String> addresses) {
    StringBuilder p = new StringBuilder();
    for (String address : addresses) {
      String host = host(address);
      if (host.isEmpty()) {
        continue;
      }
      String q = Pattern.quote(host);
      p.append(p.length() == 0 ? "" : "|").append("(?<![\\w.-])(?:https?://)?").append(q);
      if (host.contains(".") || host.startsWith("[")) {
        p.append("(?:/" + IPV4 + ")?(?::\\d+)?(?![\\w-]|\\.[\\w-])");
      } else {
        // with a port, with the address it resolved to (Apache's "[minio/172.18.0.2]"), or as
        // Hadoop's RPC client quotes it: destination host is: "nn":8020
        p.append("(?:(?:/" + IPV4 + ")?:\\d+(?!\\w)|/" + IPV4 + "(?![\\w.-])|(?=\"\\s*:\\s*\\d))");
      }
    }
    return p.length() == 0 ? null : Pattern.compile(p.toString(), Pattern.CASE_INSENSITIVE);
  }

  /** The host of {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port}. */
  private static String host(String address) {
    int bracket = address.lastIndexOf(']');
    int colon = address.lastIndexOf(':');
    return colon <= bracket ? address : address.substring(0, colon);
  }

  /**
   * Rewrites one message.
   *
   * @param message a backend message, may be null
   * @return the message speaking dtap, or the same instance when nothing needed rewriting
   */
  String translate(String message) {
    if (message == null) {
      return null;
    }
    Matcher m = rootPattern.matcher(message);
    String out = m.find() ? m.replaceAll(Matcher.quoteReplacement("dtap://" + tap)) : message;
    Matcher rest = backendPattern.matcher(out);
    if (rest.find()) {
      // the slash stays where there was one: "s3a://data/other" reads "[backend of tap 'x']/other"
      out = rest.replaceAll(Matcher.quoteReplacement("[backend of tap '" + tap + "']") + "$1");
    }
    if (addressPattern != null) {
      Matcher server = addressPattern.matcher(out);
      if (server.find()) {
        // a server, not a location in the tap: "[server of tap 'x']/other-bucket/k" is no path of x
        out = server.replaceAll(Matcher.quoteReplacement("[server of tap '" + tap + "']"));
      }
    }
    return out;
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
    return (IOException) translate(e, 0);
  }

  /**
   * Rewrites an exception of an operation on one path, and names that path when the message does
   * not: a stream's "Connection reset" says nothing of which file was being read, and a task log
   * full of them is useless without it. The class is kept (a copy of the same class, as above), the
   * original becomes the cause.
   *
   * @param e thrown by the backend
   * @param dtapPath the dtap path the operation was on
   * @return an exception of the same class whose message names {@code dtapPath}
   */
  IOException translate(IOException e, String dtapPath) {
    IOException t = translate(e);
    String message = t.getMessage();
    if (t instanceof PathIOException || (message != null && message.contains(dtapPath))) {
      return t;
    }
    Throwable named =
        copy(t, dtapPath + ": " + (message == null ? t.getClass().getName() : message));
    if (named.getCause() == null) {
      try {
        named.initCause(t);
      } catch (IllegalStateException | IllegalArgumentException ignored) {
        // the constructor set a cause already
      }
    }
    named.setStackTrace(t.getStackTrace());
    return named instanceof IOException ? (IOException) named : t;
  }

  private Throwable translate(Throwable e, int depth) {
    return translate(e, depth, new Seen());
  }

  /**
   * The exceptions met while rewriting one: a cause or a suppressed exception may be shared, or
   * lead back to one on the way (A suppresses B, whose cause is A).
   */
  private static final class Seen {
    final Set<Throwable> inProgress = Collections.newSetFromMap(new IdentityHashMap<>());
    final Map<Throwable, Throwable> done = new IdentityHashMap<>();
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
    String rewritten = translate(message);
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
