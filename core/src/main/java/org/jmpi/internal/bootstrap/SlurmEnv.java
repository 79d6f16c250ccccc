package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a task started by Slurm's {@code srun} finds in its environment: its rank ({@code SLURM_PROCID}),
 * the step's task count ({@code SLURM_STEP_NUM_TASKS}, else {@code SLURM_NTASKS}), job and step ids, its
 * node ({@code SLURMD_NODENAME}), the step's nodes ({@code SLURM_STEP_NODELIST}, a Slurm host list such as
 * {@code n[01-04,07],gpu3}), and, with {@code --mpi=pmi2}, the PMI-2 descriptor ({@code PMI_FD}).
 *
 * @param jobId jmpi's job id for the step: {@code slurm-<job id>-<step id>}
 * @param pmiFd the PMI-2 descriptor, -1 when srun gave none
 * @param reservedPorts {@code SLURM_STEP_RESV_PORTS} (with Slurm's MpiParams=ports), empty when absent
 */
public record SlurmEnv(int rank, int size, long slurmJobId, long slurmStepId, String jobId, String node, List<String> stepNodes,
    int pmiFd, String pmiJobId, List<Integer> reservedPorts)
{
    /** Host lists longer than this many hosts are refused (a malformed range such as n[1-999999999]). */
    static final int MAX_HOSTS = 1 << 20;

    /**
     * The Slurm step this process is a task of, or null when it is not one (no {@code SLURM_PROCID} or no
     * step id: a batch script itself, or no Slurm at all).
     *
     * @throws MpiException ERR_OTHER when Slurm's variables are present but malformed.
     */
    public static SlurmEnv from(final Map<String, String> env)
    {
        final String procId = env.get("SLURM_PROCID");
        final String stepId = firstOf(env, "SLURM_STEP_ID", "SLURM_STEPID");
        final String jobIdText = firstOf(env, "SLURM_JOB_ID", "SLURM_JOBID");
        if (procId == null || stepId == null || jobIdText == null)
        {
            return null;
        }
        final int rank = number("SLURM_PROCID", procId);
        final String sizeName = env.containsKey("SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS";
        final int size = env.containsKey(sizeName) ? number(sizeName, env.get(sizeName)) : 1;
        if (size < 1 || rank < 0 || rank >= size)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "Slurm environment: SLURM_PROCID=" + rank + " is not below " + sizeName + "=" + size);
        }
        final long job = longNumber("SLURM_JOB_ID", jobIdText);
        final long step = longNumber("SLURM_STEP_ID", stepId);
        final String nodeList = firstOf(env, "SLURM_STEP_NODELIST", "SLURM_NODELIST");
        final List<String> nodes = nodeList == null ? List.of() : expandHostList(nodeList);
        String node = env.get("SLURMD_NODENAME");
        if (node == null || node.isBlank())
        {
            node = nodes.size() == 1 ? nodes.get(0) : "";
        }
        final String fd = env.get("PMI_FD");
        final int pmiFd = fd == null || fd.isBlank() ? -1 : number("PMI_FD", fd);
        final String ports = env.get("SLURM_STEP_RESV_PORTS");
        return new SlurmEnv(rank, size, job, step, "slurm-" + job + "-" + step, node.trim(), nodes, pmiFd, env.get("PMI_JOBID"),
            ports == null || ports.isBlank() ? List.of() : expandPorts(ports));
    }

    /** Whether srun gave this task a PMI-2 descriptor ({@code --mpi=pmi2}). */
    public boolean hasPmi()
    {
        return pmiFd >= 0;
    }

    /**
     * The hosts of a Slurm host list, in order: comma-separated items, each a name with bracketed ranges
     * and numbers ({@code n[01-03,7]} is n01 n02 n03 n7: a range keeps its lower bound's zero padding);
     * several bracket groups in one item multiply out.
     *
     * @throws MpiException ERR_OTHER when the list is malformed or names more than {@link #MAX_HOSTS} hosts.
     */
    public static List<String> expandHostList(final String list)
    {
        final List<String> hosts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= list.length(); i++)
        {
            final char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '[')
            {
                depth++;
            }
            else if (c == ']')
            {
                depth--;
            }
            else if (c == ',' && depth == 0)
            {
                final String item = list.substring(start, i).trim();
                if (!item.isEmpty())
                {
                    expandItem("", item, hosts, list);
                }
                start = i + 1;
            }
            if (depth < 0 || depth > 1)
            {
                throw malformed(list, "unbalanced brackets");
            }
        }
        if (depth != 0)
        {
            throw malformed(list, "unbalanced brackets");
        }
        return hosts;
    }

    private static void expandItem(final String prefix, final String rest, final List<String> hosts, final String list)
    {
        final int open = rest.indexOf('[');
        if (open < 0)
        {
            add(hosts, prefix + rest, list);
            return;
        }
        final int close = rest.indexOf(']', open);
        final String head = prefix + rest.substring(0, open);
        final String tail = rest.substring(close + 1);
        for (final String range : rest.substring(open + 1, close).split(","))
        {
            final int dash = range.indexOf('-');
            final String low = (dash < 0 ? range : range.substring(0, dash)).trim();
            final String high = (dash < 0 ? range : range.substring(dash + 1)).trim();
            if (low.isEmpty() || high.isEmpty() || !low.chars().allMatch(Character::isDigit) || !high.chars().allMatch(Character::isDigit) ||
                low.length() > 9 || high.length() > 9)
            {
                throw malformed(list, "range '" + range + "' is not N or N-M");
            }
            final long from = Long.parseLong(low);
            final long to = Long.parseLong(high);
            if (to < from || to - from >= MAX_HOSTS)
            {
                throw malformed(list, "range '" + range + "' is empty or too long");
            }
            for (long n = from; n <= to; n++)
            {
                final String digits = Long.toString(n);
                expandItem(head + "0".repeat(Math.max(0, low.length() - digits.length())) + digits, tail, hosts, list);
            }
        }
    }

    private static void add(final List<String> hosts, final String host, final String list)
    {
        if (hosts.size() >= MAX_HOSTS)
        {
            throw malformed(list, "more than " + MAX_HOSTS + " hosts");
        }
        hosts.add(host);
    }

    /** {@code 12000-12003} or {@code 12000,12005-12006} as ports. */
    static List<Integer> expandPorts(final String text)
    {
        final List<Integer> ports = new ArrayList<>();
        for (final String part : text.split(","))
        {
            final int dash = part.indexOf('-');
            try
            {
                final int from = Integer.parseInt((dash < 0 ? part : part.substring(0, dash)).trim());
                final int to = Integer.parseInt((dash < 0 ? part : part.substring(dash + 1)).trim());
                for (int p = from; p <= to && p <= 65535 && ports.size() < 64; p++)
                {
                    if (p > 0)
                    {
                        ports.add(p);
                    }
                }
            }
            catch (final NumberFormatException ex)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "Slurm environment: SLURM_STEP_RESV_PORTS=" + text + " is not a port list");
            }
        }
        return ports;
    }

    private static MpiException malformed(final String list, final String why)
    {
        return new MpiException(ErrorClass.ERR_OTHER, "Slurm environment: host list '" + list + "' is malformed: " + why);
    }

    private static String firstOf(final Map<String, String> env, final String... names)
    {
        for (final String name : names)
        {
            final String value = env.get(name);
            if (value != null && !value.isBlank())
            {
                return value.trim();
            }
        }
        return null;
    }

    private static int number(final String name, final String text)
    {
        final long value = longNumber(name, text);
        if (value > Integer.MAX_VALUE)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "Slurm environment: " + name + "=" + text + " is out of range");
        }
        return (int)value;
    }

    private static long longNumber(final String name, final String text)
    {
        try
        {
            final long value = Long.parseLong(text.trim());
            if (value >= 0)
            {
                return value;
            }
        }
        catch (final NumberFormatException ex)
        {
            // reported below
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "Slurm environment: " + name + "=" + text + " is not a non-negative number");
    }
}
