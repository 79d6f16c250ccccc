/*
 * Windowed bandwidth and message rate, the methods of osu_bw, osu_bibw and osu_mbw_mr, as bench's
 * OsuBandwidth.java runs them (same window, iteration counts, warm-up and output columns; see there).
 * Usage: bandwidth [bw|bibw|mbw_mr] [maxBytes] [window] [iterations] [jitWarmupWindows]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "percentiles.h"

enum mode { BW, BIBW, MBW_MR };

static enum mode mode;
static int window_size, peer, sender, active;
static char *send_buf, *recv_buf;
static char ack[4];
static MPI_Request *requests;

static void window(long bytes)
{
    if (!active) return;
    if (mode == BIBW)
    {
        for (int j = 0; j < window_size; j++)
            MPI_Irecv(recv_buf, (int)bytes, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &requests[j]);
        for (int j = 0; j < window_size; j++)
            MPI_Isend(send_buf, (int)bytes, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &requests[window_size + j]);
        MPI_Waitall(2 * window_size, requests, MPI_STATUSES_IGNORE);
    }
    else if (sender)
    {
        for (int j = 0; j < window_size; j++)
            MPI_Isend(send_buf, (int)bytes, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &requests[j]);
        MPI_Waitall(window_size, requests, MPI_STATUSES_IGNORE);
        MPI_Recv(ack, 4, MPI_BYTE, peer, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    else
    {
        for (int j = 0; j < window_size; j++)
            MPI_Irecv(recv_buf, (int)bytes, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &requests[j]);
        MPI_Waitall(window_size, requests, MPI_STATUSES_IGNORE);
        MPI_Send(ack, 4, MPI_BYTE, peer, 101, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    const char *name = argc > 1 ? argv[1] : "bw";
    long max_bytes = argc > 2 ? atol(argv[2]) : 4L << 20;
    window_size = argc > 3 ? atoi(argv[3]) : 64;
    int iterations = argc > 4 ? atoi(argv[4]) : 1000;
    long jit_warmup = argc > 5 ? atol(argv[5]) : 6000;
    if (strcmp(name, "bw") == 0) mode = BW;
    else if (strcmp(name, "bibw") == 0) mode = BIBW;
    else if (strcmp(name, "mbw_mr") == 0) mode = MBW_MR;
    else { fprintf(stderr, "mode must be bw, bibw or mbw_mr, got '%s'\n", name); return 2; }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int pairs = mode == MBW_MR ? size / 2 : 1;
    active = rank < 2 * pairs;
    sender = rank < pairs;
    peer = sender ? rank + pairs : rank - pairs;
    long buf_bytes = max_bytes > 0 ? max_bytes : 1;
    send_buf = malloc(buf_bytes);
    recv_buf = malloc(buf_bytes);
    memset(send_buf, 1, buf_bytes);
    requests = malloc(sizeof(MPI_Request) * 2 * window_size);
    if (rank == 0)
    {
        printf("# C MPI %s (window %d, %d ranks)\n# %-10s %18s %12s %s\n", name, window_size, size, "Size",
            "Bandwidth (MB/s)", "Messages/s", JMPI_PERCENTILES_HEADER);
    }
    for (long i = 0; i < jit_warmup; i++)
    {
        long bytes = i % 2 == 0 ? 8 : 4096;
        window(bytes < buf_bytes ? bytes : buf_bytes);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (long bytes = 1; bytes <= max_bytes; bytes *= 2)
    {
        int loop = bytes > 8192 ? (iterations / 10 > 0 ? iterations / 10 : 1) : iterations;
        int skip = loop / 10 > 0 ? loop / 10 : 1;
        double *windows = malloc(sizeof(double) * loop);
        double start = 0, last = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < loop + skip; i++)
        {
            if (i == skip)
            {
                start = MPI_Wtime();
                last = start;
            }
            window(bytes);
            if (i >= skip)
            {
                double now = MPI_Wtime();
                windows[i - skip] = now - last;
                last = now;
            }
        }
        double seconds = active && (sender || mode == BIBW) ? MPI_Wtime() - start : 0, total = 0;
        MPI_Allreduce(&seconds, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
        {
            double mean_seconds = mode == BIBW ? seconds : total / pairs;
            double messages = (double)pairs * loop * window_size * (mode == BIBW ? 2 : 1);
            double rate = messages / mean_seconds;
            printf("%-12ld %18.2f %12.0f ", bytes, rate * bytes / 1e6, rate);
            jmpi_print_percentiles(windows, loop, window_size);
            printf("\n");
        }
        free(windows);
    }
    MPI_Finalize();
    return 0;
}
