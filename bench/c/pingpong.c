/*
 * Ping-pong latency between ranks 0 and 1, the method of osu_latency: per size a warm-up, then
 * iterations of send/recv round trips; prints one-way latency (half the mean round trip) and the median
 * one-way latency of single round trips, in the same format as bench's OsuLatency, so
 * bench/latency-vs-c.sh can put the two side by side.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int rank, size;
    long max_bytes = argc > 1 ? atol(argv[1]) : 4L << 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *buf = malloc(max_bytes > 0 ? max_bytes : 1);
    memset(buf, 1, max_bytes > 0 ? max_bytes : 1);
    if (rank == 0)
    {
        printf("# C MPI ping-pong latency (%d ranks)\n# %-12s %14s %18s %13s\n", size, "Size", "Latency (us)",
            "Bandwidth (MB/s)", "Median (us)");
    }
    for (long bytes = 0; bytes <= max_bytes; bytes = bytes == 0 ? 1 : bytes * 2)
    {
        int large = bytes > 64 * 1024;
        int iterations = large ? 200 : 20000;
        int warmup = large ? 20 : 5000;
        double start = 0, last = 0;
        double *round_trip = malloc(sizeof(double) * iterations);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < iterations + warmup; i++)
        {
            if (i == warmup)
            {
                start = MPI_Wtime();
                last = start;
            }
            if (rank == 0)
            {
                MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            else if (rank == 1)
            {
                MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
            if (i >= warmup)
            {
                double now = MPI_Wtime();
                round_trip[i - warmup] = now - last;
                last = now;
            }
        }
        if (rank == 0)
        {
            double us = (MPI_Wtime() - start) * 1e6 / (2.0 * iterations);
            qsort(round_trip, iterations, sizeof(double), compare_doubles);
            printf("%-14ld %14.2f %18.2f %13.2f\n", bytes, us, bytes / us, round_trip[iterations / 2] * 1e6 / 2.0);
        }
        free(round_trip);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
