package dev.dtap.cache.cnode;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TestSessionMac {
  private final byte[] secret =
      "a-cluster-secret-of-enough-length".getBytes(StandardCharsets.UTF_8);
  private final byte[] serverNonce = new byte[16];
  private final byte[] clientNonce = new byte[16];

  {
    serverNonce[0] = 1;
    clientNonce[0] = 2;
  }

  private static ByteBuf frame(String s) {
    return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void framesVerifyInOrderAndNothingElseDoes() {
    SessionMac client = SessionMac.session(secret, serverNonce, clientNonce, false);
    SessionMac server = SessionMac.session(secret, serverNonce, clientNonce, true);
    byte[] first = client.seal(frame("lookup one"));
    byte[] second = client.seal(frame("lookup two"));
    assertThat(server.verify(frame("lookup one"), first)).isTrue();
    // a replay of the first frame fails: the sequence moved on (and the connection is closed)
    assertThat(server.verify(frame("lookup one"), first)).isFalse();

    SessionMac fresh = SessionMac.session(secret, serverNonce, clientNonce, true);
    assertThat(fresh.verify(frame("lookup ONE"), first)).as("an altered frame").isFalse();
    SessionMac reordered = SessionMac.session(secret, serverNonce, clientNonce, true);
    assertThat(reordered.verify(frame("lookup two"), second)).as("a dropped frame").isFalse();
    // a frame of the client reflected back to it is not the service's
    SessionMac back = SessionMac.session(secret, serverNonce, clientNonce, false);
    assertThat(back.verify(frame("lookup one"), first)).isFalse();
  }

  @Test
  void anotherSecretOrAnotherConnectionGivesOtherProofs() {
    byte[] proof = SessionMac.proof(secret, "auth", serverNonce, clientNonce);
    assertThat(SessionMac.equal(proof, SessionMac.proof(secret, "auth", serverNonce, clientNonce)))
        .isTrue();
    byte[] other = "another-cluster-secret-of-length".getBytes(StandardCharsets.UTF_8);
    assertThat(SessionMac.equal(proof, SessionMac.proof(other, "auth", serverNonce, clientNonce)))
        .isFalse();
    assertThat(SessionMac.equal(proof, SessionMac.proof(secret, "auth", clientNonce, serverNonce)))
        .isFalse();
    assertThat(
            SessionMac.equal(proof, SessionMac.proof(secret, "server", serverNonce, clientNonce)))
        .as("a proof serves one purpose")
        .isFalse();
  }
}
