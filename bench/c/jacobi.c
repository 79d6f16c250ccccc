/* The C twin of bench/.../jacobi/Jacobi2d.java: a 2-D Jacobi solver of Laplace's equation on an
 * n x n interior (top boundary 1, the others 0), columns spread over the ranks (the first n % p ranks
 * one more), halo columns exchanged every sweep as an MPI vector type (irecv both, isend both, wait
 * all), the residual allreduced every 10 sweeps and after the last. Same order of operations as the
 * Java version, so both print the same residual.
 * Usage: mpirun -np 2 jacobi [n] [sweeps] [--sweep-only]
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RESIDUAL_EVERY 10
#define TAG_LEFT 11
#define TAG_RIGHT 12

static int n, cols, stride, left, right;
static double *u, *next;
static MPI_Datatype column;

/* Two loops, as the Java version: the sweeps without a residual carry no reduction. */
static double sweep(int with_change)
{
    const double *a = u;
    double *b = next;
    double change = 0;
    for (int i = 1; i <= n; i++) {
        int row = i * stride;
        if (with_change) {
            for (int j = row + 1; j <= row + cols; j++) {
                double v = 0.25 * (a[j - stride] + a[j + stride] + a[j - 1] + a[j + 1]);
                b[j] = v;
                double d = v - a[j];
                change += d * d;
            }
        } else {
            for (int j = row + 1; j <= row + cols; j++)
                b[j] = 0.25 * (a[j - stride] + a[j + stride] + a[j - 1] + a[j + 1]);
        }
    }
    return change;
}

static void exchange_halos(void)
{
    MPI_Request req[4];
    int k = 0;
    if (left >= 0) MPI_Irecv(u + stride, 1, column, left, TAG_RIGHT, MPI_COMM_WORLD, &req[k++]);
    if (right >= 0) MPI_Irecv(u + stride + cols + 1, 1, column, right, TAG_LEFT, MPI_COMM_WORLD, &req[k++]);
    if (left >= 0) MPI_Isend(u + stride + 1, 1, column, left, TAG_LEFT, MPI_COMM_WORLD, &req[k++]);
    if (right >= 0) MPI_Isend(u + stride + cols, 1, column, right, TAG_RIGHT, MPI_COMM_WORLD, &req[k++]);
    MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
}

static double solve(int sweeps, int communicate)
{
    double residual = NAN;
    for (int s = 1; s <= sweeps; s++) {
        if (communicate) exchange_halos();
        int reduce = s % RESIDUAL_EVERY == 0 || s == sweeps;
        double change = sweep(reduce);
        if (reduce) {
            double total = change;
            if (communicate) MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            residual = sqrt(total);
        }
        double *t = u;
        u = next;
        next = t;
    }
    return residual;
}

static void setup(int rank, int p)
{
    cols = n / p + (rank < n % p ? 1 : 0);
    stride = cols + 2;
    left = rank > 0 ? rank - 1 : -1;
    right = rank < p - 1 ? rank + 1 : -1;
    size_t len = (size_t)(n + 2) * stride;
    u = calloc(len, sizeof(double));
    next = calloc(len, sizeof(double));
    for (int j = 0; j < stride; j++) u[j] = next[j] = 1.0;
}

static void report(const char *what, int sweeps, int ranks, double seconds, double residual)
{
    printf("%s n=%d sweeps=%d ranks=%d time=%.6f s sweep=%.6f s residual=%.10e\n", what, n, sweeps, ranks,
           seconds, seconds / sweeps, residual);
}

int main(int argc, char **argv)
{
    int sweeps = 2000, sweep_only = 0, positional = 0;
    n = 512;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sweep-only") == 0) sweep_only = 1;
        else if (argv[i][0] != '-') {
            if (positional++ == 0) n = atoi(argv[i]);
            else sweeps = atoi(argv[i]);
        }
    }
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (sweep_only) {
        if (rank == 0) {
            setup(0, 1);
            double t0 = MPI_Wtime();
            double residual = solve(sweeps, 0);
            report("jacobi-sweep", sweeps, 1, MPI_Wtime() - t0, residual);
        }
        MPI_Finalize();
        return 0;
    }
    if (n < p) {
        if (rank == 0) fprintf(stderr, "n=%d is smaller than the %d ranks\n", n, p);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    setup(rank, p);
    MPI_Type_vector(n, 1, stride, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    double residual = solve(sweeps, 1);
    double elapsed = MPI_Wtime() - t0;
    if (rank == 0) report("jacobi", sweeps, p, elapsed, residual);
    MPI_Type_free(&column);
    free(u);
    free(next);
    MPI_Finalize();
    return 0;
}
