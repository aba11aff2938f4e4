package org.locus.jobs;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.locus.jobs.data.ZipfTextGenerator;
import org.locus.jobs.generate.FileIndexInputFormat;

/**
 * The write-heavy workload: a map-only job in which map task {@code i} writes file {@code i} of
 * a Zipf corpus ({@link ZipfTextGenerator}) to HDFS, the way Hadoop's RandomTextWriter or
 * TeraGen load a cluster. Reads nothing; every byte it moves is a write through the HDFS
 * pipeline. File {@code part-m-0000i} holds exactly the bytes the client-side generator writes
 * to its file {@code i} for the same vocabulary, exponent and seed.
 */
public final class WriteCorpus {
  /** Bytes each map task writes. */
  public static final String BYTES_PER_FILE = "locus.job.corpus.bytes.per.file";
  /** Distinct words of the corpus. */
  public static final String VOCABULARY = "locus.job.corpus.vocabulary";
  /** Zipf exponent of the word frequencies. */
  public static final String EXPONENT = "locus.job.corpus.exponent";
  /** Random seed; equal seeds give equal corpora. */
  public static final String SEED = "locus.job.corpus.seed";

  private static final long PROGRESS_EVERY_BYTES = 1 << 20;

  private WriteCorpus() {
  }

  /** Writes the corpus file whose number is the task's one input record. */
  public static class GenerateMapper extends Mapper<IntWritable, NullWritable, Text,
      NullWritable> {
    private final Text line = new Text();

    @Override
    protected void map(IntWritable fileIndex, NullWritable none, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      ZipfTextGenerator generator = new ZipfTextGenerator(conf.getInt(VOCABULARY, 5000),
          conf.getDouble(EXPONENT, 1.0), conf.getLong(SEED, 42));
      long[] sinceProgress = {0};
      long bytes = generator.lines(fileIndex.get(), conf.getLong(BYTES_PER_FILE, 1 << 20), l -> {
        line.set(l);
        try {
          context.write(line, NullWritable.get());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while writing corpus file " + fileIndex, e);
        }
        sinceProgress[0] += l.length() + 1;
        if (sinceProgress[0] >= PROGRESS_EVERY_BYTES) {
          sinceProgress[0] = 0;
          context.progress();
        }
      });
      context.getCounter("locus-corpus", "BYTES_GENERATED").increment(bytes);
    }
  }

  /**
   * Creates (does not submit) a job writing {@code files} files of about
   * {@code bytesPerFile} bytes each into {@code output}.
   */
  public static Job create(Configuration conf, Path output, int files, long bytesPerFile,
      int vocabulary, double exponent, long seed) throws IOException {
    if (files < 1 || bytesPerFile < 1) {
      throw new IllegalArgumentException("a corpus needs at least one file of at least one"
          + " byte, got " + files + " files of " + bytesPerFile + " bytes");
    }
    new ZipfTextGenerator(vocabulary, exponent, seed); // rejects a bad vocabulary or exponent
    Job job = Job.getInstance(conf, "locus-write-corpus");
    job.setJarByClass(WriteCorpus.class);
    Configuration jobConf = job.getConfiguration();
    jobConf.setInt(FileIndexInputFormat.FILES, files);
    jobConf.setLong(BYTES_PER_FILE, bytesPerFile);
    jobConf.setInt(VOCABULARY, vocabulary);
    jobConf.setDouble(EXPONENT, exponent);
    jobConf.setLong(SEED, seed);
    job.setInputFormatClass(FileIndexInputFormat.class);
    job.setMapperClass(GenerateMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
