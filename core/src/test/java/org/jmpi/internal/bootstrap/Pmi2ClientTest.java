package org.jmpi.internal.bootstrap;

import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client's side of the conversation against scripted answers (the real process manager is Slurm's,
 * in launcher's {@code SlurmIT}).
 */
class Pmi2ClientTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);

    private static InputStream answers(final String... bodies)
    {
        final ByteArrayOutputStream script = new ByteArrayOutputStream();
        script.writeBytes("cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n".getBytes(StandardCharsets.US_ASCII));
        for (final String body : bodies)
        {
            script.writeBytes(String.format("%-6d%s", body.length(), body).getBytes(StandardCharsets.US_ASCII));
        }
        return new ByteArrayInputStream(script.toByteArray());
    }

    @Test
    void shouldInitPutFenceGetAndFinalizeInTheProtocolsOrder()
    {
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        final Pmi2Client client = Pmi2Client.connect(answers(
            "cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=1;size=4;appnum=-1;debugged=FALSE;pmiverbose=FALSE;",
            "cmd=kvs-put-response;rc=0;",
            "cmd=kvs-fence-response;rc=0;",
            "cmd=kvs-get-response;rc=0;found=TRUE;value=abc 1.2.3.4:5;",
            "cmd=kvs-get-response;rc=0;found=FALSE;",
            "cmd=finalize-response;rc=0;"), sent, 1, "7.0", TIMEOUT_NS);
        assertEquals(1, client.rank());
        assertEquals(4, client.size());
        client.put("k", "v", TIMEOUT_NS);
        client.fence(TIMEOUT_NS);
        assertEquals("abc 1.2.3.4:5", client.get("jmpi-rdv", TIMEOUT_NS));
        assertNull(client.get("missing", TIMEOUT_NS));
        client.close();
        final String wire = sent.toString(StandardCharsets.US_ASCII);
        assertTrue(wire.startsWith("cmd=init pmi_version=2 pmi_subversion=0\n"), wire);
        assertTrue(wire.contains("cmd=fullinit;pmijobid=7.0;pmirank=1;threaded=FALSE;"), wire);
        assertTrue(wire.contains("cmd=kvs-put;key=k;value=v;"), wire);
        assertTrue(wire.contains("cmd=kvs-fence;"), wire);
        assertTrue(wire.contains("key=jmpi-rdv;"), wire);
        assertTrue(wire.endsWith("cmd=finalize;"), wire);
    }

    @Test
    void shouldReportAFailedCommandWithItsCodeAndMessage()
    {
        final Pmi2Client client = Pmi2Client.connect(answers(
            "cmd=fullinit-response;rc=0;rank=0;size=2;",
            "cmd=kvs-fence-response;rc=14;errmsg=mpi/pmi2: failed to send temp kvs;"), new ByteArrayOutputStream(), 0, null, TIMEOUT_NS);
        final MpiException ex = assertThrows(MpiException.class, () -> client.fence(TIMEOUT_NS));
        assertTrue(ex.getMessage().contains("rc=14") && ex.getMessage().contains("failed to send temp kvs"), ex.getMessage());
    }

    @Test
    void shouldRefuseAFullinitForAnotherRankAndAnEndedConversation()
    {
        assertThrows(MpiException.class, () -> Pmi2Client.connect(answers("cmd=fullinit-response;rc=0;rank=2;size=4;"),
            new ByteArrayOutputStream(), 1, null, TIMEOUT_NS));
        final Pmi2Client client = Pmi2Client.connect(answers("cmd=fullinit-response;rc=0;rank=0;size=2;"), new ByteArrayOutputStream(),
            0, null, TIMEOUT_NS);
        final MpiException ex = assertThrows(MpiException.class, () -> client.fence(TIMEOUT_NS));
        assertTrue(ex.getMessage().contains("kvs-fence"), ex.getMessage());
    }

    @Test
    void shouldGiveUpAtTheDeadlineWhenTheProcessManagerIsSilent()
    {
        final InputStream silent = new InputStream()
        {
            @Override
            public int read()
            {
                throw new AssertionError("read without a readable byte");
            }

            @Override
            public int available()
            {
                return 0;
            }
        };
        final MpiException ex = assertThrows(MpiException.class,
            () -> Pmi2Client.connect(silent, new ByteArrayOutputStream(), 0, null, TimeUnit.MILLISECONDS.toNanos(50)));
        assertTrue(ex.getMessage().contains("no answer"), ex.getMessage());
    }
}
