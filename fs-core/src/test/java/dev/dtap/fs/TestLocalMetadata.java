package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A tap over Hadoop's local filesystem reads statuses and listings itself, with one stat per entry;
 * what it returns must be what the backend returns, field by field. The reference is a second tap
 * over the same directory whose backend is a subclass of Hadoop's local filesystem, which the fast
 * path leaves alone.
 */
class TestLocalMetadata {
  /** Hadoop's local filesystem under another name: the tap must ask it for everything. */
  public static final class OtherLocalFileSystem extends LocalFileSystem {}

  /** The raw local filesystem under another name. */
  public static final class OtherRawLocalFileSystem extends RawLocalFileSystem {}

  private static final String[] NAMES = {
    "plain",
    "with space",
    "per%cent",
    "colon:name",
    "hash#name",
    "plus+name",
    "ünïcødé-文件",
    ".hidden",
    ".part-0.crc",
    "part-0",
    "q?mark",
    "amp&and=eq"
  };

  private File root;
  private final List<FileSystem> opened = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    root = LocalTaps.newDir("localmeta");
    for (String name : NAMES) {
      Files.write(new File(root, name).toPath(), name.getBytes(StandardCharsets.UTF_8));
    }
    File dir = new File(root, "dir with files");
    assertThat(dir.mkdirs()).isTrue();
    Files.write(new File(dir, "inner").toPath(), new byte[12345]);
    File secret = new File(root, "private");
    Files.write(secret.toPath(), new byte[3]);
    Files.setPosixFilePermissions(secret.toPath(), PosixFilePermissions.fromString("rw-------"));
    File sticky = new File(root, "sticky");
    assertThat(sticky.mkdir()).isTrue();
    assertThat(new ProcessBuilder("chmod", "1777", sticky.getPath()).start().waitFor()).isZero();
    assertThat(new File(root, "empty").mkdir()).isTrue();
    Files.createSymbolicLink(
        new File(root, "link-to-file").toPath(), new File(root, "plain").toPath());
    Files.createSymbolicLink(new File(root, "link-to-dir").toPath(), dir.toPath());
    Files.createSymbolicLink(
        new File(root, "dangling").toPath(), new File(root, "nowhere").toPath());
  }

  @AfterEach
  void tearDown() throws IOException {
    for (FileSystem fs : opened) {
      fs.close();
    }
  }

  private FileSystem tap(String name, Class<?> fileImpl) throws IOException {
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), name, root);
    if (fileImpl != null) {
      conf.set("fs.dtap.tap." + name + ".conf.fs.file.impl", fileImpl.getName());
      conf.setBoolean("fs.dtap.tap." + name + ".conf.fs.file.impl.disable.cache", true);
    }
    FileSystem fs = LocalTaps.open(conf, name);
    opened.add(fs);
    return fs;
  }

  @Test
  void onlyHadoopsOwnLocalFileSystemsAreReadDirectly() throws IOException {
    Configuration conf = new Configuration();
    Path rootPath = new Path(root.toURI());
    try (FileSystem checksummed = new LocalFileSystem();
        FileSystem raw = new RawLocalFileSystem();
        FileSystem other = new OtherLocalFileSystem();
        FileSystem otherRaw = new OtherRawLocalFileSystem()) {
      for (FileSystem fs : new FileSystem[] {checksummed, raw, other, otherRaw}) {
        fs.initialize(root.toURI(), conf);
      }
      assertThat(LocalMetadata.forBackend(checksummed, rootPath)).isNotNull();
      assertThat(LocalMetadata.forBackend(raw, rootPath)).isNotNull();
      assertThat(LocalMetadata.forBackend(other, rootPath)).isNull();
      assertThat(LocalMetadata.forBackend(otherRaw, rootPath)).isNull();
    }
  }

  @Test
  void statusesMatchTheBackendsOnEveryEntry() throws IOException {
    compareStatuses(OtherLocalFileSystem.class, null);
  }

  @Test
  void statusesMatchTheRawBackendsOnEveryEntry() throws IOException {
    compareStatuses(OtherRawLocalFileSystem.class, RawLocalFileSystem.class);
  }

  private void compareStatuses(Class<?> referenceImpl, Class<?> fastImpl) throws IOException {
    FileSystem fast = tap("fast", fastImpl);
    FileSystem reference = tap("reference", referenceImpl);
    List<String> paths =
        new ArrayList<>(
            Arrays.asList(
                "/",
                "/dir with files",
                "/dir with files/inner",
                "/private",
                "/sticky",
                "/empty",
                "/link-to-file",
                "/link-to-dir",
                "/link-to-dir/inner"));
    for (String name : NAMES) {
      paths.add("/" + name);
    }
    for (String p : paths) {
      FileStatus fastStatus = fast.getFileStatus(new Path("dtap://fast" + p));
      FileStatus referenceStatus = reference.getFileStatus(new Path("dtap://reference" + p));
      assertReadDirectly(fastStatus, true, p);
      assertReadDirectly(referenceStatus, false, p);
      assertSame(fastStatus, referenceStatus, p);
    }
    for (String dir :
        new String[] {"/", "/dir with files", "/empty", "/link-to-dir", "/plain", "/.part-0.crc"}) {
      FileStatus[] a = sorted(fast.listStatus(new Path("dtap://fast" + dir)));
      FileStatus[] b = sorted(reference.listStatus(new Path("dtap://reference" + dir)));
      assertThat(a).as(dir).hasSameSizeAs(b);
      for (int i = 0; i < a.length; i++) {
        assertReadDirectly(a[i], true, dir + " entry " + i);
        assertReadDirectly(b[i], false, dir + " entry " + i);
        assertSame(a[i], b[i], dir + " entry " + i);
      }
    }
  }

  @Test
  void theChecksummedBackendHidesChecksumFilesAndTheRawOneDoesNot() throws IOException {
    FileSystem checksummed = tap("fast", null);
    FileSystem raw = tap("raw", RawLocalFileSystem.class);
    assertThat(names(checksummed.listStatus(new Path("dtap://fast/"))))
        .contains("part-0", ".hidden")
        .doesNotContain(".part-0.crc", "dangling");
    assertThat(names(raw.listStatus(new Path("dtap://raw/")))).contains(".part-0.crc");
  }

  @Test
  void missingAndImpossiblePathsFailAsTheBackendFails() throws IOException {
    FileSystem fast = tap("fast", null);
    FileSystem reference = tap("reference", OtherLocalFileSystem.class);
    for (String p : new String[] {"/nowhere", "/plain/under-a-file", "/dangling", "/empty/x/y"}) {
      assertThatThrownBy(() -> fast.getFileStatus(new Path("dtap://fast" + p)), p)
          .isInstanceOf(FileNotFoundException.class)
          .hasMessage(
              message(() -> reference.getFileStatus(new Path("dtap://reference" + p)))
                  .replace("dtap://reference", "dtap://fast"))
          .hasMessageNotContaining(root.getPath());
      assertThatThrownBy(() -> fast.listStatus(new Path("dtap://fast" + p)), p)
          .isInstanceOf(FileNotFoundException.class)
          .hasMessage(
              message(() -> reference.listStatus(new Path("dtap://reference" + p)))
                  .replace("dtap://reference", "dtap://fast"))
          .hasMessageNotContaining(root.getPath());
    }
  }

  @Test
  void permissionOfAFileDeletedAfterItsStatusFailsInTheGetterAsHadoopsDoes() throws IOException {
    FileSystem fast = tap("fast", null);
    FileStatus status = fast.getFileStatus(new Path("dtap://fast/private"));
    Files.delete(new File(root, "private").toPath());
    assertThat(status.getLen()).isEqualTo(3);
    assertThatThrownBy(status::getPermission)
        .isInstanceOf(RuntimeException.class)
        .hasMessageContaining("private")
        .hasMessageNotContaining(root.getPath());
    Files.write(new File(root, "private").toPath(), new byte[3]);
    assertThat(status.getOwner()).as("a later call tries again").isNotEmpty();
  }

  @Test
  void hadoopsStatCommandModeSendsEveryCallToTheBackend() throws Throwable {
    VarHandle useDefault =
        MethodHandles.privateLookupIn(RawLocalFileSystem.class, MethodHandles.lookup())
            .findStaticVarHandle(
                RawLocalFileSystem.class, "useDeprecatedFileStatus", boolean.class);
    boolean before = (boolean) useDefault.get();
    FileSystem fast = tap("fast", null);
    try {
      RawLocalFileSystem.useStatIfAvailable();
      assertThat((boolean) useDefault.get()).as("this platform has Hadoop's stat mode").isFalse();
      FileStatus status = fast.getFileStatus(new Path("dtap://fast/plain"));
      assertThat(((BackendStatusHolder) status).backendStatus())
          .isNotInstanceOf(LocalFileStatus.class);
      assertThat(fast.listStatus(new Path("dtap://fast/dir with files")))
          .allSatisfy(
              s ->
                  assertThat(((BackendStatusHolder) s).backendStatus())
                      .isNotInstanceOf(LocalFileStatus.class));
    } finally {
      useDefault.set(before);
    }
  }

  private interface Call {
    Object call() throws IOException;
  }

  private static String message(Call c) {
    try {
      c.call();
    } catch (IOException e) {
      return e.getMessage();
    }
    throw new AssertionError("expected a failure");
  }

  private static FileStatus[] sorted(FileStatus[] statuses) {
    FileStatus[] copy = statuses.clone();
    Arrays.sort(copy, Comparator.comparing(s -> s.getPath().getName()));
    return copy;
  }

  private static List<String> names(FileStatus[] statuses) {
    List<String> names = new ArrayList<>();
    for (FileStatus s : statuses) {
      names.add(s.getPath().getName());
    }
    return names;
  }

  private static void assertReadDirectly(FileStatus status, boolean direct, String what) {
    FileStatus backend = ((BackendStatusHolder) status).backendStatus();
    assertThat(backend instanceof LocalFileStatus)
        .as(what + (direct ? " read with one stat" : " read by the backend"))
        .isEqualTo(direct);
  }

  /** Every field of a status a caller can read, by name. */
  private static final Map<String, Function<FileStatus, Object>> FIELDS = new LinkedHashMap<>();

  static {
    FIELDS.put("raw path", s -> s.getPath().toUri().getRawPath());
    FIELDS.put("length", FileStatus::getLen);
    FIELDS.put("directory", FileStatus::isDirectory);
    FIELDS.put("symlink", FileStatus::isSymlink);
    FIELDS.put("replication", FileStatus::getReplication);
    FIELDS.put("block size", FileStatus::getBlockSize);
    FIELDS.put("mtime", FileStatus::getModificationTime);
    FIELDS.put("atime", FileStatus::getAccessTime);
    FIELDS.put("permission", FileStatus::getPermission);
    FIELDS.put("owner", FileStatus::getOwner);
    FIELDS.put("group", FileStatus::getGroup);
    FIELDS.put("acl", FileStatus::hasAcl);
    FIELDS.put("encrypted", FileStatus::isEncrypted);
  }

  private static void assertSame(FileStatus fast, FileStatus reference, String what) {
    assertThat(fast.getPath().toString())
        .as(what + " path")
        .isEqualTo(reference.getPath().toString().replace("dtap://reference", "dtap://fast"));
    for (Map.Entry<String, Function<FileStatus, Object>> field : FIELDS.entrySet()) {
      assertThat(field.getValue().apply(fast))
          .as(what + " " + field.getKey())
          .isEqualTo(field.getValue().apply(reference));
    }
  }
}
