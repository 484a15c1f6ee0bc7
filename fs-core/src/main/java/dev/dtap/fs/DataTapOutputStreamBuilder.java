package dev.dtap.fs;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * {@code createFile()}/{@code appendFile()} on a tap. {@link #build()} hands every setting,
 * optional and mandatory option to the backend's own builder, so options such as S3A's {@code
 * fs.s3a.create.performance} reach the store.
 *
 * <p>Not thread-safe, like every builder.
 */
final class DataTapOutputStreamBuilder
    extends FSDataOutputStreamBuilder<FSDataOutputStream, DataTapOutputStreamBuilder> {
  private final DataTapFileSystem fs;

  DataTapOutputStreamBuilder(DataTapFileSystem fs, Path path) {
    super(fs, path);
    this.fs = fs;
  }

  @Override
  public DataTapOutputStreamBuilder getThisBuilder() {
    return this;
  }

  @Override
  public FSDataOutputStream build() throws IOException {
    return fs.buildOutput(getPath(), this);
  }

  /** Copies this builder's settings onto the backend's builder. */
  <S extends FSDataOutputStream, B extends FSDataOutputStreamBuilder<S, B>> B copyTo(B target) {
    EnumSet<CreateFlag> flags = getFlags();
    if (flags.contains(CreateFlag.CREATE)) {
      target.create();
    }
    // The backend's createFile() builder starts with overwrite on; say exactly what was asked.
    target.overwrite(flags.contains(CreateFlag.OVERWRITE));
    if (flags.contains(CreateFlag.APPEND)) {
      target.append();
    }
    FsPermission permission = getPermission();
    if (permission != null) {
      target.permission(permission);
    }
    target.bufferSize(getBufferSize());
    target.replication(getReplication());
    target.blockSize(getBlockSize());
    if (isRecursive()) {
      target.recursive();
    }
    Progressable progress = getProgress();
    if (progress != null) {
      target.progress(progress);
    }
    if (getChecksumOpt() != null) {
      target.checksumOpt(getChecksumOpt());
    }
    for (java.util.Map.Entry<String, String> e : getOptions()) {
      if (getMandatoryKeys().contains(e.getKey())) {
        target.must(e.getKey(), e.getValue());
      } else {
        target.opt(e.getKey(), e.getValue());
      }
    }
    return target;
  }

  /**
   * @return whether the builder appends rather than creates
   */
  boolean isAppend() {
    return getFlags().contains(CreateFlag.APPEND);
  }

  /**
   * @return whether overwriting an existing file is allowed
   */
  boolean isOverwrite() {
    return getFlags().contains(CreateFlag.OVERWRITE);
  }
}
