package dev.dtap.fs;

import java.io.IOException;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * A backend listing iterator seen through a tap: each element is translated, optionally filtered on
 * its dtap path, and failures are rewritten to speak dtap. Paging stays the backend's, so a listing
 * of a million objects never sits in memory.
 *
 * <p>Not thread-safe, like every {@link RemoteIterator}.
 *
 * @param <B> backend element type
 * @param <D> dtap element type
 */
final class MappedIterator<B, D> implements RemoteIterator<D>, IOStatisticsSource {
  /** Translation of one element. */
  interface Mapper<B, D> {
    D map(B backendElement) throws IOException;
  }

  /** Rewrites a failure of the backend's listing (naming the listed directory). */
  interface Errors {
    IOException translate(IOException e);
  }

  /** Reads the dtap path of an element, for filtering. */
  interface PathOf<D> {
    Path path(D element);
  }

  private final RemoteIterator<B> backend;
  private final Mapper<B, D> mapper;
  private final PathFilter filter;
  private final PathOf<D> pathOf;
  private final Errors errors;
  private D next;

  MappedIterator(
      RemoteIterator<B> backend,
      Mapper<B, D> mapper,
      PathFilter filter,
      PathOf<D> pathOf,
      Errors errors) {
    this.backend = backend;
    this.mapper = mapper;
    this.filter = filter;
    this.pathOf = pathOf;
    this.errors = errors;
  }

  @Override
  public boolean hasNext() throws IOException {
    try {
      while (next == null && backend.hasNext()) {
        D candidate = mapper.map(backend.next());
        if (filter == null || filter.accept(pathOf.path(candidate))) {
          next = candidate;
        }
      }
      return next != null;
    } catch (IOException e) {
      throw errors.translate(e);
    }
  }

  @Override
  public D next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("No more entries in the listing");
    }
    D out = next;
    next = null;
    return out;
  }

  @Override
  public IOStatistics getIOStatistics() {
    return backend instanceof IOStatisticsSource
        ? ((IOStatisticsSource) backend).getIOStatistics()
        : null;
  }
}
