package org.jmpi.internal.bootstrap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of a {@link BootstrapProtocolDescriptor#TYPE_SPAWN} request and of its answer (MPI_Comm_spawn through
 * the launcher; docs/compat.md, "Dynamic processes"). Both are written with {@link DataOutputStream}: counts as
 * {@code int}, strings as modified UTF-8 ({@code writeUTF}), lists as a count then the items.
 *
 * <pre>
 * Request: int parents, int apps, then per app:
 *          UTF mainClass, list jvmArgs, list classPath, list args, int count, UTF host, UTF wdir
 * Reply:   boolean ok, UTF message (why not, when not ok), UTF jobId, UTF endpoints, int size,
 *          list parentTickets (hex, one per parent: the bootstrap ranks size - parents .. size - 1)
 * </pre>
 *
 * The children are the new job's bootstrap ranks {@code 0 .. children - 1} (their world); the parents join the same
 * bootstrap as the ranks after them, in their group's rank order, with the tickets of the reply.
 *
 * <p>Immutable records; any thread.
 */
public final class SpawnWire
{
    private SpawnWire()
    {
    }

    /**
     * One command of a spawn: {@code count} ranks running {@code mainClass} with {@code args}.
     *
     * @param jvmArgs   JVM options for the children beyond the job's own ({@code -D}, {@code -X}...).
     * @param classPath the children's class path, or empty for the parents' job's.
     * @param host      the info key "host", or empty.
     * @param wdir      the info key "wdir" (the children's working directory), or empty.
     */
    public record App(String mainClass, List<String> jvmArgs, List<String> classPath, List<String> args, int count,
        String host, String wdir)
    {
    }

    /** What the root of {@code parents} ranks asks for. */
    public record Request(int parents, List<App> apps)
    {
        /** How many children the request starts. */
        public int children()
        {
            return apps.stream().mapToInt(App::count).sum();
        }

        public byte[] encode()
        {
            return write(out ->
            {
                out.writeInt(parents);
                out.writeInt(apps.size());
                for (final App app : apps)
                {
                    out.writeUTF(app.mainClass());
                    writeList(out, app.jvmArgs());
                    writeList(out, app.classPath());
                    writeList(out, app.args());
                    out.writeInt(app.count());
                    out.writeUTF(app.host());
                    out.writeUTF(app.wdir());
                }
            });
        }

        /** @throws IllegalArgumentException for a malformed request. */
        public static Request decode(final byte[] bytes)
        {
            return read(bytes, in ->
            {
                final int parents = in.readInt();
                final int count = in.readInt();
                if (parents < 1 || count < 1 || count > 1 << 16)
                {
                    throw new IllegalArgumentException("spawn request: parents=" + parents + ", apps=" + count);
                }
                final List<App> apps = new ArrayList<>();
                for (int k = 0; k < count; k++)
                {
                    apps.add(new App(in.readUTF(), readList(in), readList(in), readList(in), in.readInt(), in.readUTF(), in.readUTF()));
                }
                return new Request(parents, List.copyOf(apps));
            });
        }
    }

    /** The launcher's answer: the new job's bootstrap for the parents, or why there is none. */
    public record Reply(boolean ok, String message, String jobId, String endpoints, int size, List<String> parentTickets)
    {
        public static Reply failed(final String message)
        {
            return new Reply(false, message, "", "", 0, List.of());
        }

        public byte[] encode()
        {
            return write(out ->
            {
                out.writeBoolean(ok);
                out.writeUTF(message);
                out.writeUTF(jobId);
                out.writeUTF(endpoints);
                out.writeInt(size);
                writeList(out, parentTickets);
            });
        }

        /** @throws IllegalArgumentException for a malformed reply. */
        public static Reply decode(final byte[] bytes)
        {
            return read(bytes, in -> new Reply(in.readBoolean(), in.readUTF(), in.readUTF(), in.readUTF(), in.readInt(), readList(in)));
        }
    }

    @FunctionalInterface
    private interface Writer
    {
        void write(DataOutputStream out) throws IOException;
    }

    @FunctionalInterface
    private interface Reader<T>
    {
        T read(DataInputStream in) throws IOException;
    }

    private static byte[] write(final Writer writer)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes))
        {
            writer.write(out);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return bytes.toByteArray();
    }

    private static <T> T read(final byte[] bytes, final Reader<T> reader)
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes)))
        {
            final T value = reader.read(in);
            if (in.available() != 0)
            {
                throw new IllegalArgumentException("spawn message: " + in.available() + " bytes left over");
            }
            return value;
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("spawn message malformed: " + ex, ex);
        }
    }

    private static void writeList(final DataOutputStream out, final List<String> items) throws IOException
    {
        out.writeInt(items.size());
        for (final String item : items)
        {
            out.writeUTF(item);
        }
    }

    private static List<String> readList(final DataInputStream in) throws IOException
    {
        final int count = in.readInt();
        if (count < 0 || count > 1 << 16)
        {
            throw new IOException("list of " + count + " items");
        }
        final List<String> items = new ArrayList<>(count);
        for (int k = 0; k < count; k++)
        {
            items.add(in.readUTF());
        }
        return List.copyOf(items);
    }
}
