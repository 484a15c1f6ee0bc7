package dev.dtap.commit;

import dev.dtap.commit.config.CommitterConfig;
import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.config.ConflictMode;
import dev.dtap.commit.job.CommitContext;
import dev.dtap.commit.job.JobAbort;
import dev.dtap.commit.job.JobCommit;
import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.PendingFile;
import dev.dtap.commit.record.TaskRecord;
import dev.dtap.commit.record.TaskRecords;
import dev.dtap.commit.tap.AttemptFiles;
import dev.dtap.commit.tap.AuditContext;
import dev.dtap.commit.tap.CommitTap;
import dev.dtap.commit.tap.Uninterrupted;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the magic and staging committers share: the job's layout on the destination store, job
 * setup, task commit records, job commit, abort and cleanup. Subclasses decide where tasks write
 * and how their files become uploads.
 *
 * <p>A committer instance is used by one thread at a time, as Hadoop's committers are.
 */
abstract class DtapCommitter extends PathOutputCommitter implements StreamCapabilities {
  private static final Logger LOG = LoggerFactory.getLogger(DtapCommitter.class);
  static final String SPARK_UUID = "spark.sql.sources.writeJobUUID";

  /** The capability Spark's PathOutputCommitProtocol asks for before a dynamic overwrite. */
  static final String DYNAMIC_PARTITIONING = "mapreduce.job.committer.dynamic.partitioning";

  /** The staging directory Spark names as a dynamic overwrite's output directory. */
  static final String SPARK_STAGING_PREFIX = ".spark-staging-";

  final Configuration conf;

  /** Rebound once, by {@link #bindJob}, when job commit names the job otherwise than setup did. */
  CommitContext ctx;

  final TaskAttemptID attempt;

  DtapCommitter(Path outputPath, TaskAttemptContext context, String name) throws IOException {
    super(outputPath, context);
    this.conf = context.getConfiguration();
    CommitterConfig config = CommitterConfig.parse(conf);
    FileSystem fs = outputPath.getFileSystem(conf);
    Path dest = fs.makeQualified(outputPath);
    if (isDynamicPartitionOverwrite(conf, dest)) {
      config = config.forDynamicPartitionOverwrite();
    }
    CommitTap tap = CommitTap.of(fs, "The dtap " + name + " committer");
    String jobId = context.getJobID() == null ? null : context.getJobID().toString();
    JobLayout layout = new JobLayout(tap.key(dest), jobUuid(conf, jobId, config));
    // Spark's driver gives its job context no JobID: the job is known by its write uuid
    this.ctx =
        new CommitContext(
            tap,
            tap.store(name),
            layout,
            jobId != null ? jobId : layout.uuid(),
            dest,
            config,
            name);
    this.attempt = context.getTaskAttemptID();
    AuditContext.enterJob(layout.uuid());
  }

  /**
   * Whether this job is a Spark dynamic partition overwrite: Spark then names as the job's output
   * directory a staging directory under the destination ({@code .spark-staging-<job>}) and leaves
   * replacing the partitions to the committer, which job commit does without renames.
   */
  static boolean isDynamicPartitionOverwrite(Configuration conf, Path dest) {
    String out = conf.getTrimmed(org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.OUTDIR);
    if (out == null) {
      return false;
    }
    Path p = new Path(out);
    return p.getName().startsWith(SPARK_STAGING_PREFIX)
        && p.getParent() != null
        && p.getParent().toUri().getPath().equals(dest.toUri().getPath());
  }

  /**
   * Dynamic partition overwrite, which job commit carries out (see {@link
   * #isDynamicPartitionOverwrite}).
   */
  @Override
  public boolean hasCapability(String capability) {
    return DYNAMIC_PARTITIONING.equals(capability);
  }

  /**
   * Binds this committer to the job the given context names. Spark 4.2 sets a write's job up before
   * it puts the write uuid into the job's configuration, so the driver's committer, made at setup,
   * knows the job by its MapReduce id while every task, made later, knows it by the uuid; the
   * context Spark hands to job commit and abort carries the uuid, and the job is the one its tasks
   * wrote under. Setup leaves nothing under the job's directory, so nothing is orphaned.
   */
  private void bindJob(JobContext context) throws IOException {
    if (context != null && context.getConfiguration() != null) {
      String uuid = jobUuid(context.getConfiguration(), ctx.jobId(), ctx.config());
      if (!uuid.equals(ctx.layout().uuid())) {
        LOG.info(
            "Job {} of {} is committed as write {}, the id its tasks wrote under",
            ctx.layout().uuid(),
            ctx.dest(),
            uuid);
        ctx.tap().attempts().releaseJob(ctx.layout());
        ctx = ctx.forJob(uuid);
      }
    }
    AuditContext.enterJob(ctx.layout().uuid());
  }

