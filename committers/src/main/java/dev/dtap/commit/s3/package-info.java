/**
 * The committers' store on S3A taps: every request through S3A's own S3 client, built by S3A's
 * request factory, in an audit span of the tap's S3A. One bridge per Hadoop line holds all
 * reflection into S3A ({@code S3aV1Access}: Hadoop 3.3, AWS SDK v1; {@code S3aV2Access}: Hadoop 3.4
 * and later, SDK v2), chosen at run time by {@code S3StoreFactory}; errors are classified by type
 * and status ({@code S3Errors}, {@code V1Errors}).
 */
package dev.dtap.commit.s3;
