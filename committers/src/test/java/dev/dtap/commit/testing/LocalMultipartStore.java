package dev.dtap.commit.testing;

import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.NoSuchUploadException;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * A multipart store over a local directory, for unit tests of the committers without a network:
 * objects are the files under {@code /} (a key is an absolute path without its leading slash),
 * pending uploads are directories of part files under a separate uploads directory, completion
 * concatenates the parts and publishes the file with an atomic move, and conditional creates use
 * {@code CREATE_NEW}. Etags are S3's: the MD5 of a part, and the MD5 of the parts' MD5s with a part
 * count for a completed upload. A fault can be injected before the n-th request of an operation,
 * and an acknowledgement lost after it ({@link #loseAnswerOn}, {@link #stillCompletingOn}, {@link
 * #resendInitiateOn}).
 *
 * <p>Thread-safe.
 */
public final class LocalMultipartStore implements MultipartStore {
  private final Path uploads;
  private final Path etags;
  private final StoreStatistics stats = new StoreStatistics();
  private volatile Op failOp;
  private final AtomicInteger failCountdown = new AtomicInteger(-1);
  private volatile Op lostAnswerOp;
  private final AtomicInteger lostAnswerCountdown = new AtomicInteger(-1);
  private final AtomicInteger stillCompletingCountdown = new AtomicInteger(-1);
  private final AtomicInteger resentInitiateCountdown = new AtomicInteger(-1);

  /** A complete another request is still carrying out: it ends when its upload is next listed. */
  private volatile Runnable completing;

  /**
   * @param uploads where pending uploads live; outside any tap root
   */
  public LocalMultipartStore(Path uploads) throws IOException {
    this.uploads = Files.createDirectories(uploads);
    this.etags = Files.createDirectories(uploads.resolveSibling(uploads.getFileName() + ".etags"));
  }

  private Path etagFile(String key) {
    return etags.resolve(hex(md5().digest(key.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
  }

  /** Fails the n-th next request of an operation (1 = the next one) with an IOException. */
  public void failOn(Op op, int n) {
    failOp = op;
    failCountdown.set(n);
  }

  /**
   * Loses the answer to the n-th next request of an operation ({@link Op#COMPLETE} or a conditional
   * {@link Op#PUT}) and answers as the store answers the client's repeat of it: the request is
   * carried out, then a complete finds its upload gone ({@link NoSuchUploadException}) and a
   * conditional put finds the object it wrote (false).
   */
  public void loseAnswerOn(Op op, int n) {
    lostAnswerOp = op;
    lostAnswerCountdown.set(n);
  }

  private boolean answerLost(Op op) {
    if (op == lostAnswerOp && lostAnswerCountdown.decrementAndGet() == 0) {
      lostAnswerOp = null;
      return true;
    }
    return false;
  }

  /**
   * The n-th next complete meets an earlier complete of the same upload that the store is still
   * carrying out (sent by a client that died, say): it fails as MinIO fails it ({@code
   * InvalidPart}, a {@link NoSuchUploadException}), the object is not there yet, and the earlier
   * complete ends right after the upload's parts are next listed.
   */
  public void stillCompletingOn(int n) {
    stillCompletingCountdown.set(n);
  }

  /**
   * The n-th next initiate is sent twice, as a client does whose first send's answer was lost: the
   * first send starts an upload whose id nobody learns, the second the one answered, flagged {@link
   * InitiatedUpload#resent()}.
   */
  public void resendInitiateOn(int n) {
    resentInitiateCountdown.set(n);
  }

  private void count(Op op) throws IOException {
    stats.request(op);
    if (op == failOp && failCountdown.decrementAndGet() == 0) {
      failOp = null;
      throw new IOException("injected failure of " + op);
    }
  }

  private static Path file(String key) {
    return Path.of("/" + key);
  }

  /**
   * @return the ids of every pending upload
   */
  public List<String> pendingUploads() throws IOException {
    List<String> ids = new ArrayList<>();
    try (Stream<Path> s = Files.list(uploads)) {
      s.forEach(p -> ids.add(p.getFileName().toString()));
    }
    return ids;
  }

  @Override
  public String describe() {
    return "local:" + uploads;
  }

  @Override
  public InitiatedUpload initiate(String key) throws IOException {
    count(Op.INITIATE);
    boolean resent = resentInitiateCountdown.decrementAndGet() == 0;
    if (resent) {
      newUpload(key); // the first send, whose answer was lost: nobody learns its id
    }
    return new InitiatedUpload(newUpload(key), resent);
  }

  private String newUpload(String key) throws IOException {
    String id = UUID.randomUUID().toString();
    Files.createDirectories(uploads.resolve(id));
    Files.writeString(uploads.resolve(id).resolve("key"), key);
    return id;
  }

  @Override
  public List<String> pendingUploads(String key) throws IOException {
    count(Op.LIST_UPLOADS);
    List<String> ids = new ArrayList<>();
    for (String id : pendingUploads()) {
      Path k = uploads.resolve(id).resolve("key");
      if (Files.isRegularFile(k) && Files.readString(k).equals(key)) {
        ids.add(id);
      }
    }
    return ids;
  }

  private Path upload(String key, String uploadId) throws IOException {
    Path dir = uploads.resolve(uploadId);
    if (!Files.isDirectory(dir) || !Files.readString(dir.resolve("key")).equals(key)) {
      throw new NoSuchUploadException("no upload " + uploadId + " of " + key);
    }
    return dir;
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    count(Op.UPLOAD_PART);
    Path dir = upload(key, uploadId);
    MessageDigest md5 = md5();
    Path tmp = dir.resolve("part-" + partNumber + ".tmp-" + UUID.randomUUID());
    try (InputStream in = data.open();
        OutputStream out = Files.newOutputStream(tmp)) {
      byte[] buf = new byte[65536];
      int n;
      while ((n = in.read(buf)) > 0) {
        out.write(buf, 0, n);
        md5.update(buf, 0, n);
      }
    }
    Files.move(
        tmp,
        dir.resolve(String.format("part-%05d", partNumber)),
        StandardCopyOption.REPLACE_EXISTING);
    stats.uploaded(data.length());
    return new UploadedPart(partNumber, "\"" + hex(md5.digest()) + "\"", data.length());
  }

  @Override
  public String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    count(Op.COMPLETE);
    if (stillCompletingCountdown.decrementAndGet() == 0) {
      upload(key, uploadId);
      completing =
          () -> {
            try {
              completeNow(key, uploadId, parts);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          };
      throw new NoSuchUploadException("InvalidPart: upload " + uploadId + " is being completed");
    }
    String etag = completeNow(key, uploadId, parts);
    if (answerLost(Op.COMPLETE)) {
      return completeNow(key, uploadId, parts);
    }
    return etag;
  }

  private String completeNow(String key, String uploadId, List<UploadedPart> parts)
      throws IOException {
    Path dir = upload(key, uploadId);
    Path target = file(key);
    Files.createDirectories(target.getParent());
    Path tmp = target.resolveSibling("." + target.getFileName() + ".complete-" + UUID.randomUUID());
    MessageDigest etags = md5();
    try (OutputStream out = Files.newOutputStream(tmp)) {
      for (UploadedPart p : parts) {
        Path part = dir.resolve(String.format("part-%05d", p.number()));
        if (!Files.exists(part)) {
          throw new IOException("InvalidPart " + p.number() + " of upload " + uploadId);
        }
        byte[] bytes = Files.readAllBytes(part);
        out.write(bytes);
        etags.update(md5().digest(bytes));
      }
    }
    String etag = "\"" + hex(etags.digest()) + "-" + parts.size() + "\"";
    Files.writeString(etagFile(key), etag);
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    deleteTree(dir);
    return etag;
  }

  @Override
  public boolean abort(String key, String uploadId) throws IOException {
    count(Op.ABORT);
    Path dir = uploads.resolve(uploadId);
    if (!Files.isDirectory(dir)) {
      return false;
    }
    deleteTree(dir);
    return true;
  }

  @Override
  public Optional<List<UploadedPart>> listParts(String key, String uploadId) throws IOException {
    count(Op.LIST_PARTS);
    try {
      return listPartsNow(uploadId);
    } finally {
      Runnable earlier = completing;
      if (earlier != null) {
        completing = null;
        earlier.run();
      }
    }
  }

  private Optional<List<UploadedPart>> listPartsNow(String uploadId) throws IOException {
    Path dir = uploads.resolve(uploadId);
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    List<UploadedPart> parts = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        String n = p.getFileName().toString();
        if (n.matches("part-\\d{5}")) {
          byte[] b = Files.readAllBytes(p);
          parts.add(
              new UploadedPart(
                  Integer.parseInt(n.substring(5)), "\"" + hex(md5().digest(b)) + "\"", b.length));
        }
      }
    }
    return Optional.of(parts);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    count(Op.PUT);
    Path target = file(key);
    Files.createDirectories(target.getParent());
    Path tmp = target.resolveSibling("." + target.getFileName() + ".put-" + UUID.randomUUID());
    Files.write(tmp, data);
    Files.deleteIfExists(etagFile(key));
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    count(Op.PUT);
    Path target = file(key);
    Files.createDirectories(target.getParent());
    try {
      Files.write(target, data, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      Files.deleteIfExists(etagFile(key));
      return !answerLost(Op.PUT);
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }

  @Override
  public boolean supportsConditionalPut() {
    return true;
  }

  @Override
  public Optional<byte[]> get(String key) throws IOException {
    count(Op.GET);
    try {
      return Optional.of(Files.readAllBytes(file(key)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    count(Op.HEAD);
    Path f = file(key);
    if (!Files.isRegularFile(f)) {
      return Optional.empty();
    }
    Path e = etagFile(key);
    String etag =
        Files.exists(e)
            ? Files.readString(e)
            : "\"" + hex(md5().digest(Files.readAllBytes(f))) + "\"";
    return Optional.of(
        new ObjectInfo(key, Files.size(f), etag, Files.getLastModifiedTime(f).toMillis()));
  }

  private List<String> keys(String prefix) throws IOException {
    String dir = prefix.contains("/") ? prefix.substring(0, prefix.lastIndexOf('/')) : "";
    Path root = file(dir);
    TreeSet<String> keys = new TreeSet<>();
    if (Files.isDirectory(root)) {
      try (Stream<Path> s = Files.walk(root)) {
        s.filter(Files::isRegularFile)
            .map(p -> p.toString().substring(1))
            .filter(
                k -> k.startsWith(prefix) && !k.substring(k.lastIndexOf('/') + 1).startsWith("."))
            .forEach(keys::add);
      }
    }
    return new ArrayList<>(keys);
  }

  @Override
  public RemoteIterator<ObjectInfo> list(String prefix) throws IOException {
    count(Op.LIST);
    List<ObjectInfo> out = new ArrayList<>();
    for (String k : keys(prefix)) {
      Path f = file(k);
      if (Files.exists(f)) {
        out.add(new ObjectInfo(k, Files.size(f), null, Files.getLastModifiedTime(f).toMillis()));
      }
    }
    return iterator(out.iterator());
  }

  @Override
  public RemoteIterator<String> listChildPrefixes(String prefix) throws IOException {
    count(Op.LIST);
    TreeSet<String> children = new TreeSet<>();
    for (String k : keys(prefix)) {
      String rest = k.substring(prefix.length());
      int slash = rest.indexOf('/');
      if (slash > 0) {
        children.add(prefix + rest.substring(0, slash + 1));
      }
    }
    return iterator(children.iterator());
  }

  private static <T> RemoteIterator<T> iterator(Iterator<T> it) {
    return new RemoteIterator<T>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public T next() {
        return it.next();
      }
    };
  }

  @Override
  public void delete(Collection<String> keys) throws IOException {
    count(Op.DELETE);
    for (String k : keys) {
      Files.deleteIfExists(file(k));
      Files.deleteIfExists(etagFile(k));
    }
  }

  @Override
  public long minimumPartSize() {
    return 5L << 20;
  }

  @Override
  public StoreStatistics statistics() {
    return stats;
  }

  @Override
  public void close() {}

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(String.format("%02x", x));
    }
    return sb.toString();
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Collections.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
