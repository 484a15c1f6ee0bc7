package dev.dtap.it.commit;

import dev.dtap.commit.CommitTesting;
import dev.dtap.commit.tap.CommitSteps;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * A job driver or task JVM that {@link ITestCommitterCrash} kills:
 *
 * <ul>
 *   <li>{@code commit <conf.xml> <dest> <jobId> <step> <n>}: runs job commit and halts the JVM (as
 *       kill -9 would end it: no finally blocks, no shutdown hooks) when job commit reaches the
 *       step (for {@code completed}, the n-th complete); with step {@code slow} it prints {@code
 *       completed <n>} after each complete and goes slowly, to be killed from outside;
 *   <li>{@code write <conf.xml> <dest> <jobId> <task> <mib>}: a task attempt writing one magic file
 *       of that size, printing {@code written <mib>} as it goes and slowing down after the first
 *       half, to be killed mid-upload;
 *   <li>{@code initiate <conf.xml> <dest> <jobId> <task>}: attempt 0 of the task writing {@code
 *       part-<task>} and committing, which kills itself with SIGKILL once its upload is initiated
 *       and before the upload's journal entry is written, printing {@code killing} first.
 * </ul>
 */
public final class CommitChild {
  private CommitChild() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    try (InputStream in = new FileInputStream(args[1])) {
      conf.addResource(in);
      conf.size(); // load it while the stream is open
    }
    Path dest = new Path(args[2]);
    JobID job = JobID.forName(args[3]);
    if (args[0].equals("commit")) {
      String step = args[4];
      long n = Long.parseLong(args[5]);
      CommitTesting.onCommitStep(
          dest,
          conf,
          (s, count) -> {
            if (step.equals("slow") && s.equals("completed")) {
              System.out.println("completed " + count);
              System.out.flush();
              sleep(40);
            } else if (s.equals(step) && (!s.equals("completed") || count == n)) {
              System.out.println("halting at " + s + " " + count);
              System.out.flush();
              Runtime.getRuntime().halt(137);
            }
          });
      TaskAttemptContext am =
          new TaskAttemptContextImpl(
              conf, new TaskAttemptID(new TaskID(job, TaskType.JOB_SETUP, 0), 0));
      PathOutputCommitterFactory.createCommitter(dest, am).commitJob(new JobContextImpl(conf, job));
      System.out.println("committed");
      System.exit(0);
    }
    int task = Integer.parseInt(args[4]);
    if (args[0].equals("initiate")) {
      initiateAndDie(conf, dest, job, task);
      return;
    }
    int mib = Integer.parseInt(args[5]);
    TaskAttemptContext t =
        new TaskAttemptContextImpl(conf, new TaskAttemptID(new TaskID(job, TaskType.MAP, task), 0));
    PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, t);
    c.setupTask(t);
    Path file = new Path(c.getWorkPath(), "killed-" + task + ".bin");
    byte[] chunk = new byte[1 << 20];
    try (FSDataOutputStream out = file.getFileSystem(conf).create(file, true)) {
      for (int i = 1; i <= mib; i++) {
        out.write(chunk);
        System.out.println("written " + i);
        System.out.flush();
        if (i > mib / 2) {
          sleep(500);
        }
      }
    }
    System.out.println("closed");
    System.exit(0);
  }

  private static void initiateAndDie(Configuration conf, Path dest, JobID job, int task)
      throws Exception {
    CommitTesting.onCommitStep(
        dest,
        conf,
        (s, count) -> {
          if (s.equals(CommitSteps.UPLOAD_INITIATED)) {
            System.out.println("killing");
            System.out.flush();
            String pid = Long.toString(ProcessHandle.current().pid());
            try {
              new ProcessBuilder("kill", "-KILL", pid).inheritIO().start().waitFor();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            Runtime.getRuntime().halt(137); // not reached: SIGKILL ended the JVM
          }
        });
    TaskAttemptContext t =
        new TaskAttemptContextImpl(conf, new TaskAttemptID(new TaskID(job, TaskType.MAP, task), 0));
    PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, t);
    c.setupTask(t);
    Path file = new Path(c.getWorkPath(), "part-" + task);
    try (FSDataOutputStream out = file.getFileSystem(conf).create(file, true)) {
      out.write(CommitTesting.taskLine(task).getBytes(StandardCharsets.UTF_8));
    }
    c.commitTask(t);
    System.out.println("not killed");
    System.exit(1);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
