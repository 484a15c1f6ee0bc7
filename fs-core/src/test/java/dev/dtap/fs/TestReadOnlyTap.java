package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSBuilder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

/**
 * Every mutating method of Hadoop's {@link FileSystem}, found by reflection, fails on a read-only
 * tap with an {@link AccessControlException} naming the tap, and the backend sees no call at all. A
 * FileSystem method this test has not classified fails the test, so a method added by a new Hadoop
 * release cannot slip through unguarded.
 */
class TestReadOnlyTap {
  /** Methods that change the store (or, for copy/move to local, delete from it). */
  private static final Set<String> MUTATING =
      new HashSet<>(
          Arrays.asList(
              "append",
              "appendFile",
              "completeLocalOutput",
              "concat",
              "copyFromLocalFile",
              "create",
              "createBulkDelete",
              "createFile",
              "createMultipartUploader",
              "createNewFile",
              "createNonRecursive",
              "createSnapshot",
              "createSymlink",
              "delete",
              "deleteOnExit",
              "deleteSnapshot",
              "mkdirs",
              "modifyAclEntries",
              "moveFromLocalFile",
              "moveToLocalFile",
              "primitiveCreate",
              "primitiveMkdir",
              "removeAcl",
              "removeAclEntries",
              "removeDefaultAcl",
              "removeXAttr",
              "rename",
              "renameSnapshot",
              "satisfyStoragePolicy",
              "setAcl",
              "setOwner",
              "setPermission",
              "setQuota",
              "setQuotaByStorageType",
              "setReplication",
              "setStoragePolicy",
              "setTimes",
              "setXAttr",
              "truncate",
              "unsetStoragePolicy"));

  /** Methods that only read, or change client-side state only. */
  private static final Set<String> NOT_MUTATING =
      new HashSet<>(
          Arrays.asList(
              "access",
              "addDelegationTokens",
              "cancelDeleteOnExit",
              "canonicalizeUri",
              "checkPath",
              "close",
              "copyToLocalFile", // mutating only with delSrc=true; covered separately below
              "exists",
              "fixRelativePart",
              "getAclStatus",
              "getAdditionalTokenIssuers",
              "getAllStoragePolicies",
              "getBlockSize",
              "getCanonicalServiceName",
              "getCanonicalUri",
              "getChildFileSystems",
              "getConf",
              "getContentSummary",
              "getDefaultBlockSize",
              "getDefaultPort",
              "getDefaultReplication",
              "getDelegationToken",
              "getEnclosingRoot",
              "getFileBlockLocations",
              "getFileChecksum",
              "getFileLinkStatus",
              "getFileStatus",
              "getHomeDirectory",
              "getInitialWorkingDirectory",
              "getLength",
              "getLinkTarget",
              "getName",
              "getPathHandle",
              "createPathHandle",
              "getQuotaUsage",
              "getReplication",
              "getScheme",
              "getServerDefaults",
              "getStatus",
              "getStorageStatistics",
              "getStoragePolicy",
              "getTrashRoot",
              "getTrashRoots",
              "getUri",
              "getUsed",
              "getWorkingDirectory",
              "getXAttr",
              "getXAttrs",
              "globStatus",
              "hasPathCapability",
              "initialize",
              "isDirectory",
              "isFile",
              "listCorruptFileBlocks",
              "listFiles",
              "listLocatedStatus",
              "listStatus",
              "listStatusBatch",
              "listStatusIterator",
              "listXAttrs",
              "makeQualified",
              "msync",
              "open",
              "openFile",
              "openFileWithOptions",
              "processDeleteOnExit",
              "resolveLink",
              "resolvePath",
              "setConf",
              "setVerifyChecksum",
              "setWorkingDirectory",
              "setWriteChecksum",
              "startLocalOutput",
              "supportsSymlinks"));

  private File root;
  private File local;
  private FileSystem backendSpy;
  private DataTapFileSystem fs;

