package org.jmpi.examples.ddt;

/**
 * The two DDTBench problem sizes measured for each pattern: the middle and the largest of the sizes the
 * original suite runs (the byte counts of /work/shared/baseline/README.md's DDTBench table).
 */
public enum DdtSize
{
    /** DDTBench's middle size. */
    MIDDLE,
    /** DDTBench's largest size. */
    LARGEST
}
