package org.jmpi.internal.datatype;

import org.jmpi.Datatype;

/**
 * The normalised type tree: every user constructor becomes one of these nodes ({@code vector} and
 * {@code indexed} scale their displacements into bytes, {@code subarray} and {@code darray} build a
 * nest of them). Displacements, strides and extents are in bytes. Nodes are immutable once built
 * (their arrays are private copies that are never written after construction); safe to share
 * between threads.
 */
public sealed interface Layout
{
    /** A predefined basic type. */
    record Basic(BasicType type) implements Layout
    {
    }

    /** {@code count} copies of {@code old}, each {@code old.extent()} after the previous. */
    record Contiguous(long count, Datatype old) implements Layout
    {
    }

    /** {@code count} blocks of {@code blockLength} contiguous copies, block i at {@code i * strideBytes}. */
    record HVector(long count, long blockLength, long strideBytes, Datatype old) implements Layout
    {
    }

    /** Blocks of equal length at byte displacements. */
    record HIndexedBlock(long blockLength, long[] displacements, Datatype old) implements Layout
    {
    }

    /** Blocks of varying length at byte displacements. */
    record HIndexed(long[] blockLengths, long[] displacements, Datatype old) implements Layout
    {
    }

    /** Blocks of varying types and lengths at byte displacements. */
    record Struct(long[] blockLengths, long[] displacements, Datatype[] types) implements Layout
    {
    }

    /** {@code old} with its lower bound and extent replaced. */
    record Resized(Datatype old, long lb, long extent) implements Layout
    {
    }
}
