package org.jmpi.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MarkdownTableTest
{
    @Test
    void shouldWriteHeaderSeparatorAndPaddedRows()
    {
        final String t = new MarkdownTable("size", "C", "jmpi").row("8 B", "0.25", "0.86").row("16 B").toString();
        assertEquals("| size | C | jmpi |\n|---|---|---|\n| 8 B | 0.25 | 0.86 |\n| 16 B | - | - |\n", t);
    }

    @Test
    void shouldRejectRowsWiderThanTheTable()
    {
        assertThrows(IllegalArgumentException.class, () -> new MarkdownTable("a").row("1", "2"));
    }
}
