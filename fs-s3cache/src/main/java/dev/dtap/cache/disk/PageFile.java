package dev.dtap.cache.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * The on-disk format of one page: a header naming the page's key and length, a CRC32C per 4 KiB
 * chunk of data, a CRC32C of the header itself, zeros up to the next 4 KiB boundary, then the data.
 *
 * <pre>
 *   magic "DTP1" | version 2 | data length | chunk size | key hi | key lo |
 *   chunk CRCs... | header CRC | zero padding to a multiple of 4 KiB
 *   data
 * </pre>
 *
 * A page is written to a temporary file and renamed into place, so a reader sees a whole page or
 * none; a crash can still leave a page whose blocks never reached the disk, which the checksums
 * catch. Small chunks let a small read verify little more than it returns (with 64 KiB chunks, a 64
 * KiB read at a random offset read and verified twice its size), and data that starts on a 4 KiB
 * boundary keeps each chunk within one page of the OS's cache.
 *
 * <p>Pages of version 1 (64 KiB chunks, no padding), written before 2026-12, are still read; a page
 * of any other version is reported corrupt, so it is dropped and fetched again.
 *
 * <p>Reads go through a direct buffer of each thread's own, a slice of the page at a time: the
 * bytes are read, verified and copied while they are in the processor's cache, and no heap buffer
 * is allocated for them. Stateless but for those buffers; thread-safe.
 */
public final class PageFile {
  /** The largest page: 16 MiB. */
  public static final int MAX_PAGE = 16 << 20;

  static final int MAGIC = 0x44545031; // "DTP1"
  static final int VERSION = 2;

  /** Bytes covered by one checksum in the pages this version writes. */
  public static final int CHUNK = 4 << 10;

  /** The chunk size of version 1. */
  static final int CHUNK_V1 = 64 << 10;

  /** Where a page's data may start: headers are padded to a multiple of it. */
  static final int ALIGN = 4 << 10;

  /** Bytes read, verified and copied at a time: whole chunks of either version. */
  static final int SLICE = 256 << 10;

  private static final int FIXED = 4 + 4 + 4 + 4 + 8 + 8;

