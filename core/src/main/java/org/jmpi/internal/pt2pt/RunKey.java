package org.jmpi.internal.pt2pt;

import org.jmpi.Datatype;
import org.jmpi.internal.datatype.BufferView;

/**
 * A message's data as a send or receive names it (view, offset and count in items, committed type) and where it
 * lies when it is one native run ({@link org.jmpi.internal.datatype.OneRun#address}, or -1), kept by
 * {@link CommState} so that a loop sending or receiving the same buffer again looks it up with four comparisons
 * instead of checking the type and the bounds again (issue 12, message rate). A committed type never changes and
 * a view is immutable, so the address holds as long as the four match.
 *
 * <p>Threading: immutable.
 */
record RunKey(BufferView view, long elementOffset, long count, Datatype type, long address)
{
    boolean matches(final BufferView view, final long elementOffset, final long count, final Datatype type)
    {
        return this.view == view && this.elementOffset == elementOffset && this.count == count && this.type == type;
    }
}
