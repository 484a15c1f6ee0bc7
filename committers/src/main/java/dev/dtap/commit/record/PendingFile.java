package dev.dtap.commit.record;

import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A file a task wrote as an uncompleted multipart upload: where it goes, the upload, its parts and
 * its journal entry. Immutable.
 */
public final class PendingFile {
  /** The part checksum algorithm version 2 records carry in their {@code crc32c} field. */
  static final String CRC32C = "CRC32C";

  private final String key;
  private final String uploadId;
  private final String journalName;
  private final long length;
  private final List<UploadedPart> parts;

  public PendingFile(
      String key, String uploadId, String journalName, long length, List<UploadedPart> parts) {
    this.key = key;
    this.uploadId = uploadId;
    this.journalName = journalName;
    this.length = length;
    this.parts = Collections.unmodifiableList(new ArrayList<>(parts));
  }

  public String key() {
    return key;
  }

  public String uploadId() {
    return uploadId;
  }

  /**
   * @return the journal entry's name within its attempt's journal directory
   */
  public String journalName() {
    return journalName;
  }

  public long length() {
    return length;
  }

  public List<UploadedPart> parts() {
    return parts;
  }

  /**
   * Whether an object is this upload's result: its etag is the one the completed upload gives.
   * Where the parts' etags are not MD5s (some stores) the etag cannot tell; then the length decides
   * if {@code lengthWillDo}, and the answer is no otherwise.
   *
   * @param o the object at this file's key
   * @param lengthWillDo whether an equal length is enough when the etag cannot tell
   * @return whether the object is this upload's result
   */
  public boolean isResultOf(dev.dtap.commit.store.ObjectInfo o, boolean lengthWillDo) {
    String expected = expectedEtag();
    if (expected != null) {
      return expected.equals(unquote(o.etag()));
    }
    return lengthWillDo && o.length() == length();
  }

  /**
   * The etag S3 and S3-compatible stores give an object completed from these parts: the MD5 of the
   * parts' binary MD5s, a dash and the part count. Used to recognise an upload that was completed
   * by an earlier run of job commit.
   *
   * @return the expected etag without quotes, or null if a part's etag is not an MD5
   */
  String expectedEtag() {
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      for (UploadedPart p : parts) {
        String hex = unquote(p.etag());
        if (!hex.matches("[0-9a-fA-F]{32}")) {
          return null;
        }
        for (int i = 0; i < 32; i += 2) {
          md5.update((byte) Integer.parseInt(hex.substring(i, i + 2), 16));
        }
      }
      StringBuilder sb = new StringBuilder();
      for (byte b : md5.digest()) {
        sb.append(String.format(Locale.ROOT, "%02x", b));
      }
      return sb.append('-').append(parts.size()).toString();
    } catch (NoSuchAlgorithmException e) {
      return null;
    }
  }

  static String unquote(String etag) {
    if (etag == null) {
      return "";
    }
    String e = etag.trim();
    if (e.startsWith("W/")) {
      e = e.substring(2);
    }
    if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
      e = e.substring(1, e.length() - 1);
    }
    return e;
  }

  void write(com.fasterxml.jackson.core.JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", key);
    g.writeStringField("uploadId", uploadId);
    g.writeStringField("journal", journalName);
    g.writeNumberField("length", length);
    g.writeArrayFieldStart("parts");
    for (UploadedPart p : parts) {
      g.writeStartObject();
      g.writeNumberField("number", p.number());
      g.writeStringField("etag", p.etag());
      g.writeNumberField("size", p.size());
      if (CRC32C.equals(p.checksumAlgorithm())) {
        g.writeStringField(
            "crc32c", p.checksum()); // as version 2 records, which older releases read
      } else if (p.checksum() != null) {
        g.writeStringField("checksumAlgorithm", p.checksumAlgorithm());
        g.writeStringField("checksum", p.checksum());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * @return this file as a JSON document of its own
   */
  public byte[] encode() throws IOException {
    return Json.write(this::write);
  }

  /**
   * @param data a document {@link #encode()} made
   * @param source names it in a failure
   * @return the file
   * @throws IOException if the document is malformed
   */
  public static PendingFile decode(byte[] data, String source) throws IOException {
    return read(new Json.Fields(Json.parse(data, source), source));
  }

  static PendingFile read(Json.Fields f) throws IOException {
    List<UploadedPart> parts = new ArrayList<>();
    for (Json.Fields p : f.objects("parts")) {
      String crc32c = p.optString("crc32c");
      String algorithm = crc32c != null ? CRC32C : p.optString("checksumAlgorithm");
      String checksum = crc32c != null ? crc32c : p.optString("checksum");
      parts.add(
          new UploadedPart(
              (int) p.number("number"), p.string("etag"), p.number("size"), algorithm, checksum));
    }
    return new PendingFile(
        f.string("key"), f.string("uploadId"), f.string("journal"), f.number("length"), parts);
  }

  @Override
  public String toString() {
    return key + " (upload " + uploadId + ", " + length + " bytes in " + parts.size() + " parts)";
  }
}
