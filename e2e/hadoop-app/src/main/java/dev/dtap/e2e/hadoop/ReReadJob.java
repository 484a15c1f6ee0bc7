package dev.dtap.e2e.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A user's job whose map tasks each read one whole input file: {@code tasks} maps, each in a task
 * JVM of its own (one line of a generated list each), each writing the CRC-32 and length of what it
 * read, and how many reads and bytes its filesystem's cache took from the backend (0 0 without
 * dtap's cache). Shared reference data (a dimension table, a model) is read this way.
 *
 * <p>Arguments: the file to read, the output directory, the number of map tasks.
 */
public final class ReReadJob extends Configured implements Tool {
  /** Counter group of the job. */
  public static final String GROUP = "ReReadJob";

  /** Reads the file once per input line. */
  public static final class ReadMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context)
        throws IOException, InterruptedException {
      Path file = new Path(context.getConfiguration().get("dtap.reread.file"));
      FileSystem fs = file.getFileSystem(context.getConfiguration());
      CRC32 crc = new CRC32();
      long bytes = 0;
      byte[] buf = new byte[1 << 20];
      try (FSDataInputStream in = fs.open(file)) {
        int n;
        while ((n = in.read(buf)) > 0) {
          crc.update(buf, 0, n);
          bytes += n;
        }
      }
      context.getCounter(GROUP, "bytes read").increment(bytes);
      IOStatistics stats = IOStatisticsSupport.retrieveIOStatistics(fs);
      Map<String, Long> c = stats == null ? Collections.emptyMap() : stats.counters();
      context.write(
          value,
          new Text(
              crc.getValue()
                  + " "
                  + bytes
                  + " "
                  + c.getOrDefault("dtap_cache_backend_reads", 0L)
                  + " "
                  + c.getOrDefault("dtap_cache_bytes_from_backend", 0L)));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Path file = new Path(args[0]);
    Path out = new Path(args[1]);
    int tasks = Integer.parseInt(args[2]);
    Configuration conf = getConf();
    conf.set("dtap.reread.file", file.toString());
    conf.setInt(NLineInputFormat.LINES_PER_MAP, 1);
    Path list = new Path(out.getParent(), out.getName() + "-tasks.txt");
    FileSystem listFs = list.getFileSystem(conf);
    try (FSDataOutputStream o = listFs.create(list, true)) {
      for (int i = 0; i < tasks; i++) {
        o.write(("task-" + i + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    Job job = Job.getInstance(conf, "re-read " + file.getName() + " in " + tasks + " tasks");
    job.setJarByClass(ReReadJob.class);
    job.setMapperClass(ReadMapper.class);
    job.setNumReduceTasks(0);
    job.setInputFormatClass(NLineInputFormat.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    NLineInputFormat.addInputPath(job, list);
    TextOutputFormat.setOutputPath(job, out);
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ReReadJob(), args));
  }
}
