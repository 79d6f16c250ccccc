package org.jmpi.launcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts a command on another host through the launch agent ({@code --launch-agent CMD}, {@code ssh} by
 * default). The rule, which docs/cluster.md states for users:
 * <ol>
 *   <li>CMD is split into words as a shell would (single and double quotes, backslash).</li>
 *   <li>Every {@code %h} in a word is replaced by the host; when there is none, the host is appended as
 *       the next word ({@code ssh -x node7}, {@code ip netns exec node7}).</li>
 *   <li>The remote side is always {@code /bin/sh -c SCRIPT}. An agent whose program is {@code ssh} or
 *       {@code rsh} hands the remote shell one command line, so it gets {@code exec /bin/sh -c 'SCRIPT'}
 *       as one word; any other agent gets the three words {@code /bin/sh -c SCRIPT} as its arguments.</li>
 * </ol>
 * The script changes to the launcher's directory when the host has it, reads the rank's ticket from
 * its first line of stdin (so no credential appears in a command line that other users may list),
 * and execs {@code env VAR=VALUE... COMMAND}.
 *
 * <p>Immutable; any thread.
 */
final class LaunchAgent
{
    private final List<String> words;

    LaunchAgent(final String command) throws UsageException
    {
        this.words = split(command);
        if (words.isEmpty())
        {
            throw new UsageException("--launch-agent needs a command, got '" + command + "'");
        }
    }

    /** The agent's words as given, for reports. */
    String describe()
    {
        return String.join(" ", words);
    }

    /** The local command that runs {@code script} under {@code /bin/sh} on {@code host}. */
    List<String> command(final String host, final String script)
    {
        final List<String> command = new ArrayList<>();
        boolean substituted = false;
        for (final String word : words)
        {
            substituted |= word.contains("%h");
            command.add(word.replace("%h", host));
        }
        if (!substituted)
        {
            command.add(host);
        }
        final String program = Path.of(words.get(0)).getFileName().toString();
        if (program.equals("ssh") || program.equals("rsh"))
        {
            command.add("exec /bin/sh -c " + quote(script));
        }
        else
        {
            command.add("/bin/sh");
            command.add("-c");
            command.add(script);
        }
        return command;
    }

    /**
     * {@code cd DIR 2>/dev/null; [IFS= read -r TICKETVAR && export TICKETVAR &&] exec env VAR=VALUE... COMMAND}.
     *
     * @param ticketVariable when not null, the variable the first line of stdin is read into
     */
    static String script(final String directory, final String ticketVariable, final Map<String, String> env, final List<String> command)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("cd ").append(quote(directory)).append(" 2>/dev/null; ");
        if (ticketVariable != null)
        {
            sb.append("IFS= read -r ").append(ticketVariable).append(" && export ").append(ticketVariable).append(" && ");
        }
        sb.append("exec env");
        env.forEach((name, value) -> sb.append(' ').append(quote(name + "=" + value)));
        for (final String word : command)
        {
            sb.append(' ').append(quote(word));
        }
        return sb.toString();
    }

    /** {@code text} in single quotes for /bin/sh. */
    static String quote(final String text)
    {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** Splits {@code text} into words as /bin/sh would, without expansions. */
    static List<String> split(final String text) throws UsageException
    {
        final List<String> result = new ArrayList<>();
        final StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (quote != 0)
            {
                if (c == quote)
                {
                    quote = 0;
                }
                else if (c == '\\' && quote == '"' && i + 1 < text.length())
                {
                    word.append(text.charAt(++i));
                }
                else
                {
                    word.append(c);
                }
            }
            else if (c == '\'' || c == '"')
            {
                quote = c;
                inWord = true;
            }
            else if (c == '\\' && i + 1 < text.length())
            {
                word.append(text.charAt(++i));
                inWord = true;
            }
            else if (Character.isWhitespace(c))
            {
                if (inWord)
                {
                    result.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            }
            else
            {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0)
        {
            throw new UsageException("--launch-agent: unterminated " + quote + " in " + text);
        }
        if (inWord)
        {
            result.add(word.toString());
        }
        return result;
    }
}
