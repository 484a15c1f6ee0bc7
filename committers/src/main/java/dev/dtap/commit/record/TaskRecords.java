package dev.dtap.commit.record;

import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Task commit records: {@code tasks/<task>/<generation>}. Each generation is claimed with an
 * exclusive create, so two attempts committing the same task at once never overwrite each other and
 * their order is total: the highest generation is the committed attempt, which makes the last
 * committer win, as Hadoop's protocol requires when a committed attempt fails to report and the
 * task is run again. Stateless.
 */
public final class TaskRecords {
  private static final int MAX_GENERATION = 99_999;

  private TaskRecords() {}

  static String key(JobLayout layout, String taskId, int generation) {
    return layout.taskDir(taskId) + String.format(Locale.ROOT, "%05d", generation);
  }

  /**
   * Writes a task's record under the next free generation.
   *
   * @return the record's key
   */
  public static String write(MultipartStore store, JobLayout layout, TaskRecord record)
      throws IOException {
    int gen = 0;
    if (!store.supportsConditionalPut()) {
      // best effort without exclusive creates: start after the highest generation seen
      gen = highest(store, layout.taskDir(record.taskId())) + 1;
    }
    for (; gen <= MAX_GENERATION; gen++) {
      String key = key(layout, record.taskId(), gen);
      byte[] encoded = record.withGeneration(gen).encode();
      if (store.putIfAbsent(key, encoded) || isOurs(store, key, encoded)) {
        return key;
      }
    }
    throw new IOException(
        "Task " + record.taskId() + " has been committed more than " + MAX_GENERATION + " times");
  }

  /**
   * Whether the record a conditional put found is the one it was writing. The store's answer to a
   * put that succeeded can be lost and the put sent again, which then finds the record it wrote:
   * the same bytes, which name this attempt, so no other attempt's record is taken for it.
   */
  private static boolean isOurs(MultipartStore store, String key, byte[] encoded)
      throws IOException {
    return store.get(key).map(b -> Arrays.equals(b, encoded)).orElse(false);
  }

  private static int highest(MultipartStore store, String taskDir) throws IOException {
    int max = -1;
    RemoteIterator<ObjectInfo> it = store.list(taskDir);
    while (it.hasNext()) {
      max = Math.max(max, generation(it.next().key()));
    }
    return max;
  }

  public static int generation(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    try {
      return name.length() == 5 ? Integer.parseInt(name) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * The committed record of every task: the highest generation of each.
   *
   * @return task id to record key, in task order
   */
  public static Map<String, String> winners(MultipartStore store, JobLayout layout)
      throws IOException {
    Map<String, String> winners = new LinkedHashMap<>();
    Map<String, Integer> gens = new LinkedHashMap<>();
    String root = layout.tasksRoot();
    RemoteIterator<ObjectInfo> it = store.list(root);
    while (it.hasNext()) {
      String key = it.next().key();
      String rel = key.substring(root.length());
      int slash = rel.indexOf('/');
      int gen = generation(key);
      if (slash <= 0 || gen < 0) {
        continue; // not a record
      }
      String task = rel.substring(0, slash);
      Integer seen = gens.get(task);
      if (seen == null || gen > seen) {
        gens.put(task, gen);
        winners.put(task, key);
      }
    }
    return winners;
  }
}
