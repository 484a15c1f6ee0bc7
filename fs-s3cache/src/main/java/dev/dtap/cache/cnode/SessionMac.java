package dev.dtap.cache.cnode;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The proofs of one connection: the handshake's proofs of the cluster secret, and the per-frame MAC
 * under the session key derived from it (HMAC-SHA256 over direction, sequence number and frame,
 * truncated to {@link Wire#MAC_LENGTH} bytes, compared in constant time).
 *
 * <p>Not thread-safe: a connection seals on its event loop, in the order frames are written, and
 * verifies in the order they arrive.
 */
final class SessionMac {
  private static final String HMAC = "HmacSHA256";
  private final Mac mac;
  private final byte sendDirection;
  private long sent;
  private long received;

  private SessionMac(byte[] key, boolean server) throws GeneralSecurityException {
    this.mac = Mac.getInstance(HMAC);
    mac.init(new SecretKeySpec(key, HMAC));
    this.sendDirection = (byte) (server ? 1 : 0);
  }

  /**
   * The session of one side of a connection.
   *
   * @param secret the cluster secret
   * @param serverNonce the service's nonce
   * @param clientNonce the client's nonce
   * @param server whether this is the service's side
   */
  static SessionMac session(byte[] secret, byte[] serverNonce, byte[] clientNonce, boolean server) {
    try {
      return new SessionMac(proof(secret, "session", serverNonce, clientNonce), server);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  /**
   * A proof of the secret over two nonces, labelled by its purpose so that no proof serves another.
   */
  static byte[] proof(byte[] secret, String label, byte[] first, byte[] second) {
    try {
      Mac m = Mac.getInstance(HMAC);
      m.init(new SecretKeySpec(secret, HMAC));
      m.update(("dtap-cnode-v" + Wire.VERSION + "-" + label).getBytes(StandardCharsets.US_ASCII));
      m.update(first);
      m.update(second);
      return m.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  /**
   * Loads and initializes the JVM's HMAC and random number code, so that a new JVM's first
   * handshake is not timed with it.
   */
  static void warmUp() {
    byte[] nonce = new byte[Wire.NONCE_LENGTH];
    new SecureRandom().nextBytes(nonce);
    session(nonce, nonce, nonce, false).seal(io.netty.buffer.Unpooled.wrappedBuffer(nonce));
  }

  /** Compares two proofs in constant time. */
  static boolean equal(byte[] a, byte[] b) {
    return MessageDigest.isEqual(a, b);
  }

  /**
   * Computes the MAC of the next frame sent.
   *
   * @param frame the frame's type, request id and body, in parts (readable bytes, not consumed)
   * @return the MAC to append
   */
  byte[] seal(ByteBuf... frame) {
    return compute(sendDirection, sent++, frame);
  }

  /**
   * Checks the MAC of the next frame received.
   *
   * @param frame the frame's type, request id and body (readable bytes, not consumed)
   * @param tag the MAC it carried
   * @return whether it is authentic and in sequence
   */
  boolean verify(ByteBuf frame, byte[] tag) {
    byte[] expected = compute((byte) (1 - sendDirection), received++, frame);
    return MessageDigest.isEqual(expected, tag);
  }

  private byte[] compute(byte direction, long sequence, ByteBuf... parts) {
    mac.update(direction);
    for (int i = 7; i >= 0; i--) {
      mac.update((byte) (sequence >>> (8 * i)));
    }
    for (ByteBuf part : parts) {
      if (part.hasArray()) {
        mac.update(part.array(), part.arrayOffset() + part.readerIndex(), part.readableBytes());
      } else {
        for (java.nio.ByteBuffer b : part.nioBuffers()) {
          mac.update(b);
        }
      }
    }
    byte[] full = mac.doFinal();
    byte[] tag = new byte[Wire.MAC_LENGTH];
    System.arraycopy(full, 0, tag, 0, tag.length);
    return tag;
  }
}