  @BeforeEach
  void setUp() throws Exception {
    root = LocalTaps.newDir("readonly");
    local = LocalTaps.newDir("local");
    Files.write(new File(root, "file").toPath(), "data".getBytes(StandardCharsets.UTF_8));
    new File(root, "dir").mkdirs();
    Files.write(new File(local, "src").toPath(), "local".getBytes(StandardCharsets.UTF_8));
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "ro", root);
    conf.set("fs.dtap.tap.ro.readonly", "true");
    fs =
        new DataTapFileSystem((uri, c) -> backendSpy = Mockito.spy(FileSystem.newInstance(uri, c)));
    fs.initialize(URI.create("dtap://ro/"), conf);
    Mockito.clearInvocations(backendSpy);
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  @Test
  void everyFileSystemMethodIsClassified() {
    Set<String> unknown = new TreeSet<>();
    for (Method m : fileSystemMethods()) {
      if (!MUTATING.contains(m.getName()) && !NOT_MUTATING.contains(m.getName())) {
        unknown.add(m.getName());
      }
    }
    assertThat(unknown)
        .as("FileSystem methods this test does not know: classify each as mutating or not")
        .isEmpty();
  }

  @Test
  void everyMutatingMethodIsRefusedBeforeTheBackend() throws Exception {
    List<String> checked = new ArrayList<>();
    for (Method m : fileSystemMethods()) {
      if (!MUTATING.contains(m.getName())) {
        continue;
      }
      m.setAccessible(true);
      Object[] args = arguments(m);
      Throwable thrown = invoke(m, args);
      String what = m.getName() + Arrays.toString(m.getParameterTypes());
      assertThat(thrown).as(what + " must be refused").isInstanceOf(AccessControlException.class);
      assertThat(thrown.getMessage()).as(what).contains("tap 'ro' is read-only");
      assertThat(storeCalls()).as(what + " must not reach the backend").isEmpty();
      checked.add(what);
    }
    assertThat(checked).hasSizeGreaterThan(50);
    assertThat(new File(root, "file")).hasContent("data");
    assertThat(root.list()).containsExactlyInAnyOrder("file", "dir");
  }

  @Test
  void copyToLocalWithDeleteIsRefusedButPlainCopyWorks() throws Exception {
    Path dst = new Path(local.toURI().toString() + "copied");
    Throwable refused =
        invoke(
            FileSystem.class.getMethod(
                "copyToLocalFile", boolean.class, Path.class, Path.class, boolean.class),
            new Object[] {true, LocalTaps.path("ro", "/file"), dst, true});
    assertThat(refused).isInstanceOf(AccessControlException.class);
    assertThat(storeCalls()).isEmpty();
    fs.copyToLocalFile(false, LocalTaps.path("ro", "/file"), dst, true);
    assertThat(new File(local, "copied")).hasContent("data");
    assertThat(new File(root, "file")).exists();
  }

  @Test
  void capabilitiesReportReadOnly() throws Exception {
    Path p = LocalTaps.path("ro", "/file");
    assertThat(fs.hasPathCapability(p, "fs.capability.paths.read-only-connector")).isTrue();
    assertThat(fs.hasPathCapability(p, "fs.capability.paths.append")).isFalse();
    assertThat(fs.hasPathCapability(p, "fs.capability.paths.concat")).isFalse();
  }

  @Test
  void readsStillWork() throws Exception {
    assertThat(fs.getFileStatus(LocalTaps.path("ro", "/file")).getLen()).isEqualTo(4);
    assertThat(fs.listStatus(LocalTaps.path("ro", "/"))).hasSize(2);
    try (java.io.InputStream in = fs.open(LocalTaps.path("ro", "/file"))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("data");
    }
    fs.access(LocalTaps.path("ro", "/file"), FsAction.READ);
  }

  /**
   * The backend calls made since the last check, ignoring pure configuration queries: Hadoop's own
   * builder constructor asks for the default block size and replication, which read the client's
   * configuration and never the store.
   */
  private List<String> storeCalls() {
    Set<String> configQueries =
        new HashSet<>(
            Arrays.asList("getDefaultReplication", "getDefaultBlockSize", "getUri", "getConf"));
    List<String> calls = new ArrayList<>();
    for (org.mockito.invocation.Invocation i :
        Mockito.mockingDetails(backendSpy).getInvocations()) {
      if (!configQueries.contains(i.getMethod().getName())) {
        calls.add(i.toString());
      }
    }
    Mockito.clearInvocations(backendSpy);
    return calls;
  }

