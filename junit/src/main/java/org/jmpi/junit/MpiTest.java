package org.jmpi.junit;

import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

/**
 * A JUnit 5 test of multi-rank code: the method runs once per entry of {@link #ranks()}, each time as
 * that many ranks, which are threads of the test JVM joined in one jmpi job. Every rank calls the
 * method with its own world communicator:
 *
 * <pre>{@code
 * @MpiTest(ranks = {1, 2, 4})
 * void sumsOverTheWorld(Comm comm)
 * {
 *     long[] sum = new long[1];
 *     comm.allreduce(new long[] {comm.rank()}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
 *     assertEquals((long)comm.size() * (comm.size() - 1) / 2, sum[0]);
 * }
 * }</pre>
 *
 * <ul>
 * <li>The method takes one {@link org.jmpi.Comm} parameter; JUnit resolves any others (such as
 * {@code TestInfo}) once and every rank gets the same values. All ranks share the test instance, so
 * its fields are shared between ranks as between threads.</li>
 * <li>Each rank initialises jmpi with {@link #threadLevel()} and finalizes it when the method returns;
 * the world communicator's error handler is {@code ERRORS_RETURN}, so a failed MPI call throws
 * {@link org.jmpi.MpiException} in the rank that made it.</li>
 * <li>A rank that throws fails the test with {@code rank R of N failed: ...}, the exception as cause;
 * the other ranks are stopped (their blocking calls throw {@code ERR_PROC_ABORTED}).</li>
 * <li>Ranks still running after {@link #timeout()} fail the test with every rank's stack.</li>
 * <li>{@code @BeforeEach}, {@code @AfterEach} and other extensions run once per rank count, on JUnit's
 * thread, not per rank.</li>
 * </ul>
 *
 * <p>The test JVM needs jmpi's JVM flags ({@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
 * --enable-native-access=ALL-UNNAMED}, in Surefire's {@code argLine} or Gradle's {@code jvmArgs});
 * without them the test fails at once with a message saying so.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(MpiTestExtension.class)
public @interface MpiTest
{
    /** The job sizes to run the method at, once each, in this order; each at least 1. */
    int[] ranks() default {1, 2, 3, 4};

    /** How long the ranks of one run may take, in {@link #timeoutUnit()}; at least 1. */
    long timeout() default 60;

    /** The unit of {@link #timeout()}. */
    TimeUnit timeoutUnit() default TimeUnit.SECONDS;

    /** The thread level every rank initialises jmpi with. */
    ThreadLevel threadLevel() default ThreadLevel.SINGLE;
}
