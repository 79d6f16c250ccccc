/*
 * OSU-style collective latency, the C twin of bench's OsuCollective (same method, sizes and output): per
 * size a warm-up, then back-to-back calls; each rank times its own loop and rank 0 prints the average,
 * minimum and maximum over ranks of the mean time per call. Sizes are bytes per rank (per block for
 * allgather, alltoall, gather, scatter, reduce_scatter), ints, doubled from 4.
 * Usage: osu_coll <barrier|bcast|reduce|allreduce|allgather|alltoall|gather|scatter|reduce_scatter> [maxBytes] [warmup]
 * (warmup: calls before each size up to 64 KiB, default 1000 as OSU; a fiftieth of it, at least 20, above 64 KiB;
 * every 1000 warm-up calls, and after the last, a barrier and the three reductions that report a size).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Warm-up calls between two passes of the harness's own barrier and reductions (as OsuCollective). */
#define WARMUP_CHUNK 1000

static void call(const char *op, int *send, int *recv, int ints, int *counts)
{
    if (!strcmp(op, "barrier")) MPI_Barrier(MPI_COMM_WORLD);
    else if (!strcmp(op, "bcast")) MPI_Bcast(send, ints, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "reduce")) MPI_Reduce(send, recv, ints, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "allreduce")) MPI_Allreduce(send, recv, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(op, "allgather")) MPI_Allgather(send, ints, MPI_INT, recv, ints, MPI_INT, MPI_COMM_WORLD);
    else if (!strcmp(op, "alltoall")) MPI_Alltoall(send, ints, MPI_INT, recv, ints, MPI_INT, MPI_COMM_WORLD);
    else if (!strcmp(op, "gather")) MPI_Gather(send, ints, MPI_INT, recv, ints, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "scatter")) MPI_Scatter(send, ints, MPI_INT, recv, ints, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "reduce_scatter")) MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
    {
        fprintf(stderr, "unknown collective %s\n", op);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    const char *op = argc > 1 ? argv[1] : "allreduce";
    long max_bytes = argc > 2 ? atol(argv[2]) : 1L << 20;
    long small_warmup = argc > 3 ? atol(argv[3]) : 1000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long max_ints = max_bytes / 4 > 0 ? max_bytes / 4 : 1;
    int *send = calloc((size_t)max_ints * size, sizeof(int));
    int *recv = calloc((size_t)max_ints * size, sizeof(int));
    int *counts = malloc(sizeof(int) * size);
    if (rank == 0)
    {
        printf("# C MPI %s (blocking, %d ranks)\n# %-10s %17s %17s %17s %11s\n", op, size, "Size", "Avg Latency(us)",
            "Min Latency(us)", "Max Latency(us)", "Iterations");
    }
    int barrier = !strcmp(op, "barrier");
    for (long bytes = barrier ? 0 : 4; bytes <= (barrier ? 0 : max_bytes); bytes = bytes == 0 ? 1 : bytes * 2)
    {
        int large = bytes > 64 * 1024;
        int iterations = large ? 200 : 10000;
        long warmup = large ? (small_warmup / 50 > 20 ? small_warmup / 50 : 20) : small_warmup;
        int ints = bytes / 4 > 0 ? (int)(bytes / 4) : 1;
        for (int i = 0; i < size; i++) counts[i] = ints;
        double sum, min, max;
        for (long i = 0; i < warmup; i++)
        {
            call(op, send, recv, ints, counts);
            if ((i + 1) % WARMUP_CHUNK == 0 || i + 1 == warmup)
            {
                /* the harness's own calls, as OsuCollective's warm-up makes them (its JIT must see them) */
                double zero = 0;
                MPI_Barrier(MPI_COMM_WORLD);
                MPI_Reduce(&zero, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
                MPI_Reduce(&zero, &min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
                MPI_Reduce(&zero, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        for (int i = 0; i < iterations; i++) call(op, send, recv, ints, counts);
        double us = (MPI_Wtime() - start) * 1e6 / iterations;
        MPI_Reduce(&us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&us, &min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&us, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) printf("%-12ld %17.2f %17.2f %17.2f %11d\n", bytes, sum / size, min, max, iterations);
    }
    free(send);
    free(recv);
    free(counts);
    MPI_Finalize();
    return 0;
}
