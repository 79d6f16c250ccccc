package org.jmpi.junit;

import org.jmpi.Comm;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The extension behind {@link MpiTest}: one invocation per rank count; in each, JUnit's own call of the
 * method is replaced by a {@link RankRun} that calls it on every rank's thread with that rank's world
 * communicator.
 *
 * <p>Threading: JUnit's; stateless.
 */
public final class MpiTestExtension implements TestTemplateInvocationContextProvider
{
    @Override
    public boolean supportsTestTemplate(final ExtensionContext context)
    {
        return context.getTestMethod().map(m -> m.isAnnotationPresent(MpiTest.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(final ExtensionContext context)
    {
        final Method method = context.getRequiredTestMethod();
        final MpiTest spec = method.getAnnotation(MpiTest.class);
        final int commIndex = commParameterIndex(method);
        if (spec.ranks().length == 0)
        {
            throw new ExtensionConfigurationException("@MpiTest on " + method.getName() + ": ranks is empty; give at least one job size");
        }
        final Set<Integer> seen = new HashSet<>();
        for (final int size : spec.ranks())
        {
            if (size < 1)
            {
                throw new ExtensionConfigurationException("@MpiTest on " + method.getName() + ": ranks " + Arrays.toString(spec.ranks()) +
                    " holds " + size + "; every job size must be at least 1");
            }
            if (!seen.add(size))
            {
                throw new ExtensionConfigurationException("@MpiTest on " + method.getName() + ": ranks " + Arrays.toString(spec.ranks()) +
                    " holds " + size + " twice");
            }
        }
        if (spec.timeout() < 1)
        {
            throw new ExtensionConfigurationException("@MpiTest on " + method.getName() + ": timeout must be at least 1: timeout=" + spec.timeout());
        }
        return Arrays.stream(spec.ranks()).mapToObj(size -> new RankCountContext(size, spec, commIndex));
    }

    private static int commParameterIndex(final Method method)
    {
        int index = -1;
        final Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++)
        {
            if (types[i] == Comm.class)
            {
                if (index >= 0)
                {
                    throw new ExtensionConfigurationException("@MpiTest method " + method.getName() + " takes more than one Comm; it takes one, the rank's world");
                }
                index = i;
            }
        }
        if (index < 0)
        {
            throw new ExtensionConfigurationException("@MpiTest method " + method.getName() + Arrays.toString(types) +
                " takes no org.jmpi.Comm; declare it as void " + method.getName() + "(Comm comm)");
        }
        return index;
    }

    /** One rank count of a test: its display name and the extensions that run it. */
    private record RankCountContext(int size, MpiTest spec, int commIndex) implements TestTemplateInvocationContext
    {
        @Override
        public String getDisplayName(final int invocationIndex)
        {
            return size + (size == 1 ? " rank" : " ranks");
        }

        @Override
        public List<Extension> getAdditionalExtensions()
        {
            return List.of(new CommPlaceholder(), new RankInterceptor(size, spec, commIndex));
        }
    }

    /**
     * Resolves the {@link MpiTest} method's {@code Comm} parameter for JUnit's own (skipped) call;
     * each rank's call gets its world communicator instead. Only that method: a {@code Comm} parameter
     * elsewhere stays unresolved.
     */
    private static final class CommPlaceholder implements ParameterResolver
    {
        @Override
        public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context)
        {
            return parameter.getParameter().getType() == Comm.class &&
                parameter.getDeclaringExecutable().isAnnotationPresent(MpiTest.class);
        }

        @Override
        public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context)
        {
            return null;
        }
    }

    /** Replaces JUnit's call of the method with the ranks' calls. */
    private record RankInterceptor(int size, MpiTest spec, int commIndex) implements InvocationInterceptor
    {
        @Override
        public void interceptTestTemplateMethod(final Invocation<Void> invocation, final ReflectiveInvocationContext<Method> call,
            final ExtensionContext context) throws Throwable
        {
            invocation.skip();
            new RankRun(size, spec.timeoutUnit().toNanos(spec.timeout()), spec.threadLevel())
                .run(call.getExecutable(), call.getTarget().orElse(null), call.getArguments().toArray(), commIndex);
        }
    }
}
