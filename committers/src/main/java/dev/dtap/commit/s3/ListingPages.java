package dev.dtap.commit.s3;

import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.StoreStatistics.Op;
import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.RemoteIterator;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/**
 * A listing of a bucket prefix fetched a page at a time, as the caller consumes it; subclasses say
 * what each page yields. Not thread-safe, as iterators are not.
 *
 * @param <T> what the listing yields
 */
abstract class ListingPages<T> implements RemoteIterator<T> {
  private final S3Client s3;
  private final String bucket;
  private final String prefix;
  private final boolean delimited;
  private final StoreStatistics stats;
  private String token;
  private boolean last;
  private Iterator<T> current = Collections.emptyIterator();

  ListingPages(S3Client s3, String bucket, String prefix, boolean delimited, StoreStatistics stats) {
    this.s3 = s3;
    this.bucket = bucket;
    this.prefix = prefix;
    this.delimited = delimited;
    this.stats = stats;
  }

  abstract Iterator<T> items(ListObjectsV2Response page);

  @Override
  public boolean hasNext() throws IOException {
    while (!current.hasNext() && !last) {
      stats.request(Op.LIST);
      ListObjectsV2Request.Builder b = ListObjectsV2Request.builder().bucket(bucket).prefix(prefix);
      if (delimited) {
        b.delimiter("/");
      }
      if (token != null) {
        b.continuationToken(token);
      }
      ListObjectsV2Response page;
      try {
        page = s3.listObjectsV2(b.build());
      } catch (SdkException e) {
        throw S3Errors.translate("list", where(), e);
      }
      current = items(page);
      token = page.nextContinuationToken();
      last = !Boolean.TRUE.equals(page.isTruncated()) || token == null;
    }
    return current.hasNext();
  }

  @Override
  public T next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("no more objects under " + where());
    }
    return current.next();
  }

  private String where() {
    return S3Errors.where(bucket, prefix);
  }
}
