/*
 * The percentile columns of bench's Percentiles.java (p50, p90, p99, p99.9, max, in us), from an array of
 * samples in seconds, sorted here in place. Rank rule as HdrHistogram's getValueAtPercentile (2.2): the
 * smallest sample with at least ceil(p/100 * count) samples at or below it (at least the first), the
 * nearest-rank percentile.
 */
#ifndef JMPI_BENCH_PERCENTILES_H
#define JMPI_BENCH_PERCENTILES_H
#include <stdio.h>
#include <stdlib.h>

static int jmpi_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double jmpi_percentile(const double *sorted, long count, double p)
{
    double exact = p / 100.0 * count - 1e-9; /* as HdrHistogram, a product that is a whole number up to rounding stays one */
    long rank = (long)exact;
    if ((double)rank < exact) rank++;
    if (rank < 1) rank = 1;
    if (rank > count) rank = count;
    return sorted[rank - 1];
}

#define JMPI_PERCENTILES_HEADER "   p50 (us)    p90 (us)    p99 (us)  p99.9 (us)    max (us)"

/* Prints the five columns (samples in seconds divided by divisor), without a newline. */
static void jmpi_print_percentiles(double *samples, long count, double divisor)
{
    static const double ps[] = {50.0, 90.0, 99.0, 99.9};
    qsort(samples, count, sizeof(double), jmpi_compare_doubles);
    for (int i = 0; i < 4; i++)
    {
        printf("%11.2f ", jmpi_percentile(samples, count, ps[i]) * 1e6 / divisor);
    }
    printf("%11.2f", samples[count - 1] * 1e6 / divisor);
}
#endif
