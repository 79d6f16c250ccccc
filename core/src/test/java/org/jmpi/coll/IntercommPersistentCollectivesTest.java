package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.jmpi.Ranks;
import org.jmpi.Request;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.jmpi.coll.IntercommFixture.*;
import static org.jmpi.coll.IntercommPersistentScenarios.EPOCHS;
import static org.jmpi.coll.IntercommPersistentScenarios.persistentScenarios;

/**
 * Every persistent intercommunicator collective ({@code ...Init}), all initialised on one intercommunicator and started
 * together {@value IntercommPersistentScenarios#EPOCHS} times with data that changes at every start, against the
 * sequential reference ({@link IntercommFixture}); groups split as in {@link IntercommCollectivesTest}.
 */
@Timeout(120)
class IntercommPersistentCollectivesTest
{
    static Stream<Arguments> persistentJobs()
    {
        final List<Arguments> jobs = new ArrayList<>();
        for (final int size : new int[] {2, 3, 5})
        {
            jobs.add(Arguments.of(size, "mod3"));
            jobs.add(Arguments.of(size, "last"));
        }
        return jobs.stream();
    }

    /**
     * Every persistent intercommunicator collective, all initialised in the same order on every process, then per
     * epoch: fill the send buffers with that epoch's data and the receive buffers with guards, start all in order,
     * complete them in reverse order, check each against the reference for that epoch.
     */
    @ParameterizedTest(name = "{0} ranks, split {1}")
    @MethodSource("persistentJobs")
    void shouldMatchReferenceOnEveryStartWhenPersistent(final int size, final String split)
    {
        final AtomicInteger arrived = new AtomicInteger();
        Ranks.run(size, (mpi, world) ->
        {
            final Ctx c = setUp(world, split);
            final List<IntercommPersistentScenarios.Persistent> runs = new ArrayList<>();
            for (final IntercommPersistentScenarios.PersistentScenario sc : persistentScenarios(c, arrived))
            {
                runs.add(sc.init(c));
            }
            final Request[] requests = runs.stream().map(IntercommPersistentScenarios.Persistent::request).toArray(Request[]::new);
            for (int epoch = 0; epoch < EPOCHS; epoch++)
            {
                for (final IntercommPersistentScenarios.Persistent run : runs)
                {
                    run.fill().accept(epoch);
                }
                Request.startAll(requests);
                for (int i = requests.length - 1; i >= 0; i--)
                {
                    requests[i].await();
                }
                for (final IntercommPersistentScenarios.Persistent run : runs)
                {
                    run.check().accept(epoch);
                }
            }
            // A blocking collective after them all: the tags still agree.
            IntercommScenarios.allreduceSum(3).post(c, false, null).run();
        });
    }
}
