/*
 * Ping-pong latency between ranks 0 and 1, the method of osu_latency and of bench's OsuLatency: a JIT
 * warm-up of the same shape as JitWarmup.java (meaningless for C, kept so both sides run one method),
 * then per size a warm-up and iterations of send/recv round trips; prints one-way latency (half the mean
 * round trip), bandwidth, and the percentiles of single round trips, halved (percentiles.h), in the same
 * format as OsuLatency, so bench/latency-vs-c.sh and bench/p2p-vs-c.sh can put the two side by side.
 * Usage: pingpong [maxBytes] [jitWarmupRoundTrips] [fromBytes]  (fromBytes: the first size, a power of two or 0,
 * as OsuLatency's --from)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "percentiles.h"

static void round_trip(int rank, char *buf, long bytes, int tag)
{
    if (rank == 0)
    {
        MPI_Send(buf, (int)bytes, MPI_BYTE, 1, tag, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    else if (rank == 1)
    {
        MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)bytes, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    long max_bytes = argc > 1 ? atol(argv[1]) : 4L << 20;
    long jit_warmup = argc > 2 ? atol(argv[2]) : 400000;
    long from_bytes = argc > 3 ? atol(argv[3]) : 0;
    static const long warmup_sizes[] = {8, 64, 512, 4096, 32768};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long buf_bytes = max_bytes > 0 ? max_bytes : 1;
    char *buf = malloc(buf_bytes);
    memset(buf, 1, buf_bytes);
    if (rank == 0)
    {
        printf("# C MPI ping-pong latency (%d ranks)\n# %-12s %14s %18s %s\n", size, "Size", "Latency (us)",
            "Bandwidth (MB/s)", JMPI_PERCENTILES_HEADER);
    }
    for (long i = 0; i < jit_warmup; i++)
    {
        long bytes = warmup_sizes[i % 5];
        round_trip(rank, buf, bytes < buf_bytes ? bytes : buf_bytes, 99);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (long bytes = from_bytes; bytes <= max_bytes; bytes = bytes == 0 ? 1 : bytes * 2)
    {
        int large = bytes > 64 * 1024;
        int iterations = large ? 200 : 20000;
        int warmup = large ? 20 : 5000;
        double start = 0, last = 0;
        double *round_trips = malloc(sizeof(double) * iterations);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < iterations + warmup; i++)
        {
            if (i == warmup)
            {
                start = MPI_Wtime();
                last = start;
            }
            round_trip(rank, buf, bytes, 1);
            if (i >= warmup)
            {
                double now = MPI_Wtime();
                round_trips[i - warmup] = now - last;
                last = now;
            }
        }
        if (rank == 0)
        {
            double us = (MPI_Wtime() - start) * 1e6 / (2.0 * iterations);
            printf("%-14ld %14.2f %18.2f ", bytes, us, bytes / us);
            jmpi_print_percentiles(round_trips, iterations, 2.0);
            printf("\n");
        }
        free(round_trips);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
