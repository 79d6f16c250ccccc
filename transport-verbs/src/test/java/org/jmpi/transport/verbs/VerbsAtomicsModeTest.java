package org.jmpi.transport.verbs;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.transport.verbs.ibv.Ibv;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the verbs remote memory offers atomics (jmpi.verbs.atomics against the device's capability). */
class VerbsAtomicsModeTest
{
    @Test
    void shouldOfferAtomicsOnlyWhereTheModeAndTheDeviceAllow()
    {
        assertTrue(VerbsRemoteMemory.atomicsOffered("auto", Ibv.ATOMIC_GLOB));
        assertFalse(VerbsRemoteMemory.atomicsOffered("auto", Ibv.ATOMIC_HCA), "HCA-only atomics do not mix with the CPU's");
        assertTrue(VerbsRemoteMemory.atomicsOffered(" ON ", Ibv.ATOMIC_HCA));
        assertFalse(VerbsRemoteMemory.atomicsOffered("on", Ibv.ATOMIC_NONE));
        assertFalse(VerbsRemoteMemory.atomicsOffered("off", Ibv.ATOMIC_GLOB));
        assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> VerbsRemoteMemory.atomicsOffered("yes", 2)).errorClass());
    }
}