  private static final ThreadLocal<ByteBuffer> SLICES =
      ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SLICE));

  private PageFile() {}

  private static int chunks(int length, int chunk) {
    return (length + chunk - 1) / chunk;
  }

  /**
   * @param length a page's data length
   * @return the size of its header on disk, padding included
   */
  public static int headerSize(int length) {
    int bytes = FIXED + 4 * chunks(length, CHUNK) + 4;
    return (bytes + ALIGN - 1) / ALIGN * ALIGN;
  }

  /**
   * Encodes a page's header, ready to write.
   *
   * @param key the page's key
   * @param data the page bytes
   * @param length how many of them
   * @return the header, padding included; the data follows it in the file
   */
  public static ByteBuffer header(PageKey key, byte[] data, int length) {
    int chunks = chunks(length, CHUNK);
    ByteBuffer h = ByteBuffer.allocate(headerSize(length));
    h.putInt(MAGIC)
        .putInt(VERSION)
        .putInt(length)
        .putInt(CHUNK)
        .putLong(key.hi())
        .putLong(key.lo());
    CRC32C crc = new CRC32C();
    for (int c = 0; c < chunks; c++) {
      crc.reset();
      int off = c * CHUNK;
      crc.update(data, off, Math.min(CHUNK, length - off));
      h.putInt((int) crc.getValue());
    }
    crc.reset();
    crc.update(h.array(), 0, h.position());
    h.putInt((int) crc.getValue());
    h.rewind(); // the padding stays zero
    return h;
  }

  /** A page's header, read and verified. */
  public static final class Header {
    final int length;
    final int chunk;
    final int[] crcs;
    final int size;

    Header(int length, int chunk, int[] crcs, int size) {
      this.length = length;
      this.chunk = chunk;
      this.crcs = crcs;
      this.size = size;
    }

    /**
     * @return the page's data length
     */
    public int length() {
      return length;
    }
  }

  /**
   * Reads and verifies a page's header.
   *
   * @param ch the page file
   * @param key the key the file must hold
   * @param fileSize the file's size
   * @return the header
   * @throws CorruptPageException if the header is torn, truncated, foreign or inconsistent
   * @throws IOException on read failure
   */
  public static Header readHeader(FileChannel ch, PageKey key, long fileSize) throws IOException {
    return readHeader(ch::read, key, fileSize);
  }

  /** Positioned reads of a page file's bytes, wherever they are (a file, a buffer). */
  public interface Source {
    /**
     * Reads bytes at a position, as {@link FileChannel#read(ByteBuffer, long)} does.
     *
     * @return the number read, or -1 at the end
     * @throws IOException on read failure
     */
    int read(ByteBuffer dst, long position) throws IOException;
  }

  /**
   * Reads and verifies a page's header from any source.
   *
   * @see #readHeader(FileChannel, PageKey, long)
   */
  public static Header readHeader(Source ch, PageKey key, long fileSize) throws IOException {
    ByteBuffer fixed = ByteBuffer.allocate(FIXED);
    readFully(ch, fixed, 0);
    fixed.flip();
    if (fixed.getInt() != MAGIC) {
      throw new CorruptPageException("not a dtap page");
    }
    int version = fixed.getInt();
    int length = fixed.getInt();
    int chunk = fixed.getInt();
    long hi = fixed.getLong();
    long lo = fixed.getLong();
    if (!(version == VERSION && chunk == CHUNK) && !(version == 1 && chunk == CHUNK_V1)) {
      throw new CorruptPageException("unknown page version " + version);
    }
    if (length < 0 || length > MAX_PAGE) {
      throw new CorruptPageException("bad page length " + length);
    }
    if (hi != key.hi() || lo != key.lo()) {
      throw new ForeignPageException();
    }
    int chunks = chunks(length, chunk);
    int written = FIXED + 4 * chunks + 4;
    int size = version == 1 ? written : headerSize(length);
    if (fileSize != (long) size + length) {
      throw new CorruptPageException("truncated or padded page: " + fileSize + " bytes");
    }
    ByteBuffer rest = ByteBuffer.allocate(written - FIXED);
    readFully(ch, rest, FIXED);
    CRC32C crc = new CRC32C();
    crc.update(fixed.array(), 0, FIXED);
    crc.update(rest.array(), 0, rest.capacity() - 4);
    rest.flip();
    int[] crcs = new int[chunks];
    for (int i = 0; i < crcs.length; i++) {
      crcs[i] = rest.getInt();
    }
    if ((int) crc.getValue() != rest.getInt()) {
      throw new CorruptPageException("header checksum mismatch");
    }
    return new Header(length, chunk, crcs, size);
  }

  /**
   * Reads and verifies part of a page's data: the chunks it touches are read and checked, and the
   * requested bytes copied out.
   *
   * @param ch the page file
   * @param header its verified header
   * @param offset first byte within the page
   * @param dst destination
   * @param dstOff offset in the destination
   * @param len bytes wanted, within the page
   * @throws CorruptPageException if a chunk fails its checksum
   * @throws IOException on read failure
   */
  public static void read(
      FileChannel ch, Header header, int offset, byte[] dst, int dstOff, int len)
      throws IOException {
    read((Source) ch::read, header, offset, dst, dstOff, len);
  }

  /**
   * Reads and verifies part of a page's data from any source.
   *
   * @see #read(FileChannel, Header, int, byte[], int, int)
   */
  public static void read(Source ch, Header header, int offset, byte[] dst, int dstOff, int len)
      throws IOException {
    if (len == 0) {
      return;
    }
    int chunk = header.chunk;
    int perSlice = SLICE / chunk;
    int last = (offset + len - 1) / chunk;
    ByteBuffer slice = SLICES.get();
    CRC32C crc = new CRC32C();
    for (int first = offset / chunk; first <= last; first += perSlice) {
      int chunks = Math.min(perSlice, last - first + 1);
      int start = first * chunk;
      int end = Math.min(header.length, start + chunks * chunk);
      slice.clear().limit(end - start);
      readFully(ch, slice, header.size + (long) start);
      for (int c = 0; c < chunks; c++) {
        int from = c * chunk;
        slice.limit(Math.min(end - start, from + chunk)).position(from);
        crc.reset();
        crc.update(slice);
        if ((int) crc.getValue() != header.crcs[first + c]) {
          throw new CorruptPageException("chunk " + (first + c) + " checksum mismatch");
        }
      }
      int copyFrom = Math.max(offset, start);
      int copyTo = Math.min(offset + len, end);
      slice.limit(copyTo - start).position(copyFrom - start);
      slice.get(dst, dstOff + (copyFrom - offset), copyTo - copyFrom);
    }
  }

  /**
   * Verifies a whole page file held in memory (a page that travelled over a socket) and returns its
   * data.
   *
   * @param file the page file's bytes
   * @param key the key the page must hold
   * @return the page's data
   * @throws CorruptPageException if the page fails verification
   */
  public static byte[] decode(byte[] file, PageKey key) throws CorruptPageException {
    Source source =
        (dst, position) -> {
          if (position >= file.length) {
            return -1;
          }
          int n = (int) Math.min(dst.remaining(), file.length - position);
          dst.put(file, (int) position, n);
          return n;
        };
    try {
      Header h = readHeader(source, key, file.length);
      byte[] data = new byte[h.length];
      if (data.length > 0) {
        read(source, h, 0, data, 0, data.length);
      }
      return data;
    } catch (CorruptPageException e) {
      throw e;
    } catch (IOException e) {
      throw new CorruptPageException("unreadable page: " + e.getMessage());
    }
  }

  /**
   * Encodes a whole page file (header and data) in memory, as it is written to disk.
   *
   * @param key the page's key
   * @param data the page bytes
   * @param length how many of them
   * @return the file's bytes
   */
  public static byte[] encode(PageKey key, byte[] data, int length) {
    ByteBuffer h = header(key, data, length);
    byte[] file = new byte[h.remaining() + length];
    int n = h.remaining();
    h.get(file, 0, n);
    System.arraycopy(data, 0, file, n, length);
    return file;
  }

  private static void readFully(Source ch, ByteBuffer buf, long position) throws IOException {
    long pos = position;
    while (buf.hasRemaining()) {
      int n = ch.read(buf, pos);
      if (n < 0) {
        throw new CorruptPageException("page ends early");
      }
      pos += n;
    }
  }

  /**
   * A whole, valid page file of another page: not corrupt, only not the page asked for (a file name
   * reused, or a descriptor matched to the wrong answer).
   */
  public static final class ForeignPageException extends CorruptPageException {
    private static final long serialVersionUID = 1L;

    ForeignPageException() {
      super("page holds another key");
    }
  }

  /** A page file that failed verification: never served, deleted and refetched. */
  public static class CorruptPageException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptPageException(String message) {
      super(message);
    }
  }
}
