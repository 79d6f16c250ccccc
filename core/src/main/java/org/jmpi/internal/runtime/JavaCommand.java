package org.jmpi.internal.runtime;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.bootstrap.SpawnWire;

/**
 * What a spawn's {@code command} and {@code argv} mean in jmpi (docs/compat.md, "Dynamic processes"): a child is a
 * JVM, so the command is
 * <ul>
 * <li>a main class (a binary name such as {@code org.example.Worker}) on the job's class path, {@code argv} its
 * arguments; or</li>
 * <li>{@code java} (or a path ending in {@code /java}), {@code argv} then java's own arguments: options
 * ({@code -cp}/{@code -classpath}/{@code --class-path} PATH, {@code -D...}, {@code -X...}, {@code -ea}...), the main
 * class, its arguments, as Open MPI's Java programs spawn.</li>
 * </ul>
 * The main class must be found where the child would look (the given class path, or the job's, which is this JVM's):
 * otherwise ERR_SPAWN before anything starts.
 *
 * <p>Stateless; any thread.
 */
final class JavaCommand
{
    private static final Pattern BINARY_NAME = Pattern.compile("[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*" +
        "(\\.[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*)*");

    private JavaCommand()
    {
    }

    static SpawnWire.App parse(final String call, final String command, final String[] argv, final int count, final String host,
        final String wdir)
    {
        final String name = command.trim();
        if (!"java".equals(name) && !name.endsWith("/java"))
        {
            check(call, name, List.of());
            return new SpawnWire.App(name, List.of(), List.of(), List.of(argv), count, host, wdir);
        }
        final List<String> jvmArgs = new ArrayList<>();
        List<String> classPath = List.of();
        int i = 0;
        for (; i < argv.length && argv[i].startsWith("-"); i++)
        {
            final String option = argv[i];
            if ("-cp".equals(option) || "-classpath".equals(option) || "--class-path".equals(option))
            {
                if (i + 1 == argv.length)
                {
                    throw new MpiException(ErrorClass.ERR_SPAWN, call + ": java " + option + " needs a class path");
                }
                classPath = Arrays.stream(argv[++i].split(File.pathSeparator))
                    .map(e -> Path.of(e.isEmpty() ? "." : e).toAbsolutePath().toString()).toList();
            }
            else if ("-jar".equals(option) || "--module".equals(option) || "-m".equals(option))
            {
                throw new MpiException(ErrorClass.ERR_SPAWN, call + ": java " + option + " is not supported for a spawned rank; give " +
                    "-cp PATH and the main class");
            }
            else
            {
                jvmArgs.add(option);
            }
        }
        if (i == argv.length)
        {
            throw new MpiException(ErrorClass.ERR_SPAWN, call + ": java " + String.join(" ", argv) + ": no main class given");
        }
        check(call, argv[i], classPath);
        return new SpawnWire.App(argv[i], List.copyOf(jvmArgs), classPath, List.of(Arrays.copyOfRange(argv, i + 1, argv.length)),
            count, host, wdir);
    }

    /** ERR_SPAWN unless {@code mainClass} loads from {@code classPath} (empty: this JVM's application class path). */
    private static void check(final String call, final String mainClass, final List<String> classPath)
    {
        if (!BINARY_NAME.matcher(mainClass).matches())
        {
            throw new MpiException(ErrorClass.ERR_SPAWN, call + ": command '" + mainClass + "' is neither a main class nor java");
        }
        final ClassLoader parent = Thread.currentThread().getContextClassLoader() != null ?
            Thread.currentThread().getContextClassLoader() : JavaCommand.class.getClassLoader();
        try
        {
            if (classPath.isEmpty())
            {
                Class.forName(mainClass, false, parent);
                return;
            }
            final List<URL> urls = new ArrayList<>();
            for (final String entry : classPath)
            {
                urls.add(Path.of(entry).toUri().toURL());
            }
            try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), parent))
            {
                Class.forName(mainClass, false, loader);
            }
        }
        catch (final ClassNotFoundException | LinkageError ex)
        {
            throw new MpiException(ErrorClass.ERR_SPAWN, call + ": command '" + mainClass + "': no such class on the " +
                (classPath.isEmpty() ? "job's class path" : "class path " + String.join(File.pathSeparator, classPath)));
        }
        catch (final MalformedURLException ex)
        {
            throw new MpiException(ErrorClass.ERR_SPAWN, call + ": class path " + classPath + ": " + ex.getMessage());
        }
        catch (final java.io.IOException ex)
        {
            // closing the loader: nothing to undo
        }
    }
}
