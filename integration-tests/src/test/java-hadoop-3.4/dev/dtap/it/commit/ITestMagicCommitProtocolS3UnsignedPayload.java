package dev.dtap.it.commit;

/** The commit protocol scenarios for the magic committer on MinIO with unsigned part payloads. */
class ITestMagicCommitProtocolS3UnsignedPayload extends UnsignedPayloadS3Scenarios {
  ITestMagicCommitProtocolS3UnsignedPayload() {
    super("magic");
  }
}
