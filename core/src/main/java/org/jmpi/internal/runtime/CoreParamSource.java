package org.jmpi.internal.runtime;

import org.jmpi.internal.bootstrap.ParamRegistry;
import java.util.ArrayList;
import java.util.List;

import org.jmpi.internal.bootstrap.ParamSource;
import org.jmpi.internal.coll.CollParams;
import org.jmpi.spi.ParamSpec;

/** The runtime's and the collectives' parameters, for {@link org.jmpi.internal.bootstrap.ParamRegistry}. */
public final class CoreParamSource implements ParamSource
{
    @Override
    public List<ParamSpec> params()
    {
        final List<ParamSpec> all = new ArrayList<>(CoreParams.ALL);
        all.addAll(CollParams.ALL);
        return all;
    }
}
