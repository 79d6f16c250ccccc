package org.jmpi.transport.verbs.ibv;

/**
 * What {@code ibv_query_device} says about a device (the fields jmpi uses).
 *
 * @param maxMrSizeBytes     largest memory region.
 * @param maxQp              queue pairs.
 * @param maxQpWr            work requests per queue.
 * @param maxSge             scatter-gather entries per work request.
 * @param maxSgeRd           scatter-gather entries per RDMA READ work request.
 * @param maxCq              completion queues.
 * @param maxCqe             entries per completion queue.
 * @param maxMr              memory regions.
 * @param maxQpRdAtomic      RDMA reads and atomics in flight a queue pair accepts as target.
 * @param maxQpInitRdAtomic  RDMA reads and atomics in flight a queue pair starts.
 * @param atomicCap          0: no atomics; 1: atomic within the device; 2: also with the CPU.
 * @param physPortCount      ports.
 */
public record DeviceAttributes(long maxMrSizeBytes, int maxQp, int maxQpWr, int maxSge, int maxSgeRd, int maxCq, int maxCqe, int maxMr,
    int maxQpRdAtomic, int maxQpInitRdAtomic, int atomicCap, int physPortCount)
{
}
