package org.jmpi.internal.rank;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry's open counts and the order of its hooks: the matching layer must see a context's close before
 * the reopen that follows it, even when the reopen comes from another thread (an agreement offering ids) while the
 * closing thread is still inside its hook.
 */
@Timeout(30)
class ContextRegistryTest
{
    @Test
    void shouldCountOpeningsAndCloseOnTheLast()
    {
        final ContextRegistry registry = new ContextRegistry();
        final List<Integer> events = new CopyOnWriteArrayList<>();
        registry.hooks(id -> events.add(~id), events::add);
        registry.open(300);
        registry.open(300);
        assertFalse(registry.close(300));
        assertTrue(registry.isOpen(300));
        assertTrue(registry.close(300));
        assertFalse(registry.isOpen(300));
        registry.reopenClosed();
        registry.reopenClosed();
        assertEquals(List.of(~300, 300), events, "one close, one reopen, none twice");
    }

    @Test
    void shouldNeverReopenBeforeTheCloseHookRan() throws InterruptedException
    {
        final ContextRegistry registry = new ContextRegistry();
        final List<Integer> events = new CopyOnWriteArrayList<>();
        final CountDownLatch inCloseHook = new CountDownLatch(1);
        final CountDownLatch releaseClose = new CountDownLatch(1);
        registry.hooks(id ->
        {
            inCloseHook.countDown();
            try
            {
                releaseClose.await(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            events.add(~id);
        }, events::add);
        registry.open(16);
        final Thread closer = Thread.ofPlatform().start(() -> registry.close(16));
        assertTrue(inCloseHook.await(10, TimeUnit.SECONDS));
        // The closing thread is inside its hook (preempted there, as on a loaded machine): an agreement offers ids now.
        final Thread offerer = Thread.ofPlatform().start(registry::reopenClosed);
        offerer.join(200);
        releaseClose.countDown();
        closer.join(10_000);
        offerer.join(10_000);
        assertEquals(List.of(~16, 16), events, "the reopen must follow the close, or the context's frames are dropped for good");
    }
}