  /** The job's unique id: the configured one, Spark's write uuid, or the MapReduce job id. */
  static String jobUuid(Configuration conf, String jobId, CommitterConfig config)
      throws IOException {
    if (config.uuidOverride() != null) {
      return config.uuidOverride();
    }
    String spark = conf.getTrimmed(SPARK_UUID);
    if (spark != null && !spark.isEmpty()) {
      if (!CommitterConfig.isJobId(spark)) {
        throw new IOException("Invalid " + SPARK_UUID + " '" + spark + "': expected a UUID");
      }
      return spark;
    }
    if (jobId == null) {
      throw new IOException(
          "The job has no id: set "
              + CommitterKeys.UUID.name()
              + ", or "
              + SPARK_UUID
              + " as Spark does");
    }
    return jobId;
  }

  @Override
  public Path getOutputPath() {
    return ctx.dest();
  }

  String attemptId(TaskAttemptContext context) {
    return context.getTaskAttemptID().toString();
  }

  /**
   * Tags this thread's store requests with the job and the task attempt until {@link
   * AuditContext#leaveTask}: a task's setup, commit and abort begin with it.
   */
  void enterTask(TaskAttemptContext context) {
    AuditContext.enterTask(ctx.layout().uuid(), attemptId(context));
  }

  String attemptKey(TaskAttemptContext context) {
    return AttemptFiles.key(ctx.layout(), attemptId(context));
  }

  @Override
  public void setupJob(JobContext context) throws IOException {
    AuditContext.enterJob(ctx.layout().uuid());
    if (ctx.store().supportsConditionalPut()) {
      checkConditionalPut();
    }
    if (ctx.config().conflictMode() == ConflictMode.FAIL && !ctx.config().partitioned()) {
      String existing = firstOutput(ctx.layout().destPrefix());
      if (existing != null) {
        throw new FileAlreadyExistsException(
            "Output directory "
                + ctx.dest()
                + " already has output ("
                + ctx.displayPath(existing)
                + ") and "
                + CommitterKeys.CONFLICT_MODE.name()
                + " is fail");
      }
    }
  }

  /** Exclusive task commit records rely on conditional writes: check once per job. */
  private void checkConditionalPut() throws IOException {
    ConditionalPutProbe.check(
        ctx.store(),
        ctx.layout().probe() + "-" + Long.toHexString(System.nanoTime()),
        ctx.tap().name());
  }

  /**
   * @return the first output object under a prefix (commit data excluded), or null
   */
  String firstOutput(String prefix) throws IOException {
    RemoteIterator<dev.dtap.commit.store.ObjectInfo> it = ctx.store().list(prefix);
    while (it.hasNext()) {
      String key = it.next().key();
      if (!JobLayout.isCommitData(ctx.layout().destPrefix(), key)) {
        return key;
      }
    }
    return null;
  }

  /**
   * Whether the attempt has output to commit. MapReduce asks every task, the map tasks of a job
   * with reducers included, and a task that answers yes waits for the application master's leave to
   * commit, which it polls once a second: an attempt that wrote nothing answers no, as Hadoop's
   * file committer does, and leaves no record (job commit reads the records there are).
   *
   * @param context the task attempt
   * @return true if the attempt wrote output, or may have
   * @throws IOException if the store cannot be asked
   */
  @Override
  public abstract boolean needsTaskCommit(TaskAttemptContext context) throws IOException;

