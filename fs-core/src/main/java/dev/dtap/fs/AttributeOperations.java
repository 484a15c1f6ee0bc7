package dev.dtap.fs;

import dev.dtap.fs.DataTapStatistics.Op;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Metadata on a tap: times, permissions, owners, replication, extended attributes, ACLs, snapshots,
 * storage policies, quotas and checksums. Each call is the backend's, on the translated path;
 * setters refuse a read-only tap first. Thread-safe.
 */
final class AttributeOperations {
  private final OpContext ctx;

  AttributeOperations(OpContext ctx) {
    this.ctx = ctx;
  }

  private FileSystem backend() {
    return ctx.backend();
  }

  private Path read(Path f, Op op) throws IOException {
    return ctx.toBackend(ctx.readable(f, op));
  }

  private Path write(Path f, String operation) throws IOException {
    return ctx.toBackend(ctx.writable(f, operation, Op.SET_ATTRIBUTES));
  }

  void setTimes(Path f, long mtime, long atime) throws IOException {
    Path b = write(f, "setTimes");
    ctx.run(b, () -> backend().setTimes(b, mtime, atime));
  }

  void setPermission(Path f, FsPermission permission) throws IOException {
    Path b = write(f, "setPermission");
    ctx.run(b, () -> backend().setPermission(b, permission));
  }

  void setOwner(Path f, String user, String group) throws IOException {
    Path b = write(f, "setOwner");
    ctx.run(b, () -> backend().setOwner(b, user, group));
  }

  boolean setReplication(Path f, short replication) throws IOException {
    Path b = write(f, "setReplication");
    return ctx.call(b, () -> backend().setReplication(b, replication));
  }

  void setXAttr(Path f, String name, byte[] value, EnumSet<XAttrSetFlag> flag) throws IOException {
    Path b = write(f, "setXAttr");
    ctx.run(b, () -> backend().setXAttr(b, name, value, flag));
  }

  void removeXAttr(Path f, String name) throws IOException {
    Path b = write(f, "removeXAttr");
    ctx.run(b, () -> backend().removeXAttr(b, name));
  }

  byte[] getXAttr(Path f, String name) throws IOException {
    Path b = read(f, Op.XATTR);
    return ctx.call(b, () -> backend().getXAttr(b, name));
  }

  Map<String, byte[]> getXAttrs(Path f, List<String> names) throws IOException {
    Path b = read(f, Op.XATTR);
    return ctx.call(
        b, () -> names == null ? backend().getXAttrs(b) : backend().getXAttrs(b, names));
  }

  List<String> listXAttrs(Path f) throws IOException {
    Path b = read(f, Op.XATTR);
    return ctx.call(b, () -> backend().listXAttrs(b));
  }

  void setAcl(Path f, List<AclEntry> spec) throws IOException {
    Path b = write(f, "setAcl");
    ctx.run(b, () -> backend().setAcl(b, spec));
  }

  void modifyAclEntries(Path f, List<AclEntry> spec) throws IOException {
    Path b = write(f, "modifyAclEntries");
    ctx.run(b, () -> backend().modifyAclEntries(b, spec));
  }

  void removeAclEntries(Path f, List<AclEntry> spec) throws IOException {
    Path b = write(f, "removeAclEntries");
    ctx.run(b, () -> backend().removeAclEntries(b, spec));
  }

  void removeDefaultAcl(Path f) throws IOException {
    Path b = write(f, "removeDefaultAcl");
    ctx.run(b, () -> backend().removeDefaultAcl(b));
  }

  void removeAcl(Path f) throws IOException {
    Path b = write(f, "removeAcl");
    ctx.run(b, () -> backend().removeAcl(b));
  }

  AclStatus getAclStatus(Path f) throws IOException {
    Path b = read(f, Op.GET_FILE_STATUS);
    return ctx.call(b, () -> backend().getAclStatus(b));
  }

  void access(Path f, FsAction mode) throws IOException {
    Path b = read(f, Op.GET_FILE_STATUS);
    ctx.run(b, () -> backend().access(b, mode));
  }

  Path createSnapshot(Path f, String name) throws IOException {
    Path b = write(f, "createSnapshot");
    return ctx.tap().toDtap(ctx.call(b, () -> backend().createSnapshot(b, name)));
  }

  void renameSnapshot(Path f, String oldName, String newName) throws IOException {
    Path b = write(f, "renameSnapshot");
    ctx.run(b, () -> backend().renameSnapshot(b, oldName, newName));
  }

  void deleteSnapshot(Path f, String name) throws IOException {
    Path b = write(f, "deleteSnapshot");
    ctx.run(b, () -> backend().deleteSnapshot(b, name));
  }

  void setStoragePolicy(Path f, String policy) throws IOException {
    Path b = write(f, "setStoragePolicy");
    ctx.run(b, () -> backend().setStoragePolicy(b, policy));
  }

  void unsetStoragePolicy(Path f) throws IOException {
    Path b = write(f, "unsetStoragePolicy");
    ctx.run(b, () -> backend().unsetStoragePolicy(b));
  }

  void satisfyStoragePolicy(Path f) throws IOException {
    Path b = write(f, "satisfyStoragePolicy");
    ctx.run(b, () -> backend().satisfyStoragePolicy(b));
  }

  org.apache.hadoop.fs.BlockStoragePolicySpi getStoragePolicy(Path f) throws IOException {
    Path b = read(f, Op.GET_FILE_STATUS);
    return ctx.call(b, () -> backend().getStoragePolicy(b));
  }

  void setQuota(Path f, long namespaceQuota, long storagespaceQuota) throws IOException {
    Path b = write(f, "setQuota");
    ctx.run(b, () -> backend().setQuota(b, namespaceQuota, storagespaceQuota));
  }

  void setQuotaByStorageType(Path f, StorageType type, long quota) throws IOException {
    Path b = write(f, "setQuotaByStorageType");
    ctx.run(b, () -> backend().setQuotaByStorageType(b, type, quota));
  }

  QuotaUsage getQuotaUsage(Path f) throws IOException {
    Path b = read(f, Op.GET_CONTENT_SUMMARY);
    return ctx.call(b, () -> backend().getQuotaUsage(b));
  }

  FileChecksum getFileChecksum(Path f, Long length) throws IOException {
    Path b = read(f, Op.GET_FILE_CHECKSUM);
    return ctx.call(
        b,
        () -> length == null ? backend().getFileChecksum(b) : backend().getFileChecksum(b, length));
  }

  FsStatus getStatus(Path f) throws IOException {
    Path b = read(f, Op.GET_CONTENT_SUMMARY);
    return ctx.call(b, () -> backend().getStatus(b));
  }

  FsServerDefaults getServerDefaults(Path f) throws IOException {
    Path b = ctx.toBackend(ctx.qualify(f));
    return ctx.call(b, () -> backend().getServerDefaults(b));
  }
}
