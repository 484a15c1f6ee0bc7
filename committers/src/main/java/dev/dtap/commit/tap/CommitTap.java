package dev.dtap.commit.tap;

import dev.dtap.commit.config.CommitterConfig;
import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.MagicPaths;
import dev.dtap.commit.store.KeyNames;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.MultipartStoreFactory;
import dev.dtap.fs.spi.OutputHook;
import dev.dtap.fs.spi.TapContext;
import dev.dtap.fs.spi.TapExtensions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;

/**
 * The committers' part of one tap, created by fs-core for every tap through the committers' output
 * hook factory and found by committers through {@link TapExtensions}: the tap's multipart store
 * (created on first use, closed with the tap), the magic files this JVM's streams wrote ({@link
 * AttemptFiles}), and the translation between dtap paths and store keys.
 *
 * <p>As the tap's output hook it streams files created under {@code __magic_job-*} paths to
 * uncompleted uploads at their final keys (see {@link MagicPaths}); on taps without a multipart
 * store such paths are ordinary. Thread-safe.
 */
public final class CommitTap implements OutputHook {
  private static final long BLOCK_SIZE = 32L << 20;

  private final TapContext tap;
  private final CommitterConfig config;
  private final MultipartStoreFactory factory;
  private final KeyNames names;
  private final AttemptFiles attempts = new AttemptFiles();
  private final UploadPool uploads = new UploadPool();
  private final CommitSteps steps = new CommitSteps();

  /**
   * Whether magic streams record each closed file on the store: only when filesystems are not
   * shared through Hadoop's cache, so that task commit may run in another instance than the
   * writer's (one more request per file).
   */
  private final boolean recordClose;

  private volatile MultipartStore store;
  private boolean closed;
  private final CommitterMetrics metrics;

  /**
   * @param tap the tap
   * @param config the committer settings of the tap's filesystem (they shape the store)
   * @param factories the store factories on the class path; the first that serves the tap is used
   */
  public CommitTap(TapContext tap, CommitterConfig config, List<MultipartStoreFactory> factories) {
    this.tap = tap;
    this.config = config;
    this.names = new KeyNames(tap);
    this.recordClose = tap.siteConfiguration().getBoolean("fs.dtap.impl.disable.cache", false);
    MultipartStoreFactory serving = null;
    for (MultipartStoreFactory f : factories) {
      if (f.serves(tap)) {
        serving = f;
        break;
      }
    }
    this.factory = serving;
    this.metrics =
        new CommitterMetrics(
            () -> {
              MultipartStore s = store;
              return s == null ? null : s.statistics();
            });
    tap.addStatisticsSource(metrics);
  }

  /**
   * @return the committers' counters of this tap
   */
  public CommitterMetrics metrics() {
    return metrics;
  }

  /**
   * @return every store factory registered in this class loader
   */
  public static List<MultipartStoreFactory> storeFactories() {
    List<MultipartStoreFactory> found = new ArrayList<>();
    for (MultipartStoreFactory f :
        ServiceLoader.load(MultipartStoreFactory.class, CommitTap.class.getClassLoader())) {
      found.add(f);
    }
    return found;
  }

  /**
   * The committers' part of the tap a filesystem serves.
   *
   * @param fs the destination's filesystem
   * @param what who asks, for the message
   * @return the tap's commit support
   * @throws IOException if the filesystem is not a dtap filesystem with the committers module
   */
  public static CommitTap of(FileSystem fs, String what) throws IOException {
    Optional<CommitTap> t = TapExtensions.find(fs, CommitTap.class);
    if (!t.isPresent()) {
      throw new IOException(
          what
              + " works on dtap:// destinations whose filesystem has the dtap committers module"
              + " (the dtap-hadoop jar), not "
              + fs.getUri().getScheme()
              + "://");
    }
    return t.get();
  }

  /**
   * @return whether the tap's backend has a multipart store (S3)
   */
  public boolean served() {
    return factory != null;
  }

  /**
   * @return the tap's name
   */
  public String name() {
    return tap.config().name();
  }

  public KeyNames names() {
    return names;
  }

  public AttemptFiles attempts() {
    return attempts;
  }

