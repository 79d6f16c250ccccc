package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The text format of the PMI-2 wire protocol that Slurm's {@code mpi/pmi2} plugin serves on the descriptor
 * in {@code PMI_FD} (and MPICH's Hydra likewise), written from the protocol's description:
 *
 * <pre>
 *   connect:  client  "cmd=init pmi_version=2 pmi_subversion=0\n"                      (PMI-1 syntax, once)
 *             server  "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n"
 *   then each command and each response is one message:
 *             LLLLLL cmd=NAME;key=value;key=value;
 *   where LLLLLL is the length in bytes of what follows, in decimal, left-justified and padded with
 *   spaces to 6 characters (so at most 999999 bytes).
 * </pre>
 *
 * Keys and values are ASCII without {@code ;} or {@code =} in keys and without {@code ;} in values (Slurm
 * does not unescape {@code ;;}); {@link Pmi2Bootstrap} encodes what it stores so that this always holds.
 * Slurm limits a KVS key to {@link #MAX_KEY_LENGTH} and a value to {@link #MAX_VALUE_LENGTH} characters.
 *
 * <p>Stateless; any thread.
 */
public final class Pmi2Wire
{
    /** Characters of the length header. */
    public static final int LENGTH_FIELD_LENGTH = 6;
    /** Largest message body the length header can announce. */
    public static final int MAX_MESSAGE_LENGTH = 999_999;
    /** Slurm's PMI2_MAX_KEYLEN. */
    public static final int MAX_KEY_LENGTH = 64;
    /** Slurm's PMI2_MAX_VALLEN. */
    public static final int MAX_VALUE_LENGTH = 1024;
    /** The PMI-1 line that opens the conversation, asking for version 2.0. */
    public static final String INIT_LINE = "cmd=init pmi_version=2 pmi_subversion=0\n";

    private Pmi2Wire()
    {
    }

    /**
     * One PMI-2 message: the length header and {@code cmd=NAME;} followed by the pairs in order.
     *
     * @param pairs alternately keys and values
     * @throws IllegalArgumentException when a key or value holds a character the protocol cannot carry.
     */
    public static byte[] encode(final String command, final String... pairs)
    {
        if (pairs.length % 2 != 0)
        {
            throw new IllegalArgumentException("pmi2: pairs must be keys and values alternately, got " + pairs.length + " strings");
        }
        final StringBuilder body = new StringBuilder("cmd=").append(checked(command, "command", "=;")).append(';');
        for (int i = 0; i < pairs.length; i += 2)
        {
            body.append(checked(pairs[i], "key", "=;")).append('=').append(checked(pairs[i + 1], "value of " + pairs[i], ";")).append(';');
        }
        final byte[] bytes = body.toString().getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > MAX_MESSAGE_LENGTH)
        {
            throw new IllegalArgumentException("pmi2: message of " + bytes.length + " bytes exceeds " + MAX_MESSAGE_LENGTH);
        }
        final String header = String.format("%-" + LENGTH_FIELD_LENGTH + "d", bytes.length);
        final byte[] message = new byte[LENGTH_FIELD_LENGTH + bytes.length];
        System.arraycopy(header.getBytes(StandardCharsets.US_ASCII), 0, message, 0, LENGTH_FIELD_LENGTH);
        System.arraycopy(bytes, 0, message, LENGTH_FIELD_LENGTH, bytes.length);
        return message;
    }

    /**
     * The body length announced by a length header.
     *
     * @throws MpiException ERR_OTHER when the header is not a length in range.
     */
    public static int decodeLength(final byte[] header)
    {
        final String text = new String(header, 0, LENGTH_FIELD_LENGTH, StandardCharsets.US_ASCII).trim();
        try
        {
            final int length = Integer.parseInt(text);
            if (length >= 0 && length <= MAX_MESSAGE_LENGTH)
            {
                return length;
            }
        }
        catch (final NumberFormatException ex)
        {
            // reported below
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: malformed length header '" + text + "' from the process manager");
    }

    /**
     * The pairs of a message body ({@code cmd=NAME;k=v;...;}), in order, the command under {@code cmd}. A
     * value may be empty; a later duplicate key replaces the earlier one.
     *
     * @throws MpiException ERR_OTHER when the body is not of that form.
     */
    public static Map<String, String> decode(final String body)
    {
        final Map<String, String> pairs = new LinkedHashMap<>();
        int start = 0;
        while (start < body.length())
        {
            int end = body.indexOf(';', start);
            if (end < 0)
            {
                end = body.length();
            }
            final String pair = body.substring(start, end);
            final int eq = pair.indexOf('=');
            if (eq <= 0)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: malformed message from the process manager: '" + body + "'");
            }
            pairs.put(pair.substring(0, eq), pair.substring(eq + 1));
            start = end + 1;
        }
        if (!pairs.containsKey("cmd"))
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: message without cmd from the process manager: '" + body + "'");
        }
        return pairs;
    }

    /** The pairs of a PMI-1 line ({@code cmd=NAME k=v k=v\n}), as the answer to {@link #INIT_LINE} is. */
    public static Map<String, String> decodeLine(final String line)
    {
        final Map<String, String> pairs = new LinkedHashMap<>();
        for (final String word : line.trim().split(" +"))
        {
            final int eq = word.indexOf('=');
            if (eq > 0)
            {
                pairs.put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return pairs;
    }

    private static String checked(final String text, final String what, final String forbidden)
    {
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e || forbidden.indexOf(c) >= 0)
            {
                throw new IllegalArgumentException("pmi2: " + what + " '" + text + "' holds character " + (int)c +
                    " that the wire protocol cannot carry");
            }
        }
        return text;
    }
}
