package org.jmpi.internal.pt2pt;

/**
 * An element of a matching list: a posted receive (source and tag may be wildcards) or an unexpected
 * message (concrete source and tag). Intrusive links make removal O(1).
 *
 * <p>Threading: engine thread only.
 */
abstract class MatchEntry
{
    MatchEntry prev;
    MatchEntry next;
    MatchList list;
    int contextId;
    int source;
    int tag;
}
