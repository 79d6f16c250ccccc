/*
 * Hello world: init, print rank and size, finalize. bench/startup-vs-c.sh times mpirun -np 2 of it
 * against jmpirun -np 2 of org.jmpi.bench.Hello.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("hello from rank %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
