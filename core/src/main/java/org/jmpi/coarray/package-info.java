/**
 * Coarrays on RMA windows: Fortran-2008-style local-view arrays with one copy per image (rank of a {@link
 * org.jmpi.coarray.Team}), read and written locally with {@code get(i)}/{@code set(i, v)} and remotely with
 * {@code put}/{@code get} to an image, synchronised with {@code syncAll}, {@code syncImages} and {@code syncMemory}.
 * Each coarray is an {@link org.jmpi.Win} in one lock-all epoch for its whole life, as the XcalableACC coarrays are
 * (docs/rma.md, "Coarrays"): a blocking put or get is an RMA operation and a flush; a nonblocking put defers the flush
 * to the next synchronisation. Between images that are threads of one JVM a put or get is a plain copy.
 */
package org.jmpi.coarray;