  /**
   * Writes the task's record, making its files part of the job's output at job commit.
   *
   * @param context the task attempt
   * @param files the attempt's pending uploads
   * @throws IOException on failure
   */
  void commitRecord(TaskAttemptContext context, List<PendingFile> files) throws IOException {
    List<String> partitions = partitions(files);
    if (ctx.config().partitioned() && ctx.config().conflictMode() == ConflictMode.FAIL) {
      for (String p : partitions) {
        String existing = firstOutput(ctx.layout().destPrefix() + (p.isEmpty() ? "" : p + "/"));
        if (existing != null) {
          throw new FileAlreadyExistsException(
              "Partition "
                  + ctx.displayPath(ctx.layout().destPrefix() + p)
                  + " already has output ("
                  + ctx.displayPath(existing)
                  + ") and "
                  + CommitterKeys.CONFLICT_MODE.name()
                  + " is fail");
        }
      }
    }
    String attemptId = attemptId(context);
    TaskRecord record =
        new TaskRecord(
            ctx.layout().uuid(),
            JobLayout.taskOf(attemptId),
            attemptId,
            0,
            System.currentTimeMillis(),
            partitions,
            files);
    String key = TaskRecords.write(ctx.store(), ctx.layout(), record);
    LOG.debug("Committed task attempt {}: {} files in {}", attemptId, files.size(), key);
  }

  private List<String> partitions(List<PendingFile> files) {
    Set<String> parts = new LinkedHashSet<>();
    int strip = ctx.layout().destPrefix().length();
    for (PendingFile f : files) {
      String rel = f.key().substring(strip);
      int slash = rel.lastIndexOf('/');
      parts.add(slash < 0 ? "" : rel.substring(0, slash));
    }
    return new ArrayList<>(parts);
  }

  /**
   * Whether an attempt has already committed (a repeated task commit): one of its task's records
   * names it. Asked of the store, which only a repeated commit, or one without any file written in
   * this JVM, pays for.
   *
   * @param attemptId the attempt
   * @return true if a record of the attempt exists
   * @throws IOException if the store cannot be read
   */
  boolean alreadyCommitted(String attemptId) throws IOException {
    RemoteIterator<dev.dtap.commit.store.ObjectInfo> it =
        ctx.store().list(ctx.layout().taskDir(JobLayout.taskOf(attemptId)));
    while (it.hasNext()) {
      String key = it.next().key();
      if (TaskRecords.generation(key) >= 0 && ctx.record(key).attemptId().equals(attemptId)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    enterTask(context);
    try {
      String attemptId = attemptId(context);
      // an engine aborts a task it killed on the task's own, interrupted, thread
      Uninterrupted.call(
          () -> {
            List<String> entries = new ArrayList<>();
            RemoteIterator<dev.dtap.commit.store.ObjectInfo> it =
                ctx.store().list(ctx.layout().journalDir(attemptId));
            while (it.hasNext()) {
              String key = it.next().key();
              ctx.abortJournaled(key);
              entries.add(key);
            }
            if (!entries.isEmpty()) {
              ctx.store().delete(entries);
            }
            return null;
          });
      ctx.tap().attempts().release(attemptKey(context));
    } finally {
      AuditContext.leaveTask();
    }
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    bindJob(context);
    try {
      new JobCommit(ctx).run();
    } finally {
      ctx.tap().attempts().releaseJob(ctx.layout());
    }
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    bindJob(context);
    try {
      JobAbort.abort(ctx, true);
    } finally {
      ctx.tap().attempts().releaseJob(ctx.layout());
    }
  }

  /**
   * Discards whatever the job left that was not committed. A job whose commit began and did not
   * finish is left for a repeated commit or for {@code dtap committer recover}.
   */
  @Override
  public void cleanupJob(JobContext context) throws IOException {
    bindJob(context);
    ctx.tap().attempts().releaseJob(ctx.layout());
    if (ctx.intent().isPresent()) {
      LOG.warn(
          "Job {} has a commit in progress in {}; leaving it for recovery",
          ctx.layout().uuid(),
          ctx.dest());
      return;
    }
    JobAbort.abort(ctx, false);
  }

  @Override
  public boolean isRecoverySupported() {
    return true;
  }

  @Override
  public boolean isRecoverySupported(JobContext context) {
    return true;
  }

  /** A committed task's record is already durable on the store: nothing to redo. */
  @Override
  public void recoverTask(TaskAttemptContext context) {}

  /** Job commit resumes from its intent, so an AM restarted during commit may run it again. */
  @Override
  public boolean isCommitJobRepeatable(JobContext context) {
    return true;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName()
        + "{dest="
        + ctx.dest()
        + ", job="
        + ctx.layout().uuid()
        + "}";
  }
}
