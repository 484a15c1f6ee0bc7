package dev.dtap.commit;

import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.TapStores;
import dev.dtap.fs.spi.OutputHook;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Streams files created under {@code __magic_job-*} paths of a tap with a multipart store to
 * uncompleted uploads at their final keys (see {@link MagicPaths}). On taps without a multipart
 * store it handles nothing and such paths are ordinary. Thread-safe.
 */
final class MagicOutputHook implements OutputHook {
  private static final long BLOCK_SIZE = 32L << 20;

  private final TapContext tap;
  private final CommitterConfig config;

  MagicOutputHook(TapContext tap, CommitterConfig config) {
    this.tap = tap;
    this.config = config;
  }

  @Override
  public boolean handles(Path dtapPath) {
    if (!MagicPaths.isMagic(dtapPath)) {
      return false;
    }
    try {
      return TapStores.served(tap);
    } catch (IOException e) {
      // invalid store settings: let the write fail where it is made, with the reason
      return true;
    }
  }

  private TapStore store() throws IOException {
    Optional<MultipartStore> s = TapStores.forTap(tap);
    if (!s.isPresent()) {
      throw new IOException("Tap '" + tap.config().name() + "' has no multipart store for magic paths");
    }
    return TapStore.of(tap, s.get());
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
                            + " attempt's directory (<dest>/__magic_job-<uuid>/<attempt>/__base/...)"));
    TapStore ts = store();
    JobLayout layout = new JobLayout(ts.key(f.dest), f.uuid);
    String attemptKey = UploadTracker.attemptKey(ts.store().describe(), layout, f.attempt);
    String magicPath = dtapPath.toUri().getPath();
    if (!overwrite && UploadTracker.INSTANCE.status(attemptKey, magicPath) != null) {
      throw new FileAlreadyExistsException(dtapPath + " already exists");
    }
    MagicOutputStream out =
        new MagicOutputStream(
            ts.store(),
            layout,
            ts.key(f.finalPath()),
            f.attempt,
            magicPath,
            (int) config.partSize(),
            config.activeParts(),
            Pools.uploads(config.threads()));
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
    TapStore ts = store();
    JobLayout layout = new JobLayout(ts.key(f.dest), f.uuid);
    String attemptKey = UploadTracker.attemptKey(ts.store().describe(), layout, f.attempt);
    String magicPath = dtapPath.toUri().getPath();
    long[] s = UploadTracker.INSTANCE.status(attemptKey, magicPath);
    if (s != null) {
      return new FileStatus(s[0], false, 1, BLOCK_SIZE, s[1], dtapPath);
    }
    if (UploadTracker.INSTANCE.hasFilesUnder(attemptKey, magicPath)) {
      return directory(dtapPath);
    }
    return null;
  }

  private static FileStatus directory(Path p) {
    return new FileStatus(0, true, 1, 0, System.currentTimeMillis(), p);
  }

  @Override
  public void close() throws IOException {
    TapStores.release(tap);
  }
}
