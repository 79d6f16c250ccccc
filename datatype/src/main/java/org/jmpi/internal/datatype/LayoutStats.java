package org.jmpi.internal.datatype;

/**
 * What a transport needs to choose a copy strategy for one side of a transfer: how many contiguous
 * runs the whole message touches in its buffer, and how long they are. Immutable value; any thread.
 *
 * @param blockCount    contiguous runs over all {@code count} items (0 for an empty message)
 * @param meanRunBytes  total bytes / blockCount (0 for an empty message)
 * @param minRunBytes   the shortest run (0 for an empty message)
 */
public record LayoutStats(long blockCount, double meanRunBytes, long minRunBytes)
{
}
