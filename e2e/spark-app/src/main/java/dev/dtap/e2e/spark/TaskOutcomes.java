package dev.dtap.e2e.spark;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.Success$;
import org.apache.spark.TaskCommitDenied;
import org.apache.spark.TaskKilled;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.SparkSession;

/**
 * Counts how the job's task attempts ended (succeeded, failed, killed, denied commit) and how many
 * speculative attempts were launched. A speculative attempt is counted when it starts: the one the
 * original attempt beats is killed after the job ends, and its end may come after the count.
 */
final class TaskOutcomes extends SparkListener {
  private final SparkSession spark;
  private final AtomicInteger succeeded = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private final AtomicInteger killed = new AtomicInteger();
  private final AtomicInteger denied = new AtomicInteger();
  private final AtomicInteger speculative = new AtomicInteger();

  private TaskOutcomes(SparkSession spark) {
    this.spark = spark;
  }

  static TaskOutcomes listen(SparkSession spark) {
    TaskOutcomes outcomes = new TaskOutcomes(spark);
    spark.sparkContext().addSparkListener(outcomes);
    return outcomes;
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart start) {
    if (start.taskInfo().speculative()) {
      speculative.incrementAndGet();
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    Object reason = end.reason();
    if (reason == Success$.MODULE$) {
      succeeded.incrementAndGet();
    } else if (reason instanceof TaskKilled) {
      killed.incrementAndGet();
    } else if (reason instanceof TaskCommitDenied) {
      denied.incrementAndGet();
    } else {
      failed.incrementAndGet();
    }
  }

  /** Prints the counts once every event of the job has reached this listener. */
  void print() throws TimeoutException {
    spark.sparkContext().listenerBus().waitUntilEmpty();
    SparkJobs.result(
        String.format(
            "TASKS succeeded=%d failed=%d killed=%d denied=%d speculative=%d",
            succeeded.get(), failed.get(), killed.get(), denied.get(), speculative.get()));
  }
}
