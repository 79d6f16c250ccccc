package org.jmpi.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The hosts of a job across hosts, with their slots, as given by {@code --host a,b:2,c} and
 * {@code --hostfile FILE} (Open MPI's format), and the mapping of ranks onto them
 * ({@code --map-by slot|node}, {@code --npernode N}). A host named twice adds up its slots.
 *
 * <p>Immutable; any thread.
 *
 * @param names hosts in the order first given
 * @param slots slots per host, same order
 */
record Hosts(List<String> names, List<Integer> slots)
{
    /** How ranks are laid over the hosts. */
    enum MapBy
    {
        /** Fill each host's slots before the next host (Open MPI's default). */
        SLOT,
        /** One rank per host in turn, skipping hosts whose slots are full. */
        NODE
    }

    /** Parses {@code --host}'s value: {@code name[:slots]} separated by commas. */
    static void addHostList(final Map<String, Integer> into, final String text) throws UsageException
    {
        for (final String item : text.split(","))
        {
            final String entry = item.trim();
            if (entry.isEmpty())
            {
                throw new UsageException("--host needs host[:slots] separated by commas, got " + text);
            }
            final int colon = entry.lastIndexOf(':');
            final String name = colon < 0 ? entry : entry.substring(0, colon);
            final int slots = colon < 0 ? 1 : positive(entry.substring(colon + 1), "--host " + entry + ": slots");
            add(into, name, slots, "--host " + text);
        }
    }

    /**
     * Reads a hostfile: one host per line, {@code name [slots=N] [max_slots=M]}; {@code #} starts a
     * comment; blank lines are skipped; no {@code slots=} means one slot.
     */
    static void addHostFile(final Map<String, Integer> into, final Path file) throws UsageException
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UsageException("cannot read the hostfile " + file + ": " + ex.getMessage());
        }
        for (int i = 0; i < lines.size(); i++)
        {
            final int hash = lines.get(i).indexOf('#');
            final String line = (hash < 0 ? lines.get(i) : lines.get(i).substring(0, hash)).trim();
            if (line.isEmpty())
            {
                continue;
            }
            final String where = file + ":" + (i + 1);
            final String[] words = line.split("\\s+");
            int slots = 1;
            for (int w = 1; w < words.length; w++)
            {
                final String word = words[w].toLowerCase(Locale.ROOT);
                if (word.startsWith("slots="))
                {
                    slots = positive(word.substring("slots=".length()), where + ": slots");
                }
                else if (word.startsWith("max_slots=") || word.startsWith("max-slots="))
                {
                    positive(word.substring(word.indexOf('=') + 1), where + ": max_slots");
                }
                else
                {
                    throw new UsageException(where + ": unknown attribute " + words[w] + " (expected slots=N or max_slots=N)");
                }
            }
            add(into, words[0], slots, where);
        }
    }

    /** Whether {@code name} is this machine: started directly, not through the launch agent. */
    static boolean isLocal(final String name)
    {
        if (name.equals("localhost") || name.equals("127.0.0.1") || name.equals("::1"))
        {
            return true;
        }
        try
        {
            final String self = InetAddress.getLocalHost().getHostName();
            final String hostFile = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            return name.equals(self) || name.equals(hostFile) || name.equals(shortName(self)) || name.equals(shortName(hostFile));
        }
        catch (final IOException | RuntimeException ex)
        {
            return false;
        }
    }

    /** Total slots. */
    int slotCount()
    {
        return slots.stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * The host index of every rank.
     *
     * 1. With {@code perNode} > 0 every host has exactly that many slots; otherwise its given slots.
     * 2. SLOT: ranks fill host 0's slots, then host 1's, ...; NODE: rank r goes to the next host in
     *    turn that has a free slot.
     * 3. More ranks than slots is an error unless {@code oversubscribe}, which starts another round.
     */
    int[] map(final int rankCount, final MapBy mapBy, final int perNode, final boolean oversubscribe) throws UsageException
    {
        final int hostCount = names.size();
        final int[] capacity = new int[hostCount];
        int total = 0;
        for (int h = 0; h < hostCount; h++)
        {
            capacity[h] = perNode > 0 ? perNode : slots.get(h);
            total += capacity[h];
        }
        if (rankCount > total && !oversubscribe)
        {
            throw new UsageException("not enough slots: -np " + rankCount + " but the hosts have " + total +
                (perNode > 0 ? " (--npernode " + perNode + " x " + hostCount + " host(s))" : " slot(s) (" + describe() + ")") +
                "; give more slots or --oversubscribe");
        }
        final int[] hostOf = new int[rankCount];
        final int[] used = new int[hostCount];
        int rank = 0;
        while (rank < rankCount)
        {
            final int round = rank / total;
            for (int h = 0; h < hostCount && rank < rankCount; h++)
            {
                if (mapBy == MapBy.SLOT)
                {
                    for (int s = 0; s < capacity[h] && rank < rankCount; s++)
                    {
                        hostOf[rank++] = h;
                    }
                }
            }
            if (mapBy == MapBy.NODE)
            {
                boolean placed = true;
                while (placed && rank < rankCount)
                {
                    placed = false;
                    for (int h = 0; h < hostCount && rank < rankCount; h++)
                    {
                        if (used[h] < capacity[h] * (round + 1))
                        {
                            used[h]++;
                            hostOf[rank++] = h;
                            placed = true;
                        }
                    }
                }
            }
        }
        return hostOf;
    }

    /** {@code a:1, b:2} */
    String describe()
    {
        final StringBuilder sb = new StringBuilder();
        for (int h = 0; h < names.size(); h++)
        {
            sb.append(h == 0 ? "" : ", ").append(names.get(h)).append(':').append(slots.get(h));
        }
        return sb.toString();
    }

    static Hosts of(final Map<String, Integer> slotsByName)
    {
        return new Hosts(List.copyOf(slotsByName.keySet()), List.copyOf(slotsByName.values()));
    }

    static Map<String, Integer> newSlotMap()
    {
        return new LinkedHashMap<>();
    }

    private static void add(final Map<String, Integer> into, final String name, final int slots, final String where) throws UsageException
    {
        if (!name.matches("[A-Za-z0-9_.:\\[\\]@-]+"))
        {
            throw new UsageException(where + ": not a host name: '" + name + "'");
        }
        into.merge(name, slots, Integer::sum);
    }

    private static int positive(final String text, final String what) throws UsageException
    {
        try
        {
            final int value = Integer.parseInt(text.trim());
            if (value >= 1)
            {
                return value;
            }
        }
        catch (final NumberFormatException ex)
        {
            // Reported below.
        }
        throw new UsageException(what + " must be a positive number, got " + text);
    }

    private static String shortName(final String name)
    {
        final int dot = name.indexOf('.');
        return dot < 0 ? name : name.substring(0, dot);
    }

    /** For a reader of error messages: the hosts as given. */
    @Override
    public String toString()
    {
        return describe();
    }
}
