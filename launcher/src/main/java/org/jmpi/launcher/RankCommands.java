package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.JvmFlags;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines the launcher starts JVMs with: a rank, a {@link HostJob} carrying a host's ranks, a
 * {@link JobCleanup} on another host. Stateless; any thread.
 */
final class RankCommands
{
    private RankCommands()
    {
    }

    /** {@code java <jmpi's JVM flags> <--jvm-args> -D<param>=<value>...}: how every rank JVM starts. */
    static List<String> java(final LaunchOptions options)
    {
        final List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(JvmFlags.FLAGS);
        command.addAll(options.jvmArgs());
        options.params().forEach((name, value) -> command.add("-D" + name + "=" + value));
        return command;
    }

    /**
     * The command line that starts one rank JVM of {@code options}' job: jmpi's class path first, then the user's
     * (so jmpi runs with the libraries it was built with, and the JDK can check the rank JVMs' ahead-of-time cache
     * of jmpi's classes against the class path: {@link AotCache}).
     */
    static List<String> rank(final LaunchOptions options, final List<String> jmpiClassPath)
    {
        final List<String> command = java(options);
        final List<String> classPath = new ArrayList<>(jmpiClassPath);
        classPath.addAll(options.classPath());
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(options.mainClass());
        command.addAll(options.appArgs());
        return command;
    }

    /** {@code java ... -cp <jmpi> org.jmpi.launcher.HostJob <user class path> Main args}: the user's classes load per rank. */
    static List<String> hostJob(final LaunchOptions options, final List<String> jmpiClassPath)
    {
        final List<String> command = java(options);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, jmpiClassPath));
        command.add(HostJob.class.getName());
        command.add(String.join(File.pathSeparator, options.classPath()));
        command.add(options.mainClass());
        command.addAll(options.appArgs());
        return command;
    }

    /** {@code java -D<param>=<value>... -cp <jmpi> org.jmpi.launcher.JobCleanup <jobId>}: removes a job's files on a host. */
    static List<String> cleanup(final LaunchOptions options, final List<String> jmpiClassPath, final String jobId)
    {
        final List<String> command = new ArrayList<>();
        command.add(javaBinary());
        options.params().forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, jmpiClassPath));
        command.add(JobCleanup.class.getName());
        command.add(jobId);
        return command;
    }

    private static String javaBinary()
    {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