  private static List<Method> fileSystemMethods() {
    List<Method> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Class<?> c = FileSystem.class; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        int mod = m.getModifiers();
        if (Modifier.isStatic(mod) || Modifier.isPrivate(mod) || m.isSynthetic()) {
          continue;
        }
        if (!Modifier.isPublic(mod) && !Modifier.isProtected(mod)) {
          continue;
        }
        if (seen.add(m.getName() + Arrays.toString(m.getParameterTypes()))) {
          out.add(m);
        }
      }
    }
    for (Class<?> i : FileSystem.class.getInterfaces()) {
      for (Method m : i.getMethods()) {
        if (!Modifier.isStatic(m.getModifiers())
            && seen.add(m.getName() + Arrays.toString(m.getParameterTypes()))) {
          out.add(m);
        }
      }
    }
    out.sort(
        (a, b) ->
            (a.getName() + a.getParameterCount()).compareTo(b.getName() + b.getParameterCount()));
    return out;
  }

  /** Invokes and returns what was thrown, following builders and bulk deletes to their effect. */
  private Throwable invoke(Method m, Object[] args) {
    try {
      Object result = m.invoke(fs, args);
      if (result instanceof FSBuilder) {
        ((FSBuilder<?, ?>) result).build();
        return null;
      }
      if (result != null && result.getClass().getName().contains("BulkDelete")) {
        Method bulk = result.getClass().getMethod("bulkDelete", Collection.class);
        bulk.setAccessible(true);
        List<?> failures =
            (List<?>) bulk.invoke(result, Collections.singletonList(LocalTaps.path("ro", "/file")));
        String failure = String.valueOf(failures);
        return failure.contains("read-only") ? new AccessControlException(failure) : null;
      }
      return null;
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      return t instanceof UncheckedIOException ? t.getCause() : t;
    } catch (Exception e) {
      return e;
    }
  }

  private Object[] arguments(Method m) {
    Class<?>[] types = m.getParameterTypes();
    Type[] generic = m.getGenericParameterTypes();
    Object[] args = new Object[types.length];
    boolean firstPath = true;
    for (int i = 0; i < types.length; i++) {
      Class<?> t = types[i];
      if (t == Path.class) {
        // local source for copy/move-from-local, else a path on the tap
        boolean fromLocal = m.getName().endsWith("FromLocalFile") && firstPath;
        boolean toLocal = m.getName().endsWith("ToLocalFile") && !firstPath;
        args[i] =
            fromLocal || toLocal
                ? new Path(new File(local, "src").toURI())
                : LocalTaps.path("ro", firstPath ? "/file" : "/dir/target");
        firstPath = false;
      } else if (t == Path[].class) {
        args[i] = new Path[] {LocalTaps.path("ro", "/dir/a")};
        if (m.getName().endsWith("FromLocalFile")) {
          args[i] = new Path[] {new Path(new File(local, "src").toURI())};
          firstPath = false;
        }
      } else if (t == FsPermission.class) {
        args[i] = FsPermission.getFileDefault();
      } else if (t == EnumSet.class) {
        Type arg = ((ParameterizedType) generic[i]).getActualTypeArguments()[0];
        args[i] =
            arg == XAttrSetFlag.class
                ? EnumSet.of(XAttrSetFlag.CREATE)
                : EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE);
      } else if (t == int.class) {
        args[i] = 4096;
      } else if (t == short.class) {
        args[i] = (short) 1;
      } else if (t == long.class) {
        args[i] = 1L;
      } else if (t == boolean.class) {
        args[i] = true;
      } else if (t == String.class) {
        args[i] = "user.dtap";
      } else if (t == byte[].class) {
        args[i] = new byte[] {1};
      } else if (t == List.class) {
        args[i] = new ArrayList<>();
      } else if (t == Options.Rename[].class) {
        args[i] = new Options.Rename[0];
      } else if (t == StorageType.class) {
        args[i] = StorageType.DEFAULT;
      } else if (t == FsAction.class) {
        args[i] = FsAction.ALL;
      } else if (t.isPrimitive()) {
        fail("No argument for primitive " + t + " of " + m);
      } else {
        args[i] = null; // Progressable, ChecksumOpt
      }
    }
    return args;
  }
}
