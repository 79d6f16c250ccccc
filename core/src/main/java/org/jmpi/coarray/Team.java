package org.jmpi.coarray;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Intracomm;
import org.jmpi.MpiException;
import org.jmpi.Win;

/**
 * The images that share coarrays: the ranks of a communicator, numbered from 0 (image {@code i} is rank {@code i};
 * Fortran numbers them from 1, jmpi as MPI does). Made collectively by {@link #of}; its synchronisation statements
 * complete the nonblocking puts of every coarray allocated on it.
 *
 * <p>Where the team's coarrays live is decided here, once, for all of them: in the images' PVAS arena partitions when
 * every image has the arena on (ranks in several JVMs of a node with {@code jmpi.pvas.partition.size} set; the local
 * view is then a buffer), else in Java arrays ({@link #inArena()}).
 *
 * <p>Threading: one thread per image uses a team and its coarrays at a time (as one Fortran image is one thread of
 * control). The team owns a duplicate of the communicator and a window of one long for its barrier, freed by
 * {@link #free()}.
 */
public final class Team
{
    private final Intracomm comm;
    /**
     * A window of one long whose fences are {@link #syncAll}'s barrier, and whose signals ({@code Win.signalAndWait})
     * are {@link #syncImages}'s: by atomics on the images' synchronisation memory between threads of one JVM, and across
     * JVMs where it is in the PVAS arena.
     */
    private final Win sync;
    /** Whether every image's window memory is in the PVAS arena, so coarrays are allocated there (decided together). */
    private final boolean inArena;
    private final List<Coarray> coarrays = new ArrayList<>();
    private final boolean[] named;

    private Team(final Intracomm comm)
    {
        this.comm = comm;
        // Win.allocate puts its memory in the arena where this image has one: whether every image's did decides where
        // the team's coarrays live (all in the arena, or all on the heap)
        this.sync = Win.allocate(Long.BYTES, Long.BYTES, null, comm);
        sync.setName("coarray team sync");
        final int[] arena = new int[1];
        comm.allreduce(new int[] {sync.inArena() ? 1 : 0}, 0, arena, 0, 1, Datatype.INT, org.jmpi.Op.MIN);
        this.inArena = arena[0] == 1;
        this.named = new boolean[comm.size()];
    }

    /**
     * A team of {@code comm}'s ranks (collective over {@code comm}; the team synchronises on its own duplicate of it).
     *
     * @throws MpiException ERR_COMM for an intercommunicator.
     */
    public static Team of(final Comm comm)
    {
        if (!(comm instanceof Intracomm intra))
        {
            throw new MpiException(ErrorClass.ERR_COMM, "Team.of: images are the ranks of an intracommunicator, not " + comm);
        }
        return new Team(intra.dup());
    }

    /** This image's number, from 0 (Fortran's {@code this_image()} - 1). */
    public int thisImage()
    {
        return comm.rank();
    }

    /** The number of images (Fortran's {@code num_images()}). */
    public int numImages()
    {
        return comm.size();
    }

    /** The team's communicator (a duplicate of the one it was made of), for two-sided code beside the coarrays. */
    public Intracomm comm()
    {
        return comm;
    }

    /**
     * {@code sync all}: completes this image's nonblocking puts to every image, then waits until every image has
     * reached this statement; afterwards every image sees what every other wrote before it.
     */
    public void syncAll()
    {
        completePuts();
        // a fence that closes and opens nothing is a barrier: between threads of one JVM, atomics on the ranks' memory
        sync.fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED | Win.MODE_NOSTORE | Win.MODE_NOPUT);
        VarHandle.fullFence();
    }

    /**
     * {@code sync images(list)}: completes this image's nonblocking puts, then waits until each listed image has
     * executed a matching {@code syncImages} naming this image. The list may name this image (ignored); an empty list
     * synchronises with nobody.
     *
     * @throws MpiException ERR_RANK for an image outside [0, numImages()), ERR_ARG for an image listed twice.
     */
    public void syncImages(final int... images)
    {
        java.util.Arrays.fill(named, false);
        for (final int image : images)
        {
            if (image < 0 || image >= numImages())
            {
                throw new MpiException(ErrorClass.ERR_RANK, "syncImages: image " + image + " outside [0, " + numImages() + ")");
            }
            if (named[image])
            {
                throw new MpiException(ErrorClass.ERR_ARG, "syncImages: image " + image + " is listed twice");
            }
            named[image] = true;
        }
        completePuts();
        final int me = thisImage();
        final int[] others = new int[named[me] ? images.length - 1 : images.length];
        int at = 0;
        for (final int image : images)
        {
            if (image != me)
            {
                others[at++] = image;
            }
        }
        // one signal to each named image and one from each, on the team's synchronisation window (atomics on the images'
        // memory between threads and through the arena; no message, no request)
        sync.signalAndWait(others);
        VarHandle.fullFence();
    }

    /** {@code sync all} with every image: {@link #syncAll()}; for Fortran's {@code sync images(*)}. */
    public void syncImagesAll()
    {
        syncAll();
    }

    /**
     * {@code sync memory}: completes this image's nonblocking puts and orders its memory accesses before and after
     * (a full fence). Synchronises with no other image.
     */
    public void syncMemory()
    {
        completePuts();
        VarHandle.fullFence();
    }

    /** Frees the team's communicator (collective). Its coarrays must be closed first. */
    public void free()
    {
        if (!coarrays.isEmpty())
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "Team.free: " + coarrays.size() + " coarrays of the team are still open");
        }
        sync.free();
        comm.free();
    }

    /**
     * Whether the team's coarrays live in the images' PVAS arena partitions (every image has the arena on:
     * {@code jmpi.pvas.partition.size}) rather than in Java arrays.
     */
    public boolean inArena()
    {
        return inArena;
    }

    private void completePuts()
    {
        for (final Coarray c : coarrays)
        {
            c.completePuts();
        }
    }

    void opened(final Coarray coarray)
    {
        coarrays.add(coarray);
    }

    void closed(final Coarray coarray)
    {
        coarrays.remove(coarray);
    }
}
