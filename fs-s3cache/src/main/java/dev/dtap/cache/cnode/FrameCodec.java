package dev.dtap.cache.cnode;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.MessageToMessageEncoder;
import io.netty.util.AttributeKey;
import java.util.List;

/**
 * Frames to bytes and back ({@link Wire}), sealing every frame once the connection's session is
 * established and refusing any frame whose MAC or sequence is wrong. The handlers run on the
 * connection's event loop, so frames are sealed in the order they go out and verified in the order
 * they come in.
 */
final class FrameCodec {
  /** The session of a connection, set once the handshake succeeded. */
  static final AttributeKey<SessionMac> SESSION = AttributeKey.valueOf("dtap.cnode.session");

  private FrameCodec() {}

  /** Adds the framing handlers to a new connection's pipeline. */
  static void install(Channel ch) {
    ch.pipeline()
        .addLast("frames", new Frames())
        .addLast("decoder", new Decoder())
        .addLast("encoder", new Encoder());
  }

  /** A frame that fails its MAC, is out of sequence, or comes before the session. */
  static final class AuthenticationException extends CorruptedFrameException {
    private static final long serialVersionUID = 1L;

    AuthenticationException(String message) {
      super(message);
    }
  }

  /**
   * Splits the stream into frames of up to {@link Wire#MAX_FRAME} bytes once the session is
   * established, and of a handshake's few bytes before: a peer that has not proved it knows the
   * secret cannot make the service buffer megabytes.
   */
  static final class Frames extends LengthFieldBasedFrameDecoder {
    /** The largest frame before authentication; handshake frames are under 100 bytes. */
    static final int MAX_HANDSHAKE_FRAME = 256;

    Frames() {
      super(Wire.MAX_FRAME, 0, 4, 0, 4);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
      if (in.readableBytes() >= 4
          && ctx.channel().attr(SESSION).get() == null
          && in.getUnsignedInt(in.readerIndex()) > MAX_HANDSHAKE_FRAME) {
        long length = in.getUnsignedInt(in.readerIndex());
        in.skipBytes(in.readableBytes()); // nothing is left to decode once the connection closes
        throw new AuthenticationException("a frame of " + length + " bytes before authentication");
      }
      return super.decode(ctx, in);
    }
  }

  static final class Encoder extends MessageToMessageEncoder<Frame> {
    @Override
    protected void encode(ChannelHandlerContext ctx, Frame f, List<Object> out) {
      ByteBuf head = ctx.alloc().buffer(4 + Wire.HEADER_LENGTH);
      head.writeInt(Wire.HEADER_LENGTH + f.body.readableBytes() + Wire.MAC_LENGTH);
      head.writeByte(f.type);
      head.writeLong(f.requestId);
      SessionMac session = ctx.channel().attr(SESSION).get();
      byte[] tag =
          session == null
              ? new byte[Wire.MAC_LENGTH]
              : session.seal(head.slice(4, Wire.HEADER_LENGTH), f.body);
      CompositeByteBuf frame = ctx.alloc().compositeBuffer(3);
      frame.addComponent(true, head);
      frame.addComponent(true, f.body); // the frame's reference passes to the composite
      frame.addComponent(true, ctx.alloc().buffer(tag.length).writeBytes(tag));
      out.add(frame);
    }
  }

  static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      int length = in.readableBytes();
      if (length < Wire.HEADER_LENGTH + Wire.MAC_LENGTH) {
        throw new CorruptedFrameException("frame of " + length + " bytes");
      }
      int contentLength = length - Wire.MAC_LENGTH;
      ByteBuf content = in.slice(in.readerIndex(), contentLength);
      SessionMac session = ctx.channel().attr(SESSION).get();
      byte type = content.getByte(0);
      if (session != null) {
        byte[] tag = new byte[Wire.MAC_LENGTH];
        in.getBytes(in.readerIndex() + contentLength, tag);
        if (!session.verify(content, tag)) {
          throw new AuthenticationException("a frame failed its MAC");
        }
      } else if (type != Wire.HELLO && type != Wire.AUTH && type != Wire.AUTH_OK) {
        throw new AuthenticationException("a request before authentication");
      }
      long id = content.getLong(1);
      ByteBuf body = content.retainedSlice(Wire.HEADER_LENGTH, contentLength - Wire.HEADER_LENGTH);
      out.add(new Frame(type, id, body));
    }
  }
}
