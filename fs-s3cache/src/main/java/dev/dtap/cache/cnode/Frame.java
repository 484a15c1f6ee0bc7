package dev.dtap.cache.cnode;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCounted;

/**
 * One frame of the protocol ({@link Wire}): type, request id and body. Owns its body: whoever
 * receives a frame releases it (writing it to a channel does). Not thread-safe.
 */
final class Frame {
  final byte type;
  final long requestId;
  final ByteBuf body;

  Frame(byte type, long requestId, ByteBuf body) {
    this.type = type;
    this.requestId = requestId;
    this.body = body;
  }

  /** A frame with an empty body. */
  static Frame of(byte type, long requestId) {
    return new Frame(type, requestId, Unpooled.EMPTY_BUFFER);
  }

  void release() {
    if (body instanceof ReferenceCounted) {
      body.release();
    }
  }

  @Override
  public String toString() {
    return "Frame{type=" + type + ", id=" + requestId + ", body=" + body.readableBytes() + "}";
  }
}
