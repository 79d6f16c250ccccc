package org.jmpi.internal.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Params;
import org.junit.jupiter.api.Test;

/** "hier" on the algorithm parameters of the five two-level collectives, and nowhere else. */
class CollParamsTest
{
    @Test
    void shouldReadHierAsAutoForTheTwoLevelCollectives()
    {
        final CollParams p = CollParams.of(new Params(Map.of("jmpi.coll.barrier.algorithm", "hier", "jmpi.coll.bcast.algorithm", "HIER",
            "jmpi.coll.reduce.algorithm", "hier", "jmpi.coll.allreduce.algorithm", "hier", "jmpi.coll.allgather.algorithm", "hier")));
        assertEquals("auto", p.barrierAlgorithm);
        assertEquals("auto", p.bcastAlgorithm);
        assertEquals("auto", p.reduceAlgorithm);
        assertEquals("auto", p.allreduceAlgorithm);
        assertEquals("auto", p.allgatherAlgorithm);
    }

    @Test
    void shouldRefuseHierElsewhereAndNameItWhereItApplies()
    {
        final MpiException gather = assertThrows(MpiException.class,
            () -> CollParams.of(new Params(Map.of("jmpi.coll.gather.algorithm", "hier"))));
        assertEquals(ErrorClass.ERR_ARG, gather.errorClass());
        final MpiException bcast = assertThrows(MpiException.class,
            () -> CollParams.of(new Params(Map.of("jmpi.coll.bcast.algorithm", "tree"))));
        assertTrue(bcast.getMessage().contains("hier"), bcast.getMessage());
    }
}
