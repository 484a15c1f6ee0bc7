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
    ctx.run(() -> backend().setTimes(b, mtime, atime));
  }

  void setPermission(Path f, FsPermission permission) throws IOException {
    Path b = write(f, "setPermission");
    ctx.run(() -> backend().setPermission(b, permission));
  }

  void setOwner(Path f, String user, String group) throws IOException {
    Path b = write(f, "setOwner");
    ctx.run(() -> backend().setOwner(b, user, group));
  }

  boolean setReplication(Path f, short replication) throws IOException {
    Path b = write(f, "setReplication");
    return ctx.call(() -> backend().setReplication(b, replication));
  }

  void setXAttr(Path f, String name, byte[] value, EnumSet<XAttrSetFlag> flag) throws IOException {
    Path b = write(f, "setXAttr");
    ctx.run(() -> backend().setXAttr(b, name, value, flag));
  }

  void removeXAttr(Path f, String name) throws IOException {
    Path b = write(f, "removeXAttr");
    ctx.run(() -> backend().removeXAttr(b, name));
  }

  byte[] getXAttr(Path f, String name) throws IOException {
    Path b = read(f, Op.XATTR);
    return ctx.call(() -> backend().getXAttr(b, name));
  }

  Map<String, byte[]> getXAttrs(Path f, List<String> names) throws IOException {
    Path b = read(f, Op.XATTR);
    return ctx.call(() -> names == null ? backend().getXAttrs(b) : backend().getXAttrs(b, names));
  }

  List<String> listXAttrs(Path f) throws IOException {
    Path b = read(f, Op.XATTR);
    return ctx.call(() -> backend().listXAttrs(b));
  }

  void setAcl(Path f, List<AclEntry> spec) throws IOException {
    Path b = write(f, "setAcl");
    ctx.run(() -> backend().setAcl(b, spec));
  }

  void modifyAclEntries(Path f, List<AclEntry> spec) throws IOException {
    Path b = write(f, "modifyAclEntries");
    ctx.run(() -> backend().modifyAclEntries(b, spec));
  }

  void removeAclEntries(Path f, List<AclEntry> spec) throws IOException {
    Path b = write(f, "removeAclEntries");
    ctx.run(() -> backend().removeAclEntries(b, spec));
  }

  void removeDefaultAcl(Path f) throws IOException {
    Path b = write(f, "removeDefaultAcl");
    ctx.run(() -> backend().removeDefaultAcl(b));
  }

  void removeAcl(Path f) throws IOException {
    Path b = write(f, "removeAcl");
    ctx.run(() -> backend().removeAcl(b));
  }

  AclStatus getAclStatus(Path f) throws IOException {
    Path b = read(f, Op.GET_FILE_STATUS);
    return ctx.call(() -> backend().getAclStatus(b));
  }

  void access(Path f, FsAction mode) throws IOException {
    Path b = read(f, Op.GET_FILE_STATUS);
    ctx.run(() -> backend().access(b, mode));
  }

  Path createSnapshot(Path f, String name) throws IOException {
    Path b = write(f, "createSnapshot");
    return ctx.tap().toDtap(ctx.call(() -> backend().createSnapshot(b, name)));
  }

  void renameSnapshot(Path f, String oldName, String newName) throws IOException {
    Path b = write(f, "renameSnapshot");
    ctx.run(() -> backend().renameSnapshot(b, oldName, newName));
  }

  void deleteSnapshot(Path f, String name) throws IOException {
    Path b = write(f, "deleteSnapshot");
    ctx.run(() -> backend().deleteSnapshot(b, name));
  }

  void setStoragePolicy(Path f, String policy) throws IOException {
    Path b = write(f, "setStoragePolicy");
    ctx.run(() -> backend().setStoragePolicy(b, policy));
  }

  void unsetStoragePolicy(Path f) throws IOException {
    Path b = write(f, "unsetStoragePolicy");
    ctx.run(() -> backend().unsetStoragePolicy(b));
  }

  void satisfyStoragePolicy(Path f) throws IOException {
    Path b = write(f, "satisfyStoragePolicy");
    ctx.run(() -> backend().satisfyStoragePolicy(b));
  }

  org.apache.hadoop.fs.BlockStoragePolicySpi getStoragePolicy(Path f) throws IOException {
    Path b = read(f, Op.GET_FILE_STATUS);
    return ctx.call(() -> backend().getStoragePolicy(b));
  }

  void setQuota(Path f, long namespaceQuota, long storagespaceQuota) throws IOException {
    Path b = write(f, "setQuota");
    ctx.run(() -> backend().setQuota(b, namespaceQuota, storagespaceQuota));
  }

  void setQuotaByStorageType(Path f, StorageType type, long quota) throws IOException {
    Path b = write(f, "setQuotaByStorageType");
    ctx.run(() -> backend().setQuotaByStorageType(b, type, quota));
  }

  QuotaUsage getQuotaUsage(Path f) throws IOException {
    Path b = read(f, Op.GET_CONTENT_SUMMARY);
    return ctx.call(() -> backend().getQuotaUsage(b));
  }

  FileChecksum getFileChecksum(Path f, Long length) throws IOException {
    Path b = read(f, Op.GET_FILE_CHECKSUM);
    return ctx.call(
        () -> length == null ? backend().getFileChecksum(b) : backend().getFileChecksum(b, length));
  }

  FsStatus getStatus(Path f) throws IOException {
    Path b = read(f, Op.GET_CONTENT_SUMMARY);
    return ctx.call(() -> backend().getStatus(b));
  }

  FsServerDefaults getServerDefaults(Path f) throws IOException {
    Path b = ctx.toBackend(ctx.qualify(f));
    return ctx.call(() -> backend().getServerDefaults(b));
  }
}