  /**
   * The tap's store, for a committer that needs one.
   *
   * @param committer the committer's name, for messages
   * @return the store, created on first use
   * @throws AccessControlException if the tap is read-only
   * @throws IOException if the tap's backend has no multipart store, or its settings cannot be
   *     honoured
   */
  public MultipartStore store(String committer) throws IOException {
    if (tap.config().readOnly()) {
      throw new AccessControlException(
          "Cannot commit output to tap '" + name() + "': the tap is read-only");
    }
    if (factory == null) {
      throw new IOException(
          "The "
              + committer
              + " committer needs a backend with multipart uploads (S3), but tap '"
              + name()
              + "' is "
              + tap.config().root().getScheme()
              + "://; use "
              + CommitterKeys.NAME.name()
              + "=file");
    }
    synchronized (this) {
      if (closed) {
        throw new IOException("The filesystem of tap '" + name() + "' is closed");
      }
      if (store == null) {
        try {
          store =
              new BackendHidingStore(factory.create(tap, config.storeOptions()), tap::hideBackend);
        } catch (IOException e) {
          // a setting the store refuses may quote the endpoint
          throw tap.hideBackend(e);
        }
      }
      return store;
    }
  }

  /**
   * The store key of a dtap path of this tap.
   *
   * @param dtapPath a qualified path
   * @return the key, "" for the bucket root
   * @throws IOException if the path leaves the tap
   */
  public String key(Path dtapPath) throws IOException {
    String p = tap.toBackend(dtapPath).toUri().getPath();
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  // ---- the output hook

  @Override
  public boolean handles(Path dtapPath) {
    return factory != null && MagicPaths.isMagic(dtapPath);
  }

  @Override
  public FSDataOutputStream create(Path dtapPath, boolean overwrite) throws IOException {
    MagicPaths.MagicFile f =
        MagicPaths.parse(dtapPath)
            .orElseThrow(
                () ->
                    new IOException(
                        "Cannot create "
                            + dtapPath
                            + ": under a magic committer directory a file must be inside a task"
                            + " attempt's directory"
                            + " (<dest>/__magic_job-<uuid>/<attempt>/__base/...)"));
    MultipartStore s = store("magic");
    JobLayout layout = new JobLayout(key(f.dest), f.uuid);
    String attemptKey = AttemptFiles.key(layout, f.attempt);
    String magicPath = dtapPath.toUri().getPath();
    if (!overwrite && attempts.status(attemptKey, magicPath) != null) {
      throw new FileAlreadyExistsException(dtapPath + " already exists");
    }
    MagicOutputStream out =
        new MagicOutputStream(
            s,
            layout,
            key(f.finalPath()),
            f.attempt,
            attempts,
            magicPath,
            (int) config.partSize(),
            config.activeParts(),
            uploads.executor(config.threads()),
            recordClose,
            steps);
    return new FSDataOutputStream(out, null);
  }

  @Override
  public FileStatus getFileStatus(Path dtapPath) throws IOException {
    Optional<MagicPaths.MagicFile> parsed = MagicPaths.parse(dtapPath);
    if (!parsed.isPresent()) {
      // the magic directories themselves: virtual, always there
      return directory(dtapPath);
    }
    MagicPaths.MagicFile f = parsed.get();
    String attemptKey = AttemptFiles.key(new JobLayout(key(f.dest), f.uuid), f.attempt);
    String magicPath = dtapPath.toUri().getPath();
    long[] s = attempts.status(attemptKey, magicPath);
    if (s != null) {
      return new FileStatus(s[0], false, 1, BLOCK_SIZE, s[1], dtapPath);
    }
    if (attempts.hasFilesUnder(attemptKey, magicPath)) {
      return directory(dtapPath);
    }
    return null;
  }

  private static FileStatus directory(Path p) {
    return new FileStatus(0, true, 1, 0, System.currentTimeMillis(), p);
  }

  @Override
  public void close() throws IOException {
    MultipartStore s;
    synchronized (this) {
      closed = true;
      s = store;
      store = null;
    }
    uploads.shutdown();
    if (s != null) {
      s.close();
    }
  }

  /**
   * @return the named points of job commit on this tap, where tests inject failures
   */
  public CommitSteps steps() {
    return steps;
  }

  /**
   * @param threads the threads the asking committer's configuration wants
   * @return the tap's upload threads, grown to at least that many
   */
  public Executor uploads(int threads) {
    return uploads.executor(threads);
  }

  @Override
  public String toString() {
    return "CommitTap{" + name() + (factory == null ? ", no multipart store" : "") + "}";
  }
}
