package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageFile;

/**
 * The cache service's wire protocol, version 1: length-prefixed binary frames, big-endian.
 *
 * <pre>
 *   frame  = length:int32 | type:int8 | request id:int64 | body | mac:16 bytes
 * </pre>
 *
 * {@code length} counts everything after itself. A connection opens with the service's {@code
 * HELLO} (protocol version, a fresh nonce, whether it passes descriptors), the client's {@code
 * AUTH} (its nonce and a proof of the cluster secret over both nonces) and the service's {@code
 * AUTH_OK} (its own proof, host name, session id). From then on every frame carries an HMAC-SHA256
 * (truncated to 16 bytes) under a session key derived from the secret and both nonces, over the
 * direction, the frame's sequence number on the connection and the frame itself: a frame cannot be
 * forged, altered, replayed, dropped or reflected without the receiver closing the connection.
 *
 * <p>Requests carry a client-chosen id that the answers echo, so requests are pipelined; an answer
 * may be preceded by {@link #WAITING} when the service waits for another client's fill. Keys are
 * opaque 128-bit page keys: nothing a client sends is used as a path.
 */
final class Wire {
  static final int VERSION = 1;
  static final int MAC_LENGTH = 16;
  static final int NONCE_LENGTH = 16;

  /** Type and request id. */
  static final int HEADER_LENGTH = 1 + 8;

  /** The largest frame: a whole page file of the largest page size, with room for the header. */
  static final int MAX_FRAME =
      HEADER_LENGTH + 64 + PageFile.headerSize(PageFile.MAX_PAGE) + PageFile.MAX_PAGE + MAC_LENGTH;

  // handshake
  static final byte HELLO = 1;
  static final byte AUTH = 2;
  static final byte AUTH_OK = 3;

  /** Binds a second connection, which receives descriptors only, to a session. */
  static final byte BIND = 4;

  static final byte BOUND = 5;

  // requests: client (or peer service) to service
  /** key, flags ({@link #WANT_DESCRIPTOR}, {@link #MAY_FILL}), owner host: a page. */
  static final byte LOOKUP = 10;

  /** lease, key, page data: the page a lease holder read. */
  static final byte FILL = 11;

  /** lease, key: the holder could not read the page. */
  static final byte ABORT_FILL = 12;

  /** key: a descriptor the client held is closed (no answer). */
  static final byte RELEASE = 13;

  /** key: a page the client read failed verification (no answer). */
  static final byte CORRUPT = 14;

  /** key, page data: a page the client read without a lease (a span of pages), to keep. */
  static final byte OFFER = 15;

  static final byte CONTAINS = 16;
  static final byte FORGET = 17;
  static final byte CLEAR = 18;
  static final byte STATS = 19;

  /** key: a peer service asks for a page it misses. */
  static final byte PEER_GET = 20;

  /**
   * key, flag ({@link #RECORD}): whether a lone reader of the host met the page before (admission);
   * answered by OK with a byte, 1 if it did.
   */
  static final byte SEEN = 21;

  // answers
  /**
   * descriptor sequence number, file size: the page file's descriptor follows on the bound line.
   */
  static final byte HIT_FD = 40;

  /** page file bytes (header and data, verified by the receiver). */
  static final byte PAGE = 41;

  /** lease id: read the page yourself and hand it over with FILL. */
  static final byte LEASE = 42;

  /** read the page yourself; the service will not keep it. */
  static final byte MISS = 43;

  /** the service waits for another client's (or a peer's) fill; the answer follows. */
  static final byte WAITING = 44;

  static final byte OK = 45;
  static final byte SIZE = 46;
  static final byte STATS_REPLY = 47;
  static final byte NOT_FOUND = 48;

  /** the request cannot be honoured (a stale lease, a page of a bad size). */
  static final byte REFUSED = 49;

  // LOOKUP flags
  static final int WANT_DESCRIPTOR = 1;
  static final int MAY_FILL = 2;

  // answer flag byte of MISS, LEASE: whether the service's disk has room (admission)
  static final int ROOM = 1;

  /**
   * AUTH_OK flag beside {@link #ROOM}: the service answers {@link #SEEN}. A service without it (an
   * older one) would close the connection on a request it does not know.
   */
  static final int KEEPS_SIGHTINGS = 2;

  // SEEN flag: record the sighting (a reader meets the page), not only ask
  static final int RECORD = 1;

  private Wire() {}

  static boolean isRequest(byte type) {
    return type >= LOOKUP && type <= SEEN;
  }
}
