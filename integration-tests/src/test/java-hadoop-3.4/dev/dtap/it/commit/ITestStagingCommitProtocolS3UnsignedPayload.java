package dev.dtap.it.commit;

/** The commit protocol scenarios for the staging committer on MinIO with unsigned part payloads. */
class ITestStagingCommitProtocolS3UnsignedPayload extends UnsignedPayloadS3Scenarios {
  ITestStagingCommitProtocolS3UnsignedPayload() {
    super("staging");
  }
}
