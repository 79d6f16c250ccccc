package org.jmpi.bench.rma;

/** What the CG mini-apps' driver ({@link ConjugateGradient#timeAndPrint}) times: the 1-D or the 2-D CG, any version. */
interface CgSolver
{
    /** Zeta after {@code solves} solves of NPB's inverse power iteration. */
    double run(int solves);

    /** ||x - A z|| after the last solve. */
    double residual();

    /** Flops of one solve on this rank. */
    long flopsPerSolve();

    /** Starts timing the phases of the solves (wall ns per phase, {@link #phaseNs()}); a no-op where not timed. */
    default void timePhases()
    {
    }

    /** Wall ns per phase since {@link #timePhases()} (names: {@link ConjugateGradient2D#PHASES}), or null. */
    default long[] phaseNs()
    {
        return null;
    }

    /** Frees what the version holds (collective). */
    void close();
}
