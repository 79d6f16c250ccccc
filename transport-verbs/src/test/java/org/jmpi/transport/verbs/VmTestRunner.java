package org.jmpi.transport.verbs;

import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.engine.TestExecutionResult;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs JUnit test classes in the soft-RoCE VM without Maven (which would rebuild the reactor under emulation):
 * the host builds the jars and the class path, the VM runs {@code java ... VmTestRunner Class...}
 * ({@code .ci/rdma-smoke.sh}, docs/verbs.md). Arguments are test class names, or {@code pattern:REGEX} for
 * every class on the class path whose name matches, or {@code Class#method}. Prints each test's outcome and a summary; exits 1 when
 * any failed or none ran.
 *
 * <p>Single-threaded main.
 */
public final class VmTestRunner
{
    private VmTestRunner()
    {
    }

    public static void main(final String[] args)
    {
        final LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        final List<String> patterns = new ArrayList<>();
        for (final String arg : args)
        {
            if (arg.startsWith("pattern:"))
            {
                patterns.add(arg.substring("pattern:".length()));
            }
            else if (arg.contains("#"))
            {
                request.selectors(DiscoverySelectors.selectMethod(arg));
            }
            else
            {
                request.selectors(DiscoverySelectors.selectClass(arg));
            }
        }
        if (!patterns.isEmpty())
        {
            request.selectors(DiscoverySelectors.selectClasspathRoots(classpathRoots()));
            request.filters(org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns(patterns.toArray(String[]::new)));
        }
        request.configurationParameter("junit.jupiter.execution.timeout.default", "300 s");
        final LauncherDiscoveryRequest built = request.build();
        final Launcher launcher = LauncherFactory.create();
        final SummaryGeneratingListener summary = new SummaryGeneratingListener();
        final TestExecutionListener printer = new TestExecutionListener()
        {
            @Override
            public void executionFinished(final TestIdentifier test, final TestExecutionResult result)
            {
                if (test.isTest() || result.getStatus() != TestExecutionResult.Status.SUCCESSFUL)
                {
                    System.out.println("VmTestRunner: " + result.getStatus() + " " + test.getDisplayName() + " [" + test.getUniqueId() + "]" +
                        result.getThrowable().map(t -> ": " + t).orElse(""));
                }
            }
        };
        launcher.execute(built, summary, printer);
        final TestExecutionSummary s = summary.getSummary();
        s.printFailuresTo(new PrintWriter(System.out), 30);
        System.out.println("VmTestRunner: tests run " + s.getTestsStartedCount() + ", succeeded " + s.getTestsSucceededCount() +
            ", failed " + s.getTestsFailedCount() + ", aborted " + s.getTestsAbortedCount() + ", skipped " + s.getTestsSkippedCount() +
            " in " + (s.getTimeFinished() - s.getTimeStarted()) + " ms");
        System.exit(s.getTotalFailureCount() == 0 && s.getTestsStartedCount() > 0 ? 0 : 1);
    }

    private static java.util.Set<java.nio.file.Path> classpathRoots()
    {
        final java.util.Set<java.nio.file.Path> roots = new java.util.LinkedHashSet<>();
        for (final String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        {
            roots.add(java.nio.file.Path.of(entry));
        }
        return roots;
    }
}
