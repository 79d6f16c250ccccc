package org.jmpi.internal.bootstrap;

import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class Pmi2WireTest
{
    @Test
    void shouldPrefixTheBodyWithItsLengthLeftJustifiedInSixCharacters()
    {
        final String message = new String(Pmi2Wire.encode("kvs-put", "key", "k1", "value", "v 1"), StandardCharsets.US_ASCII);
        assertEquals("29    cmd=kvs-put;key=k1;value=v 1;", message);
        assertEquals(29, Pmi2Wire.decodeLength("29    ".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void shouldRefuseCharactersTheWireCannotCarry()
    {
        assertThrows(IllegalArgumentException.class, () -> Pmi2Wire.encode("kvs-put", "a;b", "v"));
        assertThrows(IllegalArgumentException.class, () -> Pmi2Wire.encode("kvs-put", "a=b", "v"));
        assertThrows(IllegalArgumentException.class, () -> Pmi2Wire.encode("kvs;put"));
        assertThrows(IllegalArgumentException.class, () -> Pmi2Wire.encode("kvs-put", "key", "k", "value", "x;y"));
        assertThrows(IllegalArgumentException.class, () -> Pmi2Wire.encode("kvs-put", "key", "k", "value", "line\n"));
        assertThrows(IllegalArgumentException.class, () -> Pmi2Wire.encode("kvs-put", "key"));
    }

    @Test
    void shouldDecodePairsInOrderWithEmptyValuesAndEqualsInValues()
    {
        final Map<String, String> pairs = Pmi2Wire.decode("cmd=kvs-get-response;rc=0;found=TRUE;value=a=b;empty=;");
        assertEquals("kvs-get-response", pairs.get("cmd"));
        assertEquals("a=b", pairs.get("value"));
        assertEquals("", pairs.get("empty"));
        assertEquals(java.util.List.of("cmd", "rc", "found", "value", "empty"), java.util.List.copyOf(pairs.keySet()));
    }

    @Test
    void shouldRefuseMalformedBodiesAndLengths()
    {
        assertThrows(MpiException.class, () -> Pmi2Wire.decode("rc=0;"));
        assertThrows(MpiException.class, () -> Pmi2Wire.decode("cmd=x;novalue;"));
        assertThrows(MpiException.class, () -> Pmi2Wire.decodeLength("12a   ".getBytes(StandardCharsets.US_ASCII)));
        assertThrows(MpiException.class, () -> Pmi2Wire.decodeLength("-1    ".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void shouldDecodeThePmi1InitAnswer()
    {
        final Map<String, String> pairs = Pmi2Wire.decodeLine("cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n");
        assertEquals("response_to_init", pairs.get("cmd"));
        assertEquals("2", pairs.get("pmi_version"));
    }
}
