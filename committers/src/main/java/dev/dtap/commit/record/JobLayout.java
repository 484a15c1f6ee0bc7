package dev.dtap.commit.record;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a job's commit data lives in the destination's store, all under one hidden directory next
 * to the output, {@code <dest>/__dtap_job-<uuid>/}:
 *
 * <ul>
 *   <li>{@code journal/<task>/<attempt>/<entry>}: one entry per upload, written before its data;
 *   <li>{@code tasks/<task>/<generation>}: task commit records, the highest generation of a task
 *       winning (see {@link TaskRecords});
 *   <li>{@code closed/<task>/<attempt>/<entry>}: what a magic stream left for task commit when the
 *       filesystem that committed could not be the one that wrote (the dtap filesystem cache
 *       disabled), one per closed file;
 *   <li>{@code commit}: the commit intent;
 *   <li>{@code probe}: the conditional-write check of job setup.
 * </ul>
 *
 * Hadoop's input formats skip names starting with {@code _}, so readers of the destination never
 * see these. Immutable.
 */
public final class JobLayout {
  public static final String JOB_DIR_PREFIX = "__dtap_job-";
  private static final AtomicLong ENTRIES = new AtomicLong();

  private final String destPrefix;
  private final String uuid;
  private final String jobDir;

  /**
   * @param destKey the destination's key in the store, without trailing slash ("" for the bucket
   *     root)
   * @param uuid the job's unique id
   */
  public JobLayout(String destKey, String uuid) {
    this.destPrefix = destKey.isEmpty() ? "" : destKey + "/";
    this.uuid = uuid;
    this.jobDir = destPrefix + JOB_DIR_PREFIX + uuid + "/";
  }

  /**
   * @return the layout of the job known by {@code other} on the same destination
   */
  public JobLayout forJob(String other) {
    return new JobLayout(
        destPrefix.isEmpty() ? "" : destPrefix.substring(0, destPrefix.length() - 1), other);
  }

  public String uuid() {
    return uuid;
  }

  /**
   * @return the destination's key prefix, "" or ending with "/"
   */
  public String destPrefix() {
    return destPrefix;
  }

  public String jobDir() {
    return jobDir;
  }

  public String journalRoot() {
    return jobDir + "journal/";
  }

  /**
   * @return the journal directory of a task: its attempts' directories are under it
   */
  String journalTaskDir(String taskId) {
    return journalRoot() + taskId + "/";
  }

  public String journalDir(String attempt) {
    return journalTaskDir(taskOf(attempt)) + attempt + "/";
  }

  /**
   * @return where an attempt's magic streams record their closed files, by journal entry name
   */
  public String closedDir(String attempt) {
    return jobDir + "closed/" + taskOf(attempt) + "/" + attempt + "/";
  }

  /**
   * The task an attempt belongs to.
   *
   * @param attempt a task attempt id
   * @return its task id; the attempt id itself when it is not in Hadoop's format
   */
  public static String taskOf(String attempt) {
    try {
      return org.apache.hadoop.mapreduce.TaskAttemptID.forName(attempt).getTaskID().toString();
    } catch (IllegalArgumentException e) {
      return attempt;
    }
  }

  /**
   * Whether an attempt was preceded by another attempt of its task (a retry or a speculative copy).
   *
   * @param attempt a task attempt id
   * @return true if its attempt number is above 0; false when it is not in Hadoop's format
   */
  public static boolean isLaterAttempt(String attempt) {
    try {
      return org.apache.hadoop.mapreduce.TaskAttemptID.forName(attempt).getId() > 0;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * @return a journal entry name no other writer uses
   */
  public static String newEntryName() {
    return String.format(
        Locale.ROOT, "%08d-%08x", ENTRIES.incrementAndGet(), ThreadLocalRandom.current().nextInt());
  }

  /**
   * @return where the keys of initiates sent more than once are noted, for the job's end to abort
   *     what their earlier sends started
   */
  public String resentDir() {
    return jobDir + "resent/";
  }

  String tasksRoot() {
    return jobDir + "tasks/";
  }

  public String taskDir(String taskId) {
    return tasksRoot() + taskId + "/";
  }

  public String intent() {
    return jobDir + "commit";
  }

  public String probe() {
    return jobDir + "probe";
  }

  public String success() {
    return destPrefix + "_SUCCESS";
  }

  /**
   * @param key a key in the store
   * @return whether it is part of some job's commit data (ours or another job's)
   */
  public static boolean isCommitData(String destPrefix, String key) {
    String rel = key.substring(destPrefix.length());
    return rel.startsWith(JOB_DIR_PREFIX) || rel.startsWith(MagicPaths.MAGIC_PREFIX);
  }
}
