package dev.dtap.commit.tap;

import java.io.IOException;
import java.util.concurrent.Executor;
import org.apache.hadoop.fs.audit.AuditConstants;
import org.apache.hadoop.fs.audit.CommonAuditContext;

/**
 * Names the job, and the task attempt, on whose behalf the committers' store requests run, in
 * Hadoop's per-thread {@link CommonAuditContext}, as S3A's own committers do. S3A's logging auditor
 * copies that context into the {@code Referer} header of every request made in a span the thread
 * opens ({@code ji=<job>}, {@code ta=<attempt>}), so a store's access log attributes each upload,
 * commit and abort to its job and attempt. Requests run on pool threads as well (part uploads, job
 * commit's completions): {@link #carrying} hands the submitting thread's ids to the pool thread for
 * the length of the work, and gives the pool thread its own back afterwards. A magic file's
 * requests carry the attempt its path names ({@link #callAs}), whichever thread writes it.
 *
 * <p>Thread-safe: each method reads or edits the calling thread's context only.
 */
public final class AuditContext {
  private static final String JOB = AuditConstants.PARAM_JOB_ID;
  private static final String ATTEMPT = AuditConstants.PARAM_TASK_ATTEMPT_ID;

  private AuditContext() {}

  /**
   * Tags this thread's later requests with the job.
   *
   * @param jobUuid the job's unique id, as its layout on the store names it
   */
  public static void enterJob(String jobUuid) {
    CommonAuditContext.currentAuditContext().put(JOB, jobUuid);
  }

  /**
   * Tags this thread's later requests with the job and the task attempt.
   *
   * @param jobUuid the job's unique id
   * @param attemptId the task attempt
   */
  public static void enterTask(String jobUuid, String attemptId) {
    CommonAuditContext context = CommonAuditContext.currentAuditContext();
    context.put(JOB, jobUuid);
    context.put(ATTEMPT, attemptId);
  }

  /**
   * Ends the task attempt's tagging on this thread, which an engine may go on to use for another
   * attempt; the job's stays.
   */
  public static void leaveTask() {
    CommonAuditContext.currentAuditContext().remove(ATTEMPT);
  }

  /**
   * @param pool where work runs
   * @return an executor running each piece of work on {@code pool} tagged with the ids the
   *     submitting thread had when it submitted it
   */
  public static Executor carrying(Executor pool) {
    return work -> {
      CommonAuditContext submitter = CommonAuditContext.currentAuditContext();
      String job = submitter.get(JOB);
      String attempt = submitter.get(ATTEMPT);
      if (job == null && attempt == null) {
        pool.execute(work);
        return;
      }
      pool.execute(() -> runAs(job, attempt, work));
    };
  }

  private static void runAs(String job, String attempt, Runnable work) {
    String[] own = tag(job, attempt);
    try {
      work.run();
    } finally {
      tag(own[0], own[1]);
    }
  }

  /**
   * Runs store requests tagged with a job and task attempt whatever thread runs them, and gives the
   * thread its own ids back afterwards. A magic file knows its attempt from its path, while the
   * thread writing it may be one the task started itself, which never ran the task's setup.
   *
   * @param <T> what the requests return
   * @param job the job's unique id
   * @param attempt the task attempt, or null for the job's own requests
   * @param requests the requests
   * @return what they return
   * @throws IOException what they throw (runtime exceptions pass through as well)
   */
  public static <T> T callAs(String job, String attempt, StoreCall<T> requests) throws IOException {
    String[] own = tag(job, attempt);
    try {
      return requests.call();
    } finally {
      tag(own[0], own[1]);
    }
  }

  /** Sets this thread's ids, null removing one; returns the job and attempt it had. */
  private static String[] tag(String job, String attempt) {
    CommonAuditContext context = CommonAuditContext.currentAuditContext();
    String[] had = {context.get(JOB), context.get(ATTEMPT)};
    set(context, JOB, job);
    set(context, ATTEMPT, attempt);
    return had;
  }

  /** Store requests that may fail. */
  @FunctionalInterface
  public interface StoreCall<T> {
    T call() throws IOException;
  }

  private static void set(CommonAuditContext context, String key, String value) {
    if (value == null) {
      context.remove(key);
    } else {
      context.put(key, value);
    }
  }
}
